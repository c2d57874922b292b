import type { Random } from './random.ts';

/**
 * Reviews as a shop collects them: each model has a true quality, each review scores it 1 to 5 with the noise
 * of one shopper's opinion, and the rating shown is the rounded average of the reviews. So a product with no
 * reviews has no rating (0), a product with a handful spreads over the whole scale, and one with hundreds sits
 * near its quality, which leans to 4 as on real shops.
 */

/** Reviews averaged one by one; past this count the average is drawn directly around the quality. */
const SIMULATED_REVIEWS = 6;

/** A model's true quality, about 4.1 on average, rarely under 3 or over 4.8. */
export function drawQuality(random: Random): number {
  const spread = random.next() + random.next() + random.next() - 1.5;
  return Math.min(4.9, Math.max(1.5, 4.1 + spread * 0.9));
}

/** One shopper's score, 1 to 5. */
function reviewScore(random: Random, quality: number): number {
  const opinion = (random.next() - 0.5) * 3.6;
  return Math.min(5, Math.max(1, Math.round(quality + opinion)));
}

/** The rating shown for `reviewCount` reviews: an integer from 1 to 5, or 0 when there is none. */
export function averageRating(random: Random, quality: number, reviewCount: number): number {
  if (reviewCount === 0) return 0;
  if (reviewCount <= SIMULATED_REVIEWS) {
    let sum = 0;
    for (let i = 0; i < reviewCount; i++) sum += reviewScore(random, quality);
    return Math.round(sum / reviewCount);
  }
  // The average of many scores stays within a few tenths of the quality.
  const drift = ((random.next() - 0.5) * 1.2) / Math.sqrt(reviewCount / SIMULATED_REVIEWS);
  return Math.min(5, Math.max(1, Math.round(quality + drift)));
}
