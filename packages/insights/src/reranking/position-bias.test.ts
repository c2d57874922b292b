/** The position-bias model against values computed by hand (the formulas are in `position-bias.ts`). */
import { describe, expect, it } from 'vitest';
import { clickCurve, expectedClicks, judge, nonIncreasing } from './position-bias.ts';

describe('position-bias model', () => {
  it('estimates the click curve from impressions and clicks, each position shrunk towards the one above', () => {
    // Overall rate 40 / 200 = 0.2. Position 1: (30 + 20 × 0.2) / 120 = 0.28333; position 2: (10 + 20 × 0.28333) / 120.
    const curve = clickCurve([{ shown: 100, clicks: 30 }, { shown: 100, clicks: 10 }]);
    expect(curve[0]).toBeCloseTo(34 / 120, 10);
    expect(curve[1]).toBeCloseTo((10 + 20 * (34 / 120)) / 120, 10);
  });

  it('never predicts more clicks lower down: violators are pooled, weighted by impressions', () => {
    // Raw: (10 + 4) / 120 = 0.116667 then (30 + 20 × 0.116667) / 120 = 0.269444; pooled with equal weights: their mean.
    const first = 14 / 120;
    const second = (30 + 20 * first) / 120;
    const curve = clickCurve([{ shown: 100, clicks: 10 }, { shown: 100, clicks: 30 }]);
    expect(curve[0]).toBeCloseTo((first + second) / 2, 10);
    expect(curve[1]).toBeCloseTo((first + second) / 2, 10);
    expect(nonIncreasing([1, 3, 2], [1, 1, 1])).toEqual([2, 2, 2]);
    const pooled = nonIncreasing([3, 1, 2], [1, 1, 2]);
    expect(pooled[0]).toBe(3);
    expect(pooled[1]).toBeCloseTo(5 / 3, 10);
    expect(pooled[2]).toBeCloseTo(5 / 3, 10);
  });

  it('has nothing to say without impressions', () => {
    expect(clickCurve([])).toEqual([]);
    expect(clickCurve([{ shown: 0, clicks: 0 }, { shown: 0, clicks: 0 }])).toEqual([0, 0]);
    expect(expectedClicks([[1, 10]], [])).toBe(0);
  });

  it('sums impressions times the rate of their position, positions past the curve at its last rate', () => {
    expect(expectedClicks([[1, 10], [2, 5], [5, 4]], [0.3, 0.1])).toBeCloseTo(10 * 0.3 + 5 * 0.1 + 4 * 0.1, 10);
  });

  it('scores engagement over prediction with a prior, and boosts only with enough evidence', () => {
    // Observed 20 + 2 × 2 = 24, predicted 5 × (1 + 2 × 0.1) = 6: score (24 + 5) / (6 + 5), z = 18 / √7 ≈ 6.8.
    const strong = judge({ clicks: 20, conversions: 2, expectedClicks: 5 }, 0.1);
    expect(strong.score).toBeCloseTo(29 / 11, 10);
    expect(strong.boosted).toBe(true);
    // Clicked as its positions predict: score (50 + 5) / (46 + 5) ≈ 1.08, below 1.2.
    expect(judge({ clicks: 50, conversions: 0, expectedClicks: 46 }, 0)).toEqual({ score: 55 / 51, boosted: false });
    // Score (3 + 5) / (0.5 + 5) ≈ 1.45, but z = 2.5 / √1.5 ≈ 2.04 < 4: could be chance.
    const lucky = judge({ clicks: 3, conversions: 0, expectedClicks: 0.5 }, 0);
    expect(lucky.score).toBeCloseTo(8 / 5.5, 10);
    expect(lucky.boosted).toBe(false);
    // Conversions without clicks enough (2 < 3): not boosted, whatever the score.
    const fewClicks = judge({ clicks: 2, conversions: 10, expectedClicks: 0.1 }, 0.5);
    expect(fewClicks.score).toBeCloseTo(27 / 5.2, 10);
    expect(fewClicks.boosted).toBe(false);
    // z = (10 − 3) / √4 = 3.5: past 3, not past 4.
    expect(judge({ clicks: 10, conversions: 0, expectedClicks: 3 }, 0).boosted).toBe(false);
    expect(judge({ clicks: 12, conversions: 0, expectedClicks: 3 }, 0).boosted).toBe(true);
  });
});
