/**
 * A/B tests inside insights, without a server: the routing of searchers, each variant's figures from the
 * searches logged and the events attributed through their queryIDs (each tracked search counted once per rate),
 * the significance, the status over time, and the tests and figures kept across a reopening of the database.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { SearchLogEntry } from '@vitrine/protocol';
import { openInsights } from '../index.ts';
import type { Insights } from '../index.ts';
import { removeDir, tempDir } from '../test-support.ts';
import type { AbTestDefinition } from './abtests.ts';

const NOW = Date.UTC(2025, 5, 15, 12);
const DAY = 86_400_000;
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

function open(dir: string, clock: { now: number }): Insights {
  return openInsights({
    dataDir: dir,
    now: () => clock.now,
    // Every search counted as it comes (no query aggregation), so the figures below are exact.
    options: { checkpointIntervalMs: 0, modelRebuildIntervalMs: 0, suggestionsRebuildIntervalMs: 0, searchAggregationMs: 0 },
    search: () => {
      throw new Error('no search expected');
    },
    getObjects: (_indexName, ids) => ids.map(() => null),
    listIndices: () => ['products', 'products_b'],
    saveSuggestions: async () => {},
  });
}

function folder(): string {
  const dir = tempDir();
  dirs.push(dir);
  return dir;
}

const definition: AbTestDefinition = {
  name: 'New ranking',
  variants: [{ index: 'products', trafficPercentage: 50 }, { index: 'products_b', trafficPercentage: 50, description: 'boosted' }],
  endAt: new Date(NOW + 30 * DAY).toISOString(),
};

const queryID = (n: number) => n.toString(16).padStart(32, '0');

/** A tracked search of `user` routed to `variant` (1 or 2) of test `abTestID`. */
function search(abTestID: number, variant: number, user: string, id: number, nbHits = 5): SearchLogEntry {
  return {
    index: variant === 1 ? 'products' : 'products_b', query: 'lamp', nbHits, queryID: queryID(id), userToken: user, objectIDs: ['a', 'b'],
    analytics: true, timestamp: NOW, abTest: { abTestID, abTestVariantID: variant },
  };
}

const click = (id: number, user: string, position = 1) =>
  ({ eventType: 'click', eventName: 'Clicked', index: 'products', userToken: user, queryID: queryID(id), objectIDs: ['a'], positions: [position], timestamp: NOW });
const purchase = (id: number, user: string) =>
  ({ eventType: 'conversion', eventSubtype: 'purchase', eventName: 'Bought', index: 'products', userToken: user, queryID: queryID(id), objectIDs: ['a'], objectData: [{ price: 20, quantity: 2 }], currency: 'EUR', timestamp: NOW });

describe('A/B tests', () => {
  it('route each searcher to one variant, only while the test is active', () => {
    const clock = { now: NOW };
    const insights = open(folder(), clock);
    const id = insights.abTests.add(definition);
    const routes = Array.from({ length: 1000 }, (_, i) => insights.abTests.route('products', `user-${i}`)!);
    expect(new Set(routes.map((r) => r.abTestID))).toEqual(new Set([id]));
    const second = routes.filter((r) => r.abTestVariantID === 2);
    expect(second.every((r) => r.index === 'products_b')).toBe(true);
    expect(second.length).toBeGreaterThan(430);
    expect(second.length).toBeLessThan(570);
    expect(insights.abTests.route('products', 'user-7')).toEqual(routes[7]);
    // Searches of the second index, or of another, are not routed.
    expect(insights.abTests.route('products_b', 'user-7')).toBeUndefined();
    expect(insights.abTests.activeOn('products_b')).toBe(id);
    clock.now = NOW + 31 * DAY;
    expect(insights.abTests.status(id)).toBe('expired');
    expect(insights.abTests.route('products', 'user-7')).toBeUndefined();
    expect(insights.abTests.activeOn('products')).toBeUndefined();
    insights.close();
  });

  it('report each variant\'s searches, users, events and rates, and the significance', async () => {
    const insights = open(folder(), { now: NOW });
    const id = insights.abTests.add(definition);
    // 100 tracked searches per variant, one user each; 20 clicked in A, 40 in B; 10 bought in B.
    for (let i = 0; i < 200; i++) insights.recordSearch(search(id, i < 100 ? 1 : 2, `u${i}`, i));
    // Two untracked searches without results in A, by a user who also made a tracked one.
    for (let i = 0; i < 2; i++) insights.recordSearch({ ...search(id, 1, 'u0', 0, 0), queryID: undefined });
    const events = [];
    for (let i = 0; i < 20; i++) events.push(click(i, `u${i}`, 2));
    for (let i = 100; i < 140; i++) events.push(click(i, `u${i}`, 4));
    // A second click on a clicked search: two clicks, still one clicked search.
    events.push(click(100, 'u100', 2));
    for (let i = 100; i < 110; i++) events.push(purchase(i, `u${i}`));
    await insights.recordEvents({ events });
    await insights.settleSearches();

    const report = insights.abTests.report(id)!;
    expect(report).toMatchObject({ abTestID: id, name: 'New ranking', status: 'active', stoppedAt: null, endAt: definition.endAt });
    const [a, b] = report.variants;
    expect(a).toMatchObject({
      index: 'products', trafficPercentage: 50, searchCount: 102, trackedSearchCount: 100, userCount: 100, trackedUserCount: 100, noResultCount: 2,
      clickCount: 20, conversionCount: 0, purchaseCount: 0, clickThroughRate: 0.2, conversionRate: 0, averageClickPosition: 2, currencies: {},
    });
    expect(b).toMatchObject({
      index: 'products_b', description: 'boosted', searchCount: 100, trackedSearchCount: 100, userCount: 100, noResultCount: 0,
      clickCount: 41, conversionCount: 10, purchaseCount: 10, addToCartCount: 0, clickThroughRate: 0.4, conversionRate: 0.1, purchaseRate: 0.1,
      addToCartRate: 0, averageClickPosition: 3.9512, currencies: { EUR: { currency: 'EUR', revenue: 400 } },
    });
    // CTR 0.2 against 0.4 over 100 each: pooled 0.3, SE 0.0648074, z = 3.08607, p = 0.00203.
    expect(report.clickSignificance).toBe(0.998);
    // 0 conversions against 10: pooled 0.05, 5 expected each, the minimum: z = 3.2444, p = 0.00118.
    expect(report.conversionSignificance).toBe(0.9988);
    // No add-to-cart at all: nothing to claim.
    expect(report.addToCartSignificance).toBeNull();
    insights.close();
  });

  it('keep tests and figures across a reopening; a stopped test routes nothing, a deleted one is gone', async () => {
    const dir = folder();
    let insights = open(dir, { now: NOW });
    const id = insights.abTests.add(definition);
    insights.recordSearch(search(id, 2, 'u1', 1));
    await insights.recordEvents({ events: [click(1, 'u1')] });
    insights.abTests.stop(id);
    insights.close();

    insights = open(dir, { now: NOW + 1000 });
    expect(insights.abTests.status(id)).toBe('stopped');
    expect(insights.abTests.route('products', 'u1')).toBeUndefined();
    const report = insights.abTests.report(id)!;
    expect(report.stoppedAt).toBe(new Date(NOW).toISOString());
    expect(report.variants[1]).toMatchObject({ searchCount: 1, trackedSearchCount: 1, clickCount: 1, clickThroughRate: 1 });
    expect(report.variants[0]).toMatchObject({ searchCount: 0, trackedSearchCount: 0, clickThroughRate: null });
    // A new test takes the next id, never a deleted one's.
    insights.abTests.delete(id);
    expect(insights.abTests.report(id)).toBeUndefined();
    expect(insights.abTests.list({ offset: 0, limit: 10 })).toEqual({ abtests: null, count: 0, total: 0 });
    expect(insights.abTests.add(definition)).toBe(id + 1);
    insights.close();
  });

  it('list tests by index prefix and suffix, in pages', () => {
    const insights = open(folder(), { now: NOW });
    const ids = ['shoes', 'shirts', 'hats'].map((name) => insights.abTests.add({ ...definition, variants: [{ index: name, trafficPercentage: 50 }, { index: `${name}_new`, trafficPercentage: 50 }] }));
    const names = (list: ReturnType<Insights['abTests']['list']>) => list.abtests?.map((t) => t.variants[0].index);
    expect(names(insights.abTests.list({ offset: 0, limit: 10, indexPrefix: 'sh' }))).toEqual(['shoes', 'shirts']);
    expect(names(insights.abTests.list({ offset: 0, limit: 10, indexSuffix: 'ts' }))).toEqual(['shirts', 'hats']);
    expect(names(insights.abTests.list({ offset: 0, limit: 10, indexPrefix: 'sh', indexSuffix: '_new' }))).toEqual(['shoes', 'shirts']);
    expect(insights.abTests.list({ offset: 1, limit: 1 })).toMatchObject({ count: 1, total: 3, abtests: [{ abTestID: ids[1] }] });
    expect(names(insights.abTests.list({ offset: 0, limit: 10, visible: (index) => index !== 'shirts' }))).toEqual(['shoes', 'hats']);
    insights.close();
  });
});
