/**
 * Search analytics over a real socket with the official analytics client (algoliasearch v5 `initAnalytics`):
 * a small, known activity is logged through the search route and the Insights API, then every endpoint must
 * report exactly what happened, per day, per tag and per query.
 */
import { algoliasearch } from 'algoliasearch';
import type { AnalyticsClient } from 'algoliasearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoIndexName, demoSettings, generateProducts } from '@vitrine/demo';
import Ajv from 'ajv';
import { ADMIN_KEY, APP_ID, SEARCH_KEY, startTestServer } from '../../src/test-support.ts';
import type { TestServer } from '../../src/test-support.ts';
import { noClickRateAnswer, noResultsRateAnswer } from '../openapi/analytics-rate-schemas.ts';

const DAY = 86_400_000;
const TODAY = Date.UTC(2025, 2, 10, 15);
const YESTERDAY = TODAY - DAY;

describe('Analytics API', () => {
  let t: TestServer;
  let ANALYTICS_KEY: string;
  let analytics: AnalyticsClient;
  let clock = YESTERDAY;
  const range = { index: 'products', startDate: '2025-03-09', endDate: '2025-03-10' };

  const send = (events: unknown[]) => t.call('POST', '/1/events', { events }, SEARCH_KEY);
  const click = (queryID: string, objectID: string, position: number, userToken = 'u1') =>
    ({ eventType: 'click', eventName: 'Clicked', index: 'products', userToken, queryID, objectIDs: [objectID], positions: [position] });

  beforeAll(async () => {
    t = await startTestServer({
      config: { now: () => clock, insights: { modelRebuildIntervalMs: 0, suggestionsRebuildIntervalMs: 0 } },
      index: { name: demoIndexName, settings: demoSettings, records: [...generateProducts(400)] },
    });
    ANALYTICS_KEY = await t.createKey({ acl: ['analytics'] });
    const hosts = [{ url: t.host, protocol: 'http' as const, accept: 'readWrite' as const }];
    analytics = algoliasearch(APP_ID, ANALYTICS_KEY, { hosts }).initAnalytics({ options: { hosts } });

    // Yesterday: three tracked "lamp" searches (mobile), one clicked twice, one bought; one untracked search.
    const lamps = [];
    for (let i = 0; i < 3; i++) lamps.push(await t.search({ query: 'Lamp', clickAnalytics: true, analyticsTags: ['mobile'], userToken: `u${i}` }));
    expect(lamps[0].nbHits).toBeGreaterThan(0);
    await t.search({ query: 'lamp ', userToken: 'u1' });
    await send([click(lamps[0].queryID!, lamps[0].hits[0].objectID, 1), click(lamps[0].queryID!, lamps[0].hits[2].objectID, 3)]);
    await send([{
      eventType: 'conversion', eventSubtype: 'purchase', eventName: 'Bought', index: 'products', userToken: 'u1', queryID: lamps[0].queryID,
      objectIDs: [lamps[0].hits[2].objectID], objectData: [{ price: 30, quantity: 2 }], currency: 'USD', value: 60,
    }]);
    // Today: a filtered search without results (desktop), a tracked "chair" search with results and no click,
    // a search that must not be counted (analytics: false).
    clock = TODAY;
    await t.search({ query: 'zzzz qqqq', facetFilters: ['brand:Nobody'], analyticsTags: ['desktop'], userToken: 'u9' });
    await t.search({ query: 'chair', clickAnalytics: true, analyticsTags: ['desktop'], userToken: 'u9' });
    await t.search({ query: 'lamp', analytics: false });
  });
  afterAll(() => t.close());

  it('counts searches per day and users', async () => {
    expect(await analytics.getSearchesCount(range)).toEqual({ count: 6, dates: [{ date: '2025-03-09', count: 4 }, { date: '2025-03-10', count: 2 }] });
    expect(await analytics.getUsersCount(range)).toEqual({ count: 4, dates: [{ date: '2025-03-09', count: 3 }, { date: '2025-03-10', count: 1 }] });
  });

  it('ranks top searches, with click and revenue analytics on demand', async () => {
    const plain = await analytics.getTopSearches(range);
    expect(plain.searches.map((s) => [s.search, s.count])).toEqual([['lamp', 4], ['chair', 1], ['zzzz qqqq', 1]]);
    const withRevenue = await analytics.getTopSearches({ ...range, clickAnalytics: true, revenueAnalytics: true, limit: 1 });
    expect(withRevenue.searches).toHaveLength(1);
    expect(withRevenue.searches[0]).toMatchObject({
      search: 'lamp', count: 4, trackedSearchCount: 3, clickCount: 2, clickThroughRate: 0.3333, averageClickPosition: 2,
      conversionCount: 1, conversionRate: 0.3333, purchaseCount: 1, purchaseRate: 0.3333, addToCartCount: 0, addToCartRate: 0,
      currencies: { USD: { currency: 'USD', revenue: 60 } },
    });
    const positions = (withRevenue.searches[0] as { clickPositions: Array<{ position: number[]; clickCount: number }> }).clickPositions;
    expect(positions.filter((p) => p.clickCount > 0)).toEqual([{ position: [1, 1], clickCount: 1 }, { position: [3, 3], clickCount: 1 }]);
    const byCtr = await analytics.getTopSearches({ ...range, clickAnalytics: true, orderBy: 'clickThroughRate', direction: 'asc' });
    expect(byCtr.searches.map((s) => s.search)).toEqual(['chair', 'lamp', 'zzzz qqqq']);
  });

  it('segments by analytics tags', async () => {
    expect((await analytics.getSearchesCount({ ...range, tags: 'mobile' })).count).toBe(3);
    expect((await analytics.getSearchesCount({ ...range, tags: 'desktop' })).count).toBe(2);
    expect((await analytics.getSearchesCount({ ...range, tags: 'mobile OR desktop' })).count).toBe(5);
    expect((await analytics.getSearchesCount({ ...range, tags: 'mobile AND desktop' })).count).toBe(0);
  });

  it('reports searches without results and without clicks, and their rates', async () => {
    expect(await analytics.getSearchesNoResults(range)).toEqual({ searches: [{ search: 'zzzz qqqq', count: 1, withFilterCount: 1 }] });
    const noClicks = await analytics.getSearchesNoClicks(range);
    expect(noClicks.searches.map((s) => [s.search, s.count])).toEqual([['chair', 1]]);
    const noResultRate = await analytics.getNoResultsRate(range);
    expect(noResultRate).toMatchObject({ count: 6, noResultCount: 1, rate: 0.1667 });
    expect(noResultRate.dates[1]).toEqual({ date: '2025-03-10', count: 2, noResultCount: 1, rate: 0.5 });
    expect(await analytics.getNoClickRate(range)).toMatchObject({ count: 4, noClickCount: 3, rate: 0.75 });
  });

  it('reports click-through, positions, conversions and revenue with daily series', async () => {
    const ctr = await analytics.getClickThroughRate(range);
    expect(ctr).toMatchObject({ rate: 0.25, clickCount: 2, trackedSearchCount: 4 });
    expect(ctr.dates).toEqual([
      { date: '2025-03-09', rate: 0.3333, clickCount: 2, trackedSearchCount: 3 },
      { date: '2025-03-10', rate: 0, clickCount: 0, trackedSearchCount: 1 },
    ]);
    expect(await analytics.getAverageClickPosition(range)).toMatchObject({ average: 2, clickCount: 2 });
    const positions = await analytics.getClickPositions(range);
    expect(positions.positions).toHaveLength(12);
    expect(positions.positions[2]).toEqual({ position: [3, 3], clickCount: 1 });
    expect(await analytics.getConversionRate(range)).toMatchObject({ rate: 0.25, conversionCount: 1, trackedSearchCount: 4 });
    expect(await analytics.getPurchaseRate(range)).toMatchObject({ rate: 0.25, purchaseCount: 1 });
    expect(await analytics.getAddToCartRate(range)).toMatchObject({ rate: 0, addToCartCount: 0 });
    // Every rate endpoint's daily series carries its rate and exactly its own counts.
    expect((await analytics.getConversionRate(range)).dates[0]).toEqual({ date: '2025-03-09', rate: 0.3333, trackedSearchCount: 3, conversionCount: 1 });
    expect((await analytics.getPurchaseRate(range)).dates[0]).toEqual({ date: '2025-03-09', rate: 0.3333, trackedSearchCount: 3, purchaseCount: 1 });
    expect((await analytics.getAddToCartRate(range)).dates[1]).toEqual({ date: '2025-03-10', rate: 0, trackedSearchCount: 1, addToCartCount: 0 });
    const revenue = await analytics.getRevenue(range);
    expect(revenue.currencies).toEqual({ USD: { currency: 'USD', revenue: 60 } });
    expect(revenue.dates).toEqual([{ date: '2025-03-09', currencies: { USD: { currency: 'USD', revenue: 60 } } }, { date: '2025-03-10', currencies: {} }]);
  });

  it('reports top hits, filters and filters of searches without results', async () => {
    const hits = await analytics.getTopHits({ ...range, search: 'lamp', clickAnalytics: true });
    expect(hits.hits.length).toBeGreaterThan(0);
    expect(hits.hits[0]).toMatchObject({ count: 4, trackedHitCount: 3 });
    expect(hits.hits.reduce((n, h) => n + ('clickCount' in h ? h.clickCount : 0), 0)).toBe(2);
    expect(await analytics.getTopFilterAttributes(range)).toEqual({ attributes: [{ attribute: 'brand', count: 1 }] });
    expect(await analytics.getTopFilterForAttribute({ ...range, attribute: 'brand' })).toEqual({ values: [{ attribute: 'brand', operator: ':', value: 'Nobody', count: 1 }] });
    expect(await analytics.getTopFiltersNoResults({ ...range, search: 'zzzz qqqq' })).toEqual({ values: [{ count: 1, values: [{ attribute: 'brand', operator: ':', value: 'Nobody' }] }] });
    expect(await analytics.getTopFiltersNoResults({ ...range, search: 'lamp' })).toEqual({ values: null });
  });

  it('counts numeric filters of searches by attribute, with their operator; filter events count in no search analytics', async () => {
    // A day of its own, before the range the other tests read.
    clock = Date.UTC(2025, 2, 1, 12);
    const day = { index: 'products', startDate: '2025-03-01', endDate: '2025-03-01' };
    await t.search({ query: '', numericFilters: ['rating>=4'], facetFilters: ['brand:Lumio'], userToken: 'u7' });
    await t.search({ query: '', filters: 'rating >= 4 AND price < 100', userToken: 'u8' });
    // What RatingMenu sends when the shopper picks "4 & up": an event, not a search.
    expect((await send([{ eventType: 'click', eventName: 'Filter Applied', index: 'products', userToken: 'u7', filters: ['rating%3E%3D4'] }])).status).toBe(200);
    clock = TODAY;
    expect(await analytics.getTopFilterAttributes(day)).toEqual({ attributes: [{ attribute: 'rating', count: 2 }, { attribute: 'brand', count: 1 }, { attribute: 'price', count: 1 }] });
    expect(await analytics.getTopFilterForAttribute({ ...day, attribute: 'rating' })).toEqual({ values: [{ attribute: 'rating', operator: '>=', value: '4', count: 2 }] });
    expect(await analytics.getTopFilterForAttribute({ ...day, attribute: 'price' })).toEqual({ values: [{ attribute: 'price', operator: '<', value: '100', count: 1 }] });
  });

  it('answers the no-result and no-click rates of an index without searches as the analytics spec types them', async () => {
    const ajv = new Ajv({ allErrors: true });
    const errors = (schema: object, body: unknown) => {
      const validate = ajv.compile(schema);
      return validate(body) ? [] : validate.errors!.map((error) => `${error.instancePath} ${error.message}`);
    };
    const empty = { index: 'never-searched', startDate: '2025-03-09', endDate: '2025-03-10' };
    const noResults = await analytics.getNoResultsRate(empty);
    expect(noResults).toEqual({ rate: 0, count: 0, noResultCount: 0, dates: [{ date: '2025-03-09', rate: 0, count: 0, noResultCount: 0 }, { date: '2025-03-10', rate: 0, count: 0, noResultCount: 0 }] });
    expect(errors(noResultsRateAnswer, noResults)).toEqual([]);
    const noClicks = await analytics.getNoClickRate(empty);
    expect(noClicks).toMatchObject({ rate: 0, count: 0, noClickCount: 0 });
    // The one difference kept: a count of 0 under the spec's minimum of 1 (see analytics-rate-schemas.ts).
    expect(errors(noClickRateAnswer, noClicks)).toEqual(['/noClickCount must be >= 1', '/dates/0/noClickCount must be >= 1', '/dates/1/noClickCount must be >= 1']);
    // With searches, both answers are valid as they are.
    expect(errors(noResultsRateAnswer, await analytics.getNoResultsRate(range))).toEqual([]);
    expect(errors(noClickRateAnswer, await analytics.getNoClickRate(range))).toEqual([]);
  });

  it('pages with limit and offset, defaults to the last 8 days and reports its status', async () => {
    const second = await analytics.getTopSearches({ ...range, limit: 1, offset: 1 });
    expect(second.searches.map((s) => s.search)).toEqual(['chair']);
    const defaults = await analytics.getSearchesCount({ index: 'products' });
    expect(defaults.dates.map((d) => d.date)).toEqual(['2025-03-03', '2025-03-04', '2025-03-05', '2025-03-06', '2025-03-07', '2025-03-08', '2025-03-09', '2025-03-10']);
    expect((await analytics.getStatus({ index: 'products' })).updatedAt).toBe(new Date(TODAY).toISOString());
    expect(await analytics.getStatus({ index: 'elsewhere' })).toEqual({ updatedAt: null });
  });

  it('answers top countries with the spec\'s shape, empty when no trusted proxy told a country', async () => {
    expect(await analytics.getTopCountries(range)).toEqual({ countries: [] });
    await expect(analytics.getTopCountries({ ...range, startDate: 'yesterday' })).rejects.toMatchObject({ status: 400 });
  });

  it('refuses bad parameters with 400 and keys without the analytics ACL with 403', async () => {
    expect((await t.call('GET', '/2/searches', undefined, ADMIN_KEY)).status).toBe(400);
    expect((await t.call('GET', '/2/searches?index=products&startDate=2025-13-01', undefined, ADMIN_KEY)).status).toBe(400);
    expect((await t.call('GET', '/2/searches?index=products&startDate=2025-03-10&endDate=2025-03-01', undefined, ADMIN_KEY)).status).toBe(400);
    expect((await t.call('GET', '/2/searches?index=products&limit=1001', undefined, ADMIN_KEY)).status).toBe(400);
    expect((await t.call('GET', '/2/searches?index=products&orderBy=price', undefined, ADMIN_KEY)).status).toBe(400);
    expect((await t.call('GET', '/2/searches?index=products&tags=(mobile', undefined, ADMIN_KEY)).status).toBe(400);
    // Long or deep tag expressions are a 400 with Algolia's body, not a failed SQL query (SQLite caps expression depth).
    for (const tags of [Array(1100).fill('t').join(' OR '), `${'('.repeat(40)}mobile${')'.repeat(40)}`]) {
      const refused = await t.call('GET', `/2/searches/count?index=products&tags=${encodeURIComponent(tags)}`, undefined, ADMIN_KEY);
      expect(refused).toEqual({ status: 400, body: { status: 400, message: expect.stringContaining('tags') } });
    }
    expect((await analytics.getSearchesCount({ ...range, tags: Array.from({ length: 100 }, (_, i) => (i === 0 ? 'mobile' : `t${i}`)).join(' OR ') })).count).toBe(3);
    expect((await t.call('GET', '/2/searches?index=products', undefined, SEARCH_KEY)).status).toBe(403);
    expect((await t.call('GET', '/2/searches?index=products', undefined, ADMIN_KEY)).status).toBe(200);
  });
});
