/**
 * A rating out of five as stars, with the number spelled out for screen readers. A product whose count of
 * reviews is zero has no rating to show (its rating is 0), so it says so instead of drawing five empty stars.
 */
export function Stars({ rating, count }: { rating: number; count?: number }) {
  if (count === 0) return <span className="vt-stars vt-stars-none">No reviews yet</span>;
  const rounded = Math.max(0, Math.min(5, Math.round(Number(rating) || 0)));
  const label = `Rated ${rounded} out of 5${count !== undefined ? `, ${count} reviews` : ''}`;
  return (
    <span className="vt-stars" role="img" aria-label={label}>
      <span aria-hidden="true">
        {'★'.repeat(rounded)}
        <span className="vt-stars-empty">{'★'.repeat(5 - rounded)}</span>
      </span>
      {count !== undefined && <span className="vt-stars-count" aria-hidden="true"> ({count})</span>}
    </span>
  );
}
