/**
 * The one binary search the engine's sorted structures share: over positions `from`..`to` where `before(i)`
 * holds for a prefix and fails for the rest, the first position where it fails (`to` if none). Lower and upper
 * bounds, gaps in an order and dictionary ranges are all this with a different `before`.
 */
export function partitionPoint(from: number, to: number, before: (index: number) => boolean): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
