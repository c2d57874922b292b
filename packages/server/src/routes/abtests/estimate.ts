/**
 * `estimateABTest` (`POST /2/abtests/estimate`): the tracked searches each variant needs for the two-sided
 * two-proportion test at 5% to detect, with 80% power, the relative change `minimumDetectableEffect.size` in
 * the metric it names, from the first variant's index's rate over the last 30 days (equal groups: the same
 * figure for both variants); and the days it takes at that index's tracked searches per day, each variant
 * getting its traffic share.
 */
import type { Insights } from '@vitrine/insights';
import { dayOf, sampleSizePerVariant, tagsClause } from '@vitrine/insights';
import type { AuthContext } from '../../auth/authenticate.ts';
import { requireIndex } from '../../auth/authenticate.ts';
import { createError } from '../../errors.ts';

const HISTORY_DAYS = 30;
const METRICS = ['clickThroughRate', 'conversionRate', 'addToCartRate', 'purchaseRate'] as const;
type Metric = (typeof METRICS)[number];

export interface Estimate {
  durationDays: number;
  sampleSizes: number[];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export async function estimateABTest(body: unknown, insights: Insights, auth: AuthContext | null): Promise<Estimate> {
  if (!isObject(body) || !isObject(body.configuration) || !isObject(body.configuration.minimumDetectableEffect)) {
    throw createError('INVALID_ABTEST', 'configuration.minimumDetectableEffect is required');
  }
  const { size, metric } = body.configuration.minimumDetectableEffect;
  if (typeof size !== 'number' || !(size > 0) || size > 10) throw createError('INVALID_ABTEST', 'minimumDetectableEffect.size must be a number above 0 (0.1 for 10%)');
  if (!METRICS.includes(metric as Metric)) throw createError('INVALID_ABTEST', `minimumDetectableEffect.metric must be one of ${METRICS.join(', ')}`);
  const variants = body.variants;
  if (!Array.isArray(variants) || variants.length !== 2 || !variants.every((v) => isObject(v) && typeof v.index === 'string' && typeof v.trafficPercentage === 'number')) {
    throw createError('INVALID_ABTEST', 'variants must list exactly two variants, each with an index and a trafficPercentage');
  }
  const shares = variants.map((v) => (v as { trafficPercentage: number }).trafficPercentage);
  if (shares.some((share) => !Number.isInteger(share) || share < 1 || share > 99) || shares[0] + shares[1] !== 100) {
    throw createError('INVALID_ABTEST', 'the variants\' trafficPercentage must be integers from 1 to 99 summing to 100');
  }
  const index = (variants[0] as { index: string }).index;
  if (auth) requireIndex(auth, index);
  await insights.settleSearches();
  const today = dayOf(insights.now());
  const q = { index, fromDay: today - (HISTORY_DAYS - 1), toDay: today, tags: tagsClause(undefined), limit: 1, offset: 0, clickAnalytics: false, revenueAnalytics: false, orderBy: 'searchCount' as const, direction: 'desc' as const };
  const history = insights.analytics[metric as Metric](q) as { rate: number | null; trackedSearchCount: number };
  const n = history.rate === null ? null : sampleSizePerVariant(history.rate, size);
  if (n === null || history.trackedSearchCount === 0) {
    throw createError('ABTEST_REFUSED', 'estimate', `index ${index} has no ${metric} to start from in the last ${HISTORY_DAYS} days (tracked searches with clickAnalytics, and their events)`);
  }
  const perDay = history.trackedSearchCount / HISTORY_DAYS;
  return { durationDays: Math.ceil(Math.max(...shares.map((share) => n / (perDay * (share / 100))))), sampleSizes: [n, n] };
}
