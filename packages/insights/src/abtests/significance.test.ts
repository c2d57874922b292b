/**
 * The A/B tests' statistics against values worked out by hand (pooled rate, standard error, z, then the normal
 * table), so the formula, not just the code, is checked.
 */
import { describe, expect, it } from 'vitest';
import { normalCdf, sampleSizePerVariant, significance, twoProportionTest } from './significance.ts';

describe('normalCdf', () => {
  it('matches the normal table', () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 7);
    expect(normalCdf(1)).toBeCloseTo(0.841345, 6);
    expect(normalCdf(1.959964)).toBeCloseTo(0.975, 6);
    expect(normalCdf(-2.575829)).toBeCloseTo(0.005, 6);
  });
});

describe('twoProportionTest', () => {
  it('200 of 1,000 against 250 of 1,000', () => {
    // Pooled 450 / 2000 = 0.225; SE = sqrt(0.225 × 0.775 × (1/1000 + 1/1000)) = 0.0186748;
    // z = (0.25 − 0.20) / 0.0186748 = 2.67740; p = 2 × (1 − Φ(2.6774)) = 0.00742.
    const test = twoProportionTest({ successes: 200, trials: 1000 }, { successes: 250, trials: 1000 })!;
    expect(test.z).toBeCloseTo(2.67740, 4);
    expect(test.pValue).toBeCloseTo(0.00742, 5);
    expect(significance({ successes: 200, trials: 1000 }, { successes: 250, trials: 1000 })).toBe(0.9926);
  });

  it('30 of 300 against 36 of 300: not significant', () => {
    // Pooled 0.11; SE = sqrt(0.11 × 0.89 × 2/300) = 0.0255473; z = 0.02 / 0.0255473 = 0.78286; p = 0.43371.
    const test = twoProportionTest({ successes: 30, trials: 300 }, { successes: 36, trials: 300 })!;
    expect(test.z).toBeCloseTo(0.78286, 4);
    expect(test.pValue).toBeCloseTo(0.43371, 4);
    expect(significance({ successes: 30, trials: 300 }, { successes: 36, trials: 300 })).toBe(0.5663);
  });

  it('is symmetric: B worse than A gives a negative z and the same p-value', () => {
    // 120 of 1,000 against 100 of 1,000: pooled 0.11, SE 0.0139929, z = −1.42930, p = 0.15292.
    const test = twoProportionTest({ successes: 120, trials: 1000 }, { successes: 100, trials: 1000 })!;
    expect(test.z).toBeCloseTo(-1.4293, 4);
    expect(test.pValue).toBeCloseTo(0.15292, 4);
    expect(twoProportionTest({ successes: 100, trials: 1000 }, { successes: 120, trials: 1000 })!.pValue).toBeCloseTo(test.pValue, 10);
  });

  it('claims nothing below the minimum sample', () => {
    // Fewer than 100 tracked searches in a variant.
    expect(significance({ successes: 10, trials: 99 }, { successes: 50, trials: 99 })).toBeNull();
    // Enough searches, but fewer than 5 expected successes per variant under the pooled rate (4 in 2,000).
    expect(significance({ successes: 0, trials: 1000 }, { successes: 4, trials: 1000 })).toBeNull();
    // Every search converted: no variance to test.
    expect(significance({ successes: 500, trials: 500 }, { successes: 500, trials: 500 })).toBeNull();
    // Equal rates at the minimum: a significance of 0.
    expect(significance({ successes: 10, trials: 100 }, { successes: 10, trials: 100 })).toBe(0);
  });
});

describe('sampleSizePerVariant', () => {
  it('is the textbook figure for 10% → 11% and 20% → 25%', () => {
    // p̄ = 0.105: (1.96 × sqrt(2 × 0.105 × 0.895) + 0.8416 × sqrt(0.09 + 0.0979))² / 0.01² = 14,750.8.
    expect(sampleSizePerVariant(0.1, 0.1)).toBe(14_751);
    expect(sampleSizePerVariant(0.2, 0.25)).toBe(1_094);
  });

  it('is null when there is no rate to detect', () => {
    expect(sampleSizePerVariant(0, 0.1)).toBeNull();
    expect(sampleSizePerVariant(0.6, 1)).toBeNull();
    expect(sampleSizePerVariant(0.1, 0)).toBeNull();
  });
});
