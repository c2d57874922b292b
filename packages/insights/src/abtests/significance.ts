/**
 * The statistics of an A/B test: a two-proportion z-test on a rate (clicked tracked searches over tracked
 * searches, and so on), its two-sided p-value from the normal distribution, and the sample size a test needs to
 * detect a given relative change (for `estimateABTest`).
 *
 * Algolia's `clickSignificance` and `conversionSignificance` read "0.95 or higher can be considered significant",
 * so a significance here is 1 − p. Nothing is claimed below a minimum sample (`MIN_TRIALS` tracked searches per
 * variant, and at least `MIN_OUTCOMES` expected successes and failures per variant under the pooled rate, the
 * usual condition for the normal approximation): the significance is then null.
 */

/** Tracked searches each variant needs before a significance is given. */
export const MIN_TRIALS = 100;
/** Expected successes, and failures, each variant needs under the pooled rate (n·p and n·(1 − p)). */
export const MIN_OUTCOMES = 5;

/** z of the two-sided 5% level and of 80% power: the defaults of a sample size estimate. */
const Z_ALPHA = 1.959963984540054;
const Z_POWER = 0.8416212335729143;

/**
 * The error function, Abramowitz and Stegun 7.1.26 (absolute error below 1.5e-7): plenty for a significance
 * given to four decimals.
 */
export function erf(x: number): number {
  const sign = x < 0 ? -1 : 1;
  const a = Math.abs(x);
  const t = 1 / (1 + 0.3275911 * a);
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  return sign * (1 - poly * Math.exp(-a * a));
}

/** The standard normal distribution's cumulative probability. */
export function normalCdf(z: number): number {
  return 0.5 * (1 + erf(z / Math.SQRT2));
}

export interface ProportionTest {
  /** (rate B − rate A) / its standard error under the pooled rate. */
  z: number;
  /** Two-sided: the probability of a difference at least this large if both variants had the same rate. */
  pValue: number;
}

/** One variant's outcome: how many of `trials` succeeded. */
export interface Outcome {
  successes: number;
  trials: number;
}

/** The pooled two-proportion z-test, or null below the minimum sample. */
export function twoProportionTest(a: Outcome, b: Outcome): ProportionTest | null {
  if (a.trials < MIN_TRIALS || b.trials < MIN_TRIALS) return null;
  const pooled = (a.successes + b.successes) / (a.trials + b.trials);
  for (const { trials } of [a, b]) {
    if (trials * pooled < MIN_OUTCOMES || trials * (1 - pooled) < MIN_OUTCOMES) return null;
  }
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / a.trials + 1 / b.trials));
  const z = (b.successes / b.trials - a.successes / a.trials) / se;
  return { z, pValue: Math.min(1, 2 * (1 - normalCdf(Math.abs(z)))) };
}

/** 1 − the test's p-value, to four decimals, or null below the minimum sample. */
export function significance(a: Outcome, b: Outcome): number | null {
  const test = twoProportionTest(a, b);
  return test === null ? null : Math.round((1 - test.pValue) * 10_000) / 10_000;
}

/**
 * Tracked searches each variant needs for the two-sided test at 5% to detect, with 80% power, a rate moving from
 * `baseline` to `baseline × (1 + relativeEffect)` (the textbook formula for two proportions, equal groups).
 * Null when the baseline or the effect leaves no rate to detect (a rate outside 0–1, or no change).
 */
export function sampleSizePerVariant(baseline: number, relativeEffect: number): number | null {
  const p1 = baseline;
  const p2 = baseline * (1 + relativeEffect);
  if (!(p1 > 0 && p1 < 1 && p2 > 0 && p2 < 1) || p1 === p2) return null;
  const mean = (p1 + p2) / 2;
  const root = Z_ALPHA * Math.sqrt(2 * mean * (1 - mean)) + Z_POWER * Math.sqrt(p1 * (1 - p1) + p2 * (1 - p2));
  return Math.ceil((root * root) / ((p2 - p1) * (p2 - p1)));
}
