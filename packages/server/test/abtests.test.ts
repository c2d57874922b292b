/**
 * The A/B testing API through the official v5 abtesting client over a real socket: tests created, listed, read,
 * stopped and deleted; searches through both variants with different user tokens (the search client and the
 * lite client, as InstantSearch sends them); events through the insights client; each variant's figures read
 * back; a secured key's filter holding on the second variant; and bad input refused with Algolia's 4xx body.
 */
import { algoliasearch } from 'algoliasearch';
import type { AbtestingClient, Algoliasearch } from 'algoliasearch';
import { liteClient } from 'algoliasearch/lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleSizePerVariant } from '@vitrine/insights';
import { ADMIN_KEY, APP_ID, SEARCH_KEY, securedApiKey, startTestServer } from '../src/test-support.ts';
import type { TestServer } from '../src/test-support.ts';
import { PRODUCTS, SETTINGS } from './catalogue.ts';
import { refusal } from './client-from.ts';

const DAY = 86_400_000;

describe('A/B tests through the official clients', () => {
  let t: TestServer;
  let admin: Algoliasearch;
  let search: Algoliasearch;
  let abtesting: AbtestingClient;
  const hosts = () => [{ url: t.host, protocol: 'http' as const, accept: 'readWrite' as const }];
  const endAt = () => new Date(Date.now() + 7 * DAY).toISOString();
  const twoIndexes = () => ({
    name: 'Price first',
    variants: [{ index: 'products', trafficPercentage: 60, description: 'control' }, { index: 'products_cheap', trafficPercentage: 40 }],
    endAt: endAt(),
  });

  beforeAll(async () => {
    // Every search counted as it comes (no query aggregation between a user's searches): exact figures.
    t = await startTestServer({ config: { insights: { modelRebuildIntervalMs: 0, suggestionsRebuildIntervalMs: 0, searchAggregationMs: 0 } } });
    admin = algoliasearch(APP_ID, ADMIN_KEY, { hosts: hosts() });
    search = algoliasearch(APP_ID, SEARCH_KEY, { hosts: hosts() });
    abtesting = admin.initAbtesting({ options: { hosts: hosts() } });
    // The same products twice: by stock (the control), and cheapest first (the variant).
    for (const [indexName, customRanking] of [['products', ['desc(stock)']], ['products_cheap', ['asc(price)']], ['shop', ['desc(stock)']]] as const) {
      await admin.waitForTask({ indexName, taskID: (await admin.setSettings({ indexName, indexSettings: { ...SETTINGS, customRanking: [...customRanking] } })).taskID });
      await admin.saveObjects({ indexName, objects: PRODUCTS, waitForTasks: true });
    }
  });
  afterAll(() => t.close());

  it('refuses malformed tests with a 400 and unknown ones with a 404', async () => {
    const bad = async (change: Record<string, unknown>) => refusal(abtesting.addABTests({ ...twoIndexes(), ...change } as never));
    const variants = twoIndexes().variants;
    expect(await bad({ variants: [{ ...variants[0], trafficPercentage: 60 }, { ...variants[1], trafficPercentage: 50 }] }))
      .toEqual({ status: 400, message: 'Invalid A/B test: the variants\' trafficPercentage must sum to 100, not 110' });
    expect(await bad({ variants: [variants[0]] })).toMatchObject({ status: 400, message: 'Invalid A/B test: variants must list exactly two variants' });
    expect(await bad({ variants: [variants[0], { index: 'nowhere', trafficPercentage: 40 }] })).toMatchObject({ status: 400, message: 'Invalid A/B test: index nowhere does not exist' });
    expect(await bad({ endAt: new Date(Date.now() - DAY).toISOString() })).toMatchObject({ status: 400, message: 'Invalid A/B test: endAt must be in the future' });
    expect(await bad({ endAt: 'next week' })).toMatchObject({ status: 400 });
    expect(await bad({ variants: [variants[0], { index: 'products', trafficPercentage: 40 }] })).toMatchObject({ status: 400, message: expect.stringContaining('need customSearchParameters') });
    expect(await bad({ variants: [variants[0], { index: 'products', trafficPercentage: 40, customSearchParameters: { hitsPerPage: 'many' } }] })).toMatchObject({ status: 400 });
    expect(await refusal(abtesting.getABTest({ id: 999 }))).toEqual({ status: 404, message: 'A/B test 999 does not exist' });
    expect(await refusal(abtesting.stopABTest({ id: 999 }))).toMatchObject({ status: 404 });
    // The search key has neither the analytics nor the editSettings ACL.
    const searchOnly = search.initAbtesting({ options: { hosts: hosts() } });
    expect(await refusal(searchOnly.listABTests())).toMatchObject({ status: 403 });
    expect(await refusal(searchOnly.addABTests(twoIndexes()))).toMatchObject({ status: 403 });
  });

  it('splits searches by user token, reports each variant\'s figures, and stops and deletes', async () => {
    const created = await abtesting.addABTests(twoIndexes());
    expect(created).toEqual({ index: 'products', abTestID: created.abTestID, taskID: created.abTestID });
    const id = created.abTestID;
    // One index in one active test at a time.
    expect(await refusal(abtesting.addABTests({ ...twoIndexes(), variants: [{ index: 'shop', trafficPercentage: 50 }, { index: 'products_cheap', trafficPercentage: 50 }] })))
      .toEqual({ status: 400, message: `Invalid A/B test: index products_cheap is already in the active A/B test ${id}: stop it first` });

    // 60 shoppers search twice each (the same variant both times) with clickAnalytics.
    const byVariant = new Map<number, Array<{ token: string; queryID: string; first: string }>>([[1, []], [2, []]]);
    for (let i = 0; i < 60; i++) {
      const token = `shopper-${i}`;
      const answers = [];
      for (let j = 0; j < 2; j++) answers.push(await search.searchSingleIndex({ indexName: 'products', searchParams: { query: 'oak', clickAnalytics: true, userToken: token } }));
      const [first, again] = answers as Array<Record<string, unknown> & { queryID: string; hits: Array<{ objectID: string }> }>;
      expect(first.abTestID).toBe(id);
      expect(again.abTestVariantID).toBe(first.abTestVariantID);
      const variant = first.abTestVariantID as number;
      // The variant's index answers: by stock, p3 (5 in stock, 300) before p4 (none, 90); by price, p4 first.
      if (variant === 2) {
        expect(first.indexUsed).toBe('products_cheap');
        expect(first.hits.map((hit) => hit.objectID)).toEqual(['p4', 'p3']);
      } else {
        expect(first.indexUsed).toBeUndefined();
        expect(first.hits.map((hit) => hit.objectID)).toEqual(['p3', 'p4']);
      }
      byVariant.get(variant)!.push({ token, queryID: first.queryID, first: first.hits[0].objectID });
    }
    const [a, b] = [byVariant.get(1)!, byVariant.get(2)!];
    expect(a.length).toBeGreaterThan(15);
    expect(b.length).toBeGreaterThan(10);

    // The lite client's multi-query: the index the request named, the variant's figures in the answer.
    const lite = liteClient(APP_ID, SEARCH_KEY, { hosts: hosts() });
    const { results } = await lite.search({ requests: [{ indexName: 'products', query: 'oak', userToken: b[0].token }] });
    expect(results[0]).toMatchObject({ index: 'products', indexUsed: 'products_cheap', abTestID: id, abTestVariantID: 2 });
    // Without clickAnalytics, no queryID (an earlier tracked search's result, kept by the result cache, once gave
    // its own, counting this search as tracked).
    expect(results[0]).not.toHaveProperty('queryID');
    // Searches that opt out, and searches of the variant's own index, are not part of the test.
    const optOut = await search.searchSingleIndex({ indexName: 'products', searchParams: { query: 'lamp', enableABTest: false, userToken: b[0].token } });
    expect(optOut).not.toHaveProperty('abTestID');
    expect(await search.searchSingleIndex({ indexName: 'products_cheap', searchParams: { query: 'lamp' } })).not.toHaveProperty('abTestID');

    // Events: every variant-B shopper clicks, a third of variant A's do; two B shoppers buy.
    const insights = search.initInsights({ options: { hosts: hosts() } });
    const clickOf = (s: { token: string; queryID: string; first: string }) =>
      ({ eventType: 'click' as const, eventName: 'Clicked', index: 'products', userToken: s.token, queryID: s.queryID, objectIDs: [s.first], positions: [1] });
    const clickers = [...a.filter((_, i) => i % 3 === 0), ...b];
    await insights.pushEvents({ events: clickers.map(clickOf) });
    await insights.pushEvents({
      events: b.slice(0, 2).map((s) => ({ eventType: 'conversion' as const, eventSubtype: 'purchase' as const, eventName: 'Bought', index: 'products', userToken: s.token, queryID: s.queryID, objectIDs: [s.first], objectData: [{ price: 40, quantity: 1 }], currency: 'USD' })),
    });

    const report = await abtesting.getABTest({ id });
    const clickedA = Math.ceil(a.length / 3);
    expect(report).toMatchObject({ abTestID: id, name: 'Price first', status: 'active', stoppedAt: null });
    expect(report.variants[0]).toMatchObject({
      index: 'products', trafficPercentage: 60, description: 'control', searchCount: 2 * a.length, trackedSearchCount: 2 * a.length,
      userCount: a.length, trackedUserCount: a.length, clickCount: clickedA, conversionCount: 0, noResultCount: 0,
      clickThroughRate: Math.round((clickedA / (2 * a.length)) * 10_000) / 10_000, averageClickPosition: 1,
    });
    expect(report.variants[1]).toMatchObject({
      index: 'products_cheap', trafficPercentage: 40, searchCount: 2 * b.length + 1, trackedSearchCount: 2 * b.length, userCount: b.length,
      clickCount: b.length, conversionCount: 2, purchaseCount: 2, clickThroughRate: 0.5, currencies: { USD: { currency: 'USD', revenue: 80 } },
    });
    // Under 100 tracked searches per variant: no significance claimed.
    if (2 * a.length < 100 || 2 * b.length < 100) expect(report.clickSignificance).toBeNull();

    // The estimate starts from the control index's own history: its tracked searches are variant A's.
    const rateA = Math.round((clickedA / (2 * a.length)) * 10_000) / 10_000;
    const needed = sampleSizePerVariant(rateA, 0.5)!;
    const estimate = await abtesting.estimateABTest({
      configuration: { minimumDetectableEffect: { size: 0.5, metric: 'clickThroughRate' } },
      variants: [{ index: 'products', trafficPercentage: 50 }, { index: 'products_cheap', trafficPercentage: 50 }],
    });
    expect(estimate).toEqual({ sampleSizes: [needed, needed], durationDays: Math.ceil(needed / (((2 * a.length) / 30) * 0.5)) });
    expect(await refusal(abtesting.estimateABTest({
      configuration: { minimumDetectableEffect: { size: 0.5, metric: 'conversionRate' } },
      variants: [{ index: 'shop', trafficPercentage: 50 }, { index: 'products', trafficPercentage: 50 }],
    }))).toMatchObject({ status: 400, message: expect.stringContaining('index shop has no conversionRate') });

    const listed = await abtesting.listABTests({ indexPrefix: 'prod', indexSuffix: '_cheap' });
    expect(listed).toMatchObject({ count: 1, total: 1, abtests: [{ abTestID: id }] });
    expect(await abtesting.listABTests({ indexPrefix: 'nothing' })).toEqual({ abtests: null, count: 0, total: 0 });

    expect(await abtesting.stopABTest({ id })).toEqual({ index: 'products', abTestID: id, taskID: id });
    expect(await search.searchSingleIndex({ indexName: 'products', searchParams: { query: 'lamp', userToken: b[0].token } })).not.toHaveProperty('abTestID');
    expect(await refusal(abtesting.stopABTest({ id }))).toEqual({ status: 400, message: `A/B test ${id}: already stopped` });
    expect((await abtesting.getABTest({ id })).status).toBe('stopped');
    await abtesting.deleteABTest({ id });
    expect(await refusal(abtesting.getABTest({ id }))).toMatchObject({ status: 404 });
  });

  it('adds custom search parameters on one index, under a secured key\'s filter', async () => {
    const { abTestID: id } = await abtesting.addABTests({
      name: 'In stock only',
      variants: [{ index: 'shop', trafficPercentage: 50 }, { index: 'shop', trafficPercentage: 50, customSearchParameters: { filters: 'stock > 0' } }],
      endAt: endAt(),
    });
    const secured = algoliasearch(APP_ID, securedApiKey(SEARCH_KEY, { filters: 'brand:Nordhus' }), { hosts: hosts() });
    const seen = new Map<number, string[]>();
    for (let i = 0; seen.size < 2 && i < 50; i++) {
      const answer = (await secured.searchSingleIndex({ indexName: 'shop', searchParams: { query: '', userToken: `s${i}` } })) as Record<string, unknown> & { hits: Array<{ objectID: string }> };
      expect(answer.abTestID).toBe(id);
      expect(answer.indexUsed).toBeUndefined();
      seen.set(answer.abTestVariantID as number, answer.hits.map((hit) => hit.objectID));
    }
    // The control: both Nordhus products; the variant: only those in stock, and never outside the key's filter.
    expect(seen.get(1)).toEqual(['p3', 'p4']);
    expect(seen.get(2)).toEqual(['p3']);
    // Echoed as the test was made (the client's `Variant` type leaves the field out; Algolia's answers carry it).
    expect((await abtesting.getABTest({ id })).variants[1]).toMatchObject({ customSearchParameters: { filters: 'stock > 0' } });
    await abtesting.deleteABTest({ id });

    // Two indexes: the variant's index answers the secured key within the key's filter too.
    const { abTestID: other } = await abtesting.addABTests({ ...twoIndexes(), variants: [{ index: 'products', trafficPercentage: 50 }, { index: 'products_cheap', trafficPercentage: 50 }] });
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => secured.searchSingleIndex({ indexName: 'products', searchParams: { query: '', userToken: `t${i}` } })));
    const onB = answers.filter((answer) => (answer as { abTestVariantID?: number }).abTestVariantID === 2);
    expect(onB.length).toBeGreaterThan(0);
    for (const answer of onB) {
      expect(answer).toMatchObject({ abTestID: other, indexUsed: 'products_cheap' });
      // Nordhus only, cheapest first: the chair (90), then the desk (300).
      expect(answer.hits.map((hit) => hit.objectID)).toEqual(['p4', 'p3']);
    }
    await abtesting.deleteABTest({ id: other });
  });
});

describe('A/B tests with a search thread', () => {
  it('route searches answered by the thread and count them', { timeout: 60_000 }, async () => {
    const t = await startTestServer({ config: { searchThreads: 1, insights: { modelRebuildIntervalMs: 0, suggestionsRebuildIntervalMs: 0, searchAggregationMs: 0 } } });
    try {
      const hosts = [{ url: t.host, protocol: 'http' as const, accept: 'readWrite' as const }];
      const admin = algoliasearch(APP_ID, ADMIN_KEY, { hosts });
      for (const [indexName, customRanking] of [['products', ['desc(stock)']], ['products_cheap', ['asc(price)']]] as const) {
        await admin.setSettings({ indexName, indexSettings: { ...SETTINGS, customRanking: [...customRanking] } });
        await admin.saveObjects({ indexName, objects: PRODUCTS, waitForTasks: true });
      }
      // The client's timeouts are shorter than a thread's start on a loaded machine.
      await t.server.app.searchThreads?.whenReady();
      const abtesting = admin.initAbtesting({ options: { hosts } });
      const { abTestID } = await abtesting.addABTests({ name: 'Threaded', variants: [{ index: 'products', trafficPercentage: 50 }, { index: 'products_cheap', trafficPercentage: 50 }], endAt: new Date(Date.now() + DAY).toISOString() });
      const search = algoliasearch(APP_ID, SEARCH_KEY, { hosts });
      const variants: unknown[] = [];
      for (let i = 0; i < 10; i++) {
        const answer = (await search.searchSingleIndex({ indexName: 'products', searchParams: { query: 'oak', userToken: `u${i}` } })) as Record<string, unknown> & { hits: Array<{ objectID: string }> };
        expect(answer.abTestID).toBe(abTestID);
        expect(answer.hits[0].objectID).toBe(answer.abTestVariantID === 2 ? 'p4' : 'p3');
        variants.push(answer.abTestVariantID);
      }
      const report = await abtesting.getABTest({ id: abTestID });
      expect(report.variants.map((variant) => variant.searchCount)).toEqual([1, 2].map((id) => variants.filter((v) => v === id).length));
    } finally {
      await t.close();
    }
  });
});
