/**
 * Recommendations and query suggestions over a real socket, on the demo catalogue with the demo's generated
 * history loaded: the official recommend client (algoliasearch v5 `initRecommend`), the lite client's
 * `getRecommendations` as InstantSearch's helper calls it, every model, the request options and the errors.
 */
import { algoliasearch } from 'algoliasearch';
import type { RecommendClient } from 'algoliasearch';
import { liteClient } from 'algoliasearch/lite';
import algoliasearchHelper from 'algoliasearch-helper';
import { demoIndexName, demoSettings, generateHistory, generateProducts } from '@vitrine/demo';
import type { InsightsHistory, Product } from '@vitrine/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_ID, SEARCH_KEY, securedApiKey, startTestServer } from '../../src/test-support.ts';
import type { TestServer } from '../../src/test-support.ts';
import { searchStore } from '../../src/search/in-process.ts';

const NOW = Date.UTC(2025, 5, 15, 12);

type Hit = Product & { _score?: number };

describe('Recommend API and query suggestions', () => {
  let t: TestServer;
  const products = [...generateProducts(2000)];
  /** A secured key forcing `price < 50` onto every search. */
  let CHEAP_ONLY_KEY: string;
  let recommend: RecommendClient;
  let history: InsightsHistory;
  const hosts = () => [{ url: t.host, protocol: 'http' as const, accept: 'readWrite' as const }];
  const hitsOf = async (request: Record<string, unknown>) => {
    const { results } = await recommend.getRecommendations({ requests: [{ indexName: 'products', threshold: 0, ...request } as never] });
    return results[0].hits as Hit[];
  };
  const product = (id: string) => products[Number(id) - 1];

  beforeAll(async () => {
    t = await startTestServer({
      config: { now: () => NOW, insights: { modelRebuildIntervalMs: 0, suggestionsRebuildIntervalMs: 0 } },
      index: { name: demoIndexName, settings: demoSettings, records: products },
    });
    CHEAP_ONLY_KEY = securedApiKey(SEARCH_KEY, { filters: 'price < 50' });
    history = generateHistory(products, { now: NOW, sessionsPerDay: 150 });
    expect(await t.server.insights.seedIfEmpty(history)).toBe(true);
    expect(await t.server.insights.seedIfEmpty(history)).toBe(false);
    recommend = algoliasearch(APP_ID, SEARCH_KEY, { hosts: hosts() }).initRecommend({ options: { hosts: hosts() } });
  });
  afterAll(() => t.close());

  it('recommends items bought together, best partner first, from the purchases', async () => {
    // The item most often bought with others.
    const counts = new Map<string, number>();
    for (const e of history.events) if (e.eventSubtype === 'purchase' && e.objectIDs!.length > 1) counts.set(e.objectIDs![0], (counts.get(e.objectIDs![0]) ?? 0) + 1);
    const [source] = [...counts].sort((a, b) => b[1] - a[1])[0];
    // Partners as the model defines them: bought by the same user within a day of buying the source.
    const purchases = history.events.filter((e) => e.eventSubtype === 'purchase');
    const buyingSource = purchases.filter((e) => e.objectIDs!.includes(source));
    const partners = new Set(
      purchases
        .filter((e) => buyingSource.some((b) => b.userToken === e.userToken && Math.abs(b.timestamp - e.timestamp) <= 86_400_000))
        .flatMap((e) => e.objectIDs!),
    );
    const hits = await hitsOf({ model: 'bought-together', objectID: source });
    expect(hits.length).toBeGreaterThan(0);
    for (const hit of hits) expect(partners.has(hit.objectID)).toBe(true);
    expect(hits.map((h) => h.objectID)).not.toContain(source);
    expect(hits[0]).toMatchObject({ name: product(hits[0].objectID).name });
    for (let i = 1; i < hits.length; i++) expect(hits[i - 1]._score!).toBeGreaterThanOrEqual(hits[i]._score!);
  });

  it('recommends related products of the same category first, and looking-similar items by attributes', async () => {
    const source = products[0];
    const related = await hitsOf({ model: 'related-products', objectID: source.objectID, maxRecommendations: 5 });
    expect(related).toHaveLength(5);
    expect(related.map((h) => h.objectID)).not.toContain(source.objectID);
    expect(related[0].hierarchicalCategories.lvl2).toBe(source.hierarchicalCategories.lvl2);
    const similar = await hitsOf({ model: 'looking-similar', objectID: source.objectID, maxRecommendations: 5 });
    expect(similar).toHaveLength(5);
    for (const hit of similar) expect(hit.hierarchicalCategories.lvl1).toBe(source.hierarchicalCategories.lvl1);
    expect(similar[0]._score!).toBeGreaterThan(similar[4]._score! - 0.001);
  });

  it('ranks trending items (the rising products lead) and trending facet values', async () => {
    const hits = await hitsOf({ model: 'trending-items', maxRecommendations: 10 });
    expect(hits).toHaveLength(10);
    expect(hits[0]._score).toBe(100);
    const week = (from: number) => {
      const counts = new Map<string, number>();
      for (const e of history.events) if (e.timestamp > NOW - from && e.timestamp <= NOW - from + 7 * 86_400_000) for (const id of e.objectIDs ?? []) counts.set(id, (counts.get(id) ?? 0) + 1);
      return counts;
    };
    const lastWeek = week(7 * 86_400_000);
    const weekBefore = week(14 * 86_400_000);
    const tenthBusiest = [...lastWeek.values()].sort((a, b) => b - a)[9];
    // The leader is busy this week and rising against the week before.
    expect(lastWeek.get(hits[0].objectID)!).toBeGreaterThanOrEqual(tenthBusiest);
    expect(lastWeek.get(hits[0].objectID)!).toBeGreaterThan(2 * (weekBefore.get(hits[0].objectID) ?? 0));
    const department = hits[0].hierarchicalCategories.lvl0;
    const scoped = await hitsOf({ model: 'trending-items', facetName: 'hierarchicalCategories.lvl0', facetValue: department, maxRecommendations: 5 });
    for (const hit of scoped) expect(hit.hierarchicalCategories.lvl0).toBe(department);
    const { results } = await recommend.getRecommendations({ requests: [{ indexName: 'products', model: 'trending-facets', facetName: 'brand', threshold: 0, maxRecommendations: 3 }] });
    expect(results[0].hits).toHaveLength(3);
    expect(results[0].hits[0]).toEqual({ facetName: 'brand', facetValue: expect.any(String), _score: 100 });
  });

  it('applies queryParameters filters, threshold and maxRecommendations, and fills with fallbackParameters', async () => {
    const source = products[0];
    const all = await hitsOf({ model: 'looking-similar', objectID: source.objectID });
    expect(all.length).toBe(30);
    const colour = all[all.length - 1].color;
    const filtered = await hitsOf({ model: 'looking-similar', objectID: source.objectID, queryParameters: { facetFilters: [`color:${colour}`] } });
    expect(filtered.length).toBeGreaterThan(0);
    for (const hit of filtered) expect(hit.color).toBe(colour);
    const cheap = await hitsOf({ model: 'related-products', objectID: source.objectID, queryParameters: { filters: 'price < 50' } });
    for (const hit of cheap) expect(hit.price).toBeLessThan(50);
    const strict = await hitsOf({ model: 'looking-similar', objectID: source.objectID, threshold: 60 });
    for (const hit of strict) expect(hit._score!).toBeGreaterThanOrEqual(60);
    const none = await hitsOf({ model: 'bought-together', objectID: 'no-such-product', maxRecommendations: 4 });
    expect(none).toEqual([]);
    const fallback = await hitsOf({ model: 'bought-together', objectID: 'no-such-product', maxRecommendations: 4, fallbackParameters: { facetFilters: ['brand:' + source.brand] } });
    expect(fallback).toHaveLength(4);
    for (const hit of fallback) expect(hit.brand).toBe(source.brand);
  });

  it("applies the caller key's forced filters to what it recommends", async () => {
    // A source the key may read: one it may not is as missing (recommend-keys.test.ts).
    const source = products.find((p) => p.price < 50)!;
    const response = await t.call('POST', '/1/indexes/*/recommendations', {
      requests: [{ indexName: 'products', model: 'looking-similar', objectID: source.objectID, threshold: 0, maxRecommendations: 10 }],
    }, CHEAP_ONLY_KEY);
    expect(response.status).toBe(200);
    const hits = response.body.results[0].hits as Hit[];
    expect(hits.length).toBeGreaterThan(0);
    for (const hit of hits) expect(hit.price).toBeLessThan(50);
  });

  it('answers the helper InstantSearch drives (lite client getRecommendations)', async () => {
    const client = liteClient(APP_ID, SEARCH_KEY, { hosts: hosts() });
    const helper = algoliasearchHelper(client as never, 'products');
    helper.addRelatedProducts({ $$id: 1, objectID: products[1].objectID, maxRecommendations: 4 } as never);
    helper.addFrequentlyBoughtTogether({ $$id: 2, objectID: products[2].objectID } as never);
    const results = await new Promise<Record<number, { hits: Hit[] }>>((resolve, reject) => {
      helper.on('error', (event: { error: unknown }) => reject(event.error));
      (helper as unknown as { on(name: string, cb: (event: { recommend: { results: Record<number, { hits: Hit[] }> } }) => void): void })
        .on('recommend:result', (event) => resolve(event.recommend.results));
      helper.recommend();
    });
    expect(results[1].hits).toHaveLength(4);
    expect(Array.isArray(results[2].hits)).toBe(true);
  });

  it('answers each result with the exhaustiveness fields of Algolia\'s answers', async () => {
    const { results } = await recommend.getRecommendations({
      requests: [{ indexName: 'products', model: 'trending-items', threshold: 0 }, { indexName: 'products', model: 'trending-facets', facetName: 'brand', threshold: 0 }],
    });
    for (const result of results) {
      expect(result).toMatchObject({ exhaustiveNbHits: true, exhaustiveTypo: true, exhaustive: { nbHits: true, typo: true } });
    }
  });

  it('refuses malformed requests (400) and unknown indices (404)', async () => {
    const call = (requests: unknown[]) => t.call('POST', '/1/indexes/*/recommendations', { requests }, SEARCH_KEY);
    expect((await call([{ indexName: 'products', model: 'related-products', threshold: 0 }])).status).toBe(400);
    expect((await call([{ indexName: 'products', model: 'telepathy', threshold: 0 }])).status).toBe(400);
    expect((await call([{ indexName: 'products', model: 'trending-items', threshold: 101 }])).status).toBe(400);
    const tooMany = await call(Array.from({ length: 101 }, () => ({ indexName: 'products', model: 'trending-items', threshold: 0 })));
    expect(tooMany).toEqual({ status: 400, body: { status: 400, message: expect.stringContaining('at most 100 requests') } });
    expect((await call([{ indexName: 'products', model: 'trending-items', threshold: 0, maxRecommendations: 31 }])).status).toBe(400);
    expect((await call([{ indexName: 'products', model: 'trending-facets', threshold: 0 }])).status).toBe(400);
    expect((await call([{ indexName: 'nowhere', model: 'trending-items', threshold: 0 }])).status).toBe(404);
    expect((await t.call('POST', '/1/indexes/products/recommendations', { requests: [] }, SEARCH_KEY)).status).toBe(404);
  });

  it('builds query suggestions from the analytics (admin route), in the query-suggestions record shape', async () => {
    expect((await t.call('POST', '/1/vitrine/query-suggestions/build', undefined, SEARCH_KEY)).status).toBe(403);
    const built = await t.call('POST', '/1/vitrine/query-suggestions/build');
    expect(built.status).toBe(200);
    expect(built.body.indices).toEqual([{ indexName: 'products_query_suggestions', sources: ['products'], records: expect.any(Number) }]);
    type Suggestion = { query: string; popularity: number; products: { exact_nb_hits: number; facets: { exact_matches: Record<string, unknown[]> } } };
    const top = searchStore(t.server.store, 'products_query_suggestions', { query: '', hitsPerPage: 1000 }).hits as unknown as Suggestion[];
    expect(top.length).toBe(built.body.indices[0].records);
    for (let i = 1; i < top.length; i++) expect(top[i - 1].popularity).toBeGreaterThanOrEqual(top[i].popularity);
    const first = top[0];
    expect(first).toMatchObject({ objectID: first.query, nb_words: first.query.split(' ').length });
    expect(first.products.exact_nb_hits).toBeGreaterThan(0);
    expect(first.products.facets.exact_matches['hierarchicalCategories.lvl0'][0]).toEqual({ value: expect.any(String), count: expect.any(Number) });
    // Queries without results (the history's misspellings) are never suggested.
    expect(top.map((r) => r.query)).not.toContain('wireles hedphones');
  });

  it('rebuilds the models on demand (admin route)', async () => {
    const built = await t.call('POST', '/1/vitrine/recommend/build');
    expect(built.status).toBe(200);
    expect(built.body).toMatchObject({ eventsRead: history.events.length, builtAt: new Date(NOW).toISOString() });
    expect(built.body.boughtTogetherItems).toBeGreaterThan(0);
    // Built when seeded: this build reads nothing new; asked in full, it reads every event again, to the same models.
    expect(built.body).toMatchObject({ full: false, eventsScanned: 0 });
    const full = await t.call('POST', '/1/vitrine/recommend/build', { full: true });
    expect(full.body).toEqual({ ...built.body, full: true, eventsScanned: history.events.length, buildMs: expect.any(Number) });
    const wrong = await t.call('POST', '/1/vitrine/recommend/build', { full: 'yes' });
    expect(wrong).toMatchObject({ status: 400, body: { message: 'Invalid value for "full": expected true or false', status: 400 } });
  });
});
