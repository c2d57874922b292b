import { useRange } from 'react-instantsearch';
import { Stars } from '../product/Stars.tsx';

const thresholds = [4, 3, 2];

/**
 * "4 & up" style rating filter: a numeric refinement `rating >= n` through the range connector (the rating is
 * an integer 1–5 in the records). Choosing the active threshold again removes it.
 */
export function Ratings({ attribute = 'rating' }: { attribute?: string }) {
  const { start, refine } = useRange({ attribute });
  const current = Number.isFinite(start[0]) ? start[0] : undefined;
  return (
    <ul className="vt-ratings">
      {thresholds.map((threshold) => {
        const active = current === threshold;
        return (
          <li key={threshold}>
            <button
              type="button"
              className="vt-ratings-button"
              aria-pressed={active}
              onClick={() => refine(active ? [undefined, undefined] : [threshold, undefined])}
            >
              <Stars rating={threshold} /> <span>{threshold} &amp; up</span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
