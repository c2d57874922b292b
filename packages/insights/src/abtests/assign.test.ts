/** A/B test assignment: stable per searcher, independent between tests, and splitting traffic as asked. */
import { describe, expect, it } from 'vitest';
import { bucketOf, variantOf } from './assign.ts';

const tokens = Array.from({ length: 20_000 }, (_, i) => `user-${i}`);

describe('variantOf', () => {
  it('gives a searcher the same variant every time', () => {
    for (const token of tokens.slice(0, 100)) expect(variantOf(7, token, 50)).toBe(variantOf(7, token, 50));
  });

  it('splits searchers as the traffic percentages say', () => {
    for (const percentage of [50, 20, 90]) {
      const first = tokens.filter((token) => variantOf(3, token, percentage) === 1).length / tokens.length;
      // 20,000 draws: the standard error of a share is below 0.004, so 0.015 is more than 3.5 of them.
      expect(Math.abs(first - percentage / 100)).toBeLessThan(0.015);
    }
  });

  it('spreads buckets evenly', () => {
    const counts = new Array<number>(100).fill(0);
    for (const token of tokens) counts[bucketOf(1, token)]++;
    // 200 expected per bucket; a Poisson-like spread of ±14 each, so none should be off by half.
    expect(Math.min(...counts)).toBeGreaterThan(100);
    expect(Math.max(...counts)).toBeLessThan(300);
  });

  it('does not put a searcher in the same half of every test', () => {
    const same = tokens.slice(0, 2000).filter((token) => variantOf(1, token, 50) === variantOf(2, token, 50)).length;
    expect(same / 2000).toBeGreaterThan(0.4);
    expect(same / 2000).toBeLessThan(0.6);
  });
});
