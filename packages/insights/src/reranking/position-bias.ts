/**
 * The position-bias model of dynamic re-ranking: a record on top is clicked more because it is on top, so what
 * counts is how much more (or less) shoppers engaged with it than its positions predict.
 *
 * 1. **Click curve** (per index, from the shop's own tracked searches): the click-through rate at each position
 *    p, `ctr(p) = (clicks at p + PRIOR_IMPRESSIONS × ctr(p − 1)) / (impressions at p + PRIOR_IMPRESSIONS)`, with
 *    `ctr(0)` the index's overall rate (a position seldom shown borrows its neighbour's rate), then made
 *    non-increasing by pool-adjacent-violators weighted by impressions (a lower place never predicts more clicks).
 * 2. **Expected clicks** of a record for a query: `E = Σ_p impressions(p) × ctr(p)` over the positions it was
 *    shown at.
 * 3. **Score**: engagement `G = clicks + CONVERSION_WEIGHT × conversions` against its prediction
 *    `X = E × (1 + CONVERSION_WEIGHT × ρ)` (ρ: the index's conversions per click), shrunk towards 1 by a prior of
 *    `PRIOR_EVENTS` events: `score = (G + PRIOR_EVENTS) / (X + PRIOR_EVENTS)`.
 * 4. **Evidence**: a record is boosted only when `score ≥ MIN_SCORE`, it has at least `MIN_CLICKS` clicks, and
 *    the excess is unlikely to be chance: `(G − X) / √(X + 1) ≥ MIN_Z` (a Poisson z-score). Random clicks follow
 *    the curve, so they boost almost nothing; a record shoppers prefer gets past all three within days.
 */

/** Impressions a position's own counts must outweigh before its rate departs from its upper neighbour's. */
export const PRIOR_IMPRESSIONS = 20;
/** A conversion counts as this many clicks more. */
export const CONVERSION_WEIGHT = 2;
/** Pseudo-events at the predicted rate every record starts with (the score's shrinkage towards 1). */
export const PRIOR_EVENTS = 5;
export const MIN_SCORE = 1.2;
export const MIN_CLICKS = 3;
/** High, because every record of every query is a test: at 3, `npm run bench:learning`'s random shoppers boosted a few. */
export const MIN_Z = 4;

/** Impressions and clicks at one position (1-based positions: index 0 is position 1). */
export interface PositionCounts {
  shown: number;
  clicks: number;
}

/** `ctr(p)` for positions 1..n (index p − 1). Positions never shown and never clicked take their neighbour's rate. */
export function clickCurve(byPosition: readonly PositionCounts[]): number[] {
  let shown = 0;
  let clicks = 0;
  for (const counts of byPosition) {
    shown += counts.shown;
    clicks += counts.clicks;
  }
  if (shown === 0) return byPosition.map(() => 0);
  let previous = Math.min(1, clicks / shown);
  const raw = byPosition.map((counts) => {
    previous = Math.min(1, (counts.clicks + PRIOR_IMPRESSIONS * previous) / (counts.shown + PRIOR_IMPRESSIONS));
    return previous;
  });
  return nonIncreasing(raw, byPosition.map((counts) => counts.shown + PRIOR_IMPRESSIONS));
}

/** Weighted pool-adjacent-violators: the closest non-increasing sequence (least squares, weighted). */
export function nonIncreasing(values: readonly number[], weights: readonly number[]): number[] {
  const blocks: Array<{ value: number; weight: number; size: number }> = [];
  values.forEach((value, i) => {
    blocks.push({ value, weight: weights[i], size: 1 });
    while (blocks.length > 1 && blocks[blocks.length - 2].value < blocks[blocks.length - 1].value) {
      const last = blocks.pop()!;
      const before = blocks[blocks.length - 1];
      const weight = before.weight + last.weight;
      before.value = (before.value * before.weight + last.value * last.weight) / weight;
      before.weight = weight;
      before.size += last.size;
    }
  });
  return blocks.flatMap((block) => Array.from({ length: block.size }, () => block.value));
}

/** `Σ impressions(p) × ctr(p)`; positions past the curve take its last rate. */
export function expectedClicks(shownAt: ReadonlyArray<readonly [position: number, impressions: number]>, curve: readonly number[]): number {
  let expected = 0;
  for (const [position, impressions] of shownAt) {
    if (curve.length === 0) break;
    expected += impressions * curve[Math.min(position, curve.length) - 1];
  }
  return expected;
}

export interface Engagement {
  clicks: number;
  conversions: number;
  expectedClicks: number;
}

/** The score and whether the evidence is enough to boost (`conversionRate`: the index's conversions per click). */
export function judge(engagement: Engagement, conversionRate: number): { score: number; boosted: boolean } {
  const observed = engagement.clicks + CONVERSION_WEIGHT * engagement.conversions;
  const predicted = engagement.expectedClicks * (1 + CONVERSION_WEIGHT * conversionRate);
  const score = (observed + PRIOR_EVENTS) / (predicted + PRIOR_EVENTS);
  const z = (observed - predicted) / Math.sqrt(predicted + 1);
  return { score, boosted: score >= MIN_SCORE && engagement.clicks >= MIN_CLICKS && z >= MIN_Z };
}
