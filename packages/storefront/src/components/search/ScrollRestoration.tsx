import { useEffect, useRef, useState } from 'react';
import { useInstantSearch } from 'react-instantsearch';
import { cameByHistory, currentUrl } from '../../lib/navigation.ts';
import { savedScrollPosition } from '../../lib/scroll-memory.ts';

/** How long late layout (images, the trending carousel) may still move the page after the results render. */
const settleMs = 2000;

/**
 * Back from a product page: once the first real results are on screen, scroll to where the shopper was. Parts
 * that arrive later can still push the results down, so until the shopper scrolls, types or touches, the
 * position is applied again whenever the page's height changes (for at most `settleMs`).
 */
export function ScrollRestoration() {
  const [y] = useState(() => (cameByHistory() ? savedScrollPosition(currentUrl()) : undefined));
  // Mounted only when there is a position to restore: following every search's renders costs each keystroke.
  return y === undefined ? null : <RestoreScroll y={y} />;
}

function RestoreScroll({ y: saved }: { y: number }) {
  const { results, status } = useInstantSearch({ catchError: true });
  const target = useRef<number | undefined>(saved);

  useEffect(() => {
    const y = target.current;
    if (y === undefined || results.__isArtificial || status === 'loading' || status === 'stalled') return;
    target.current = undefined;
    const apply = () => window.scrollTo(0, y);
    apply();
    const observer = new ResizeObserver(apply);
    observer.observe(document.body);
    const stop = () => {
      observer.disconnect();
      clearTimeout(timer);
      for (const type of ['wheel', 'touchstart', 'keydown', 'mousedown'] as const) window.removeEventListener(type, stop);
    };
    const timer = setTimeout(stop, settleMs);
    for (const type of ['wheel', 'touchstart', 'keydown', 'mousedown'] as const) window.addEventListener(type, stop, { passive: true });
  }, [results, status]);

  return null;
}

/** Moves the top of the results into view, as after choosing another page of them. */
export function scrollToResultsTop(): void {
  const top = document.getElementById('main')?.getBoundingClientRect().top;
  if (top !== undefined && top < 0) window.scrollBy(0, top);
}
