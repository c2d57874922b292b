/**
 * Request-parsing fuzzing: random bodies, random params strings and random paths against the real app.
 * Whatever arrives, the answer is never a 5xx (the clients would retry it on another host) and every error
 * carries Algolia's `{ message, status }` body.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, SEARCH_KEY } from '../src/test-support.ts';
import type { TestApp } from '../src/test-support.ts';

const ROUTES: Array<[string, string]> = [
  ['POST', '/1/indexes/fuzz/query'],
  ['POST', '/1/indexes/*/queries'],
  ['POST', '/1/indexes/fuzz/browse'],
  ['POST', '/1/indexes/fuzz/facets/brand/query'],
  ['POST', '/1/indexes/fuzz/batch'],
  ['POST', '/1/indexes/*/batch'],
  ['POST', '/1/indexes/*/objects'],
  ['POST', '/1/indexes/fuzz/p1/partial'],
  ['PUT', '/1/indexes/fuzz/p1'],
  ['PUT', '/1/indexes/fuzz/settings'],
  ['POST', '/1/indexes/fuzz/deleteByQuery'],
  ['POST', '/1/indexes/fuzz/operation'],
  ['POST', '/1/indexes/fuzz/synonyms/batch'],
  ['POST', '/1/indexes/fuzz/synonyms/search'],
  ['POST', '/1/keys'],
  ['POST', '/1/events'],
  ['POST', '/1/indexes/*/recommendations'],
];

/** Bodies shaped like real requests, with random values where the server must be defensive. */
const requestLike = fc.oneof(
  fc.jsonValue(),
  fc.record({ requests: fc.array(fc.record({ indexName: fc.constantFrom('fuzz', '', 'other'), action: fc.string(), body: fc.jsonValue(), params: fc.string(), type: fc.constantFrom('default', 'facet', 'x'), facet: fc.string() }, { requiredKeys: [] }), { maxLength: 4 }) }),
  fc.record({ query: fc.jsonValue(), filters: fc.jsonValue(), facetFilters: fc.jsonValue(), hitsPerPage: fc.jsonValue(), page: fc.jsonValue(), facets: fc.jsonValue(), params: fc.string() }, { requiredKeys: [] }),
  fc.record({
    requests: fc.array(fc.record({
      indexName: fc.constantFrom('fuzz', 'other'), model: fc.constantFrom('related-products', 'bought-together', 'trending-items', 'trending-facets', 'looking-similar', 'x'),
      objectID: fc.oneof(fc.constant('p1'), fc.jsonValue()), facetName: fc.jsonValue(), facetValue: fc.jsonValue(), threshold: fc.jsonValue(),
      maxRecommendations: fc.jsonValue(), queryParameters: fc.jsonValue(), fallbackParameters: fc.jsonValue(),
    }, { requiredKeys: [] }), { maxLength: 3 }),
  }),
  fc.record({ events: fc.array(fc.dictionary(fc.constantFrom('eventType', 'eventName', 'index', 'userToken', 'objectIDs', 'positions', 'queryID'), fc.jsonValue()), { maxLength: 3 }) }),
);

describe('fuzzing request parsing', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await t.settle(await t.call('PUT', '/1/indexes/fuzz/settings', { attributesForFaceting: ['searchable(brand)'] }));
    await t.settle(await t.call('PUT', '/1/indexes/fuzz/p1', { brand: 'Lumio', price: 3 }));
  });
  afterAll(async () => {
    // close() waits for every accepted write to apply. Each must have applied: validation happens before logging.
    await t.close();
    expect(t.applyErrors).toEqual([]);
  });

  const assertAlgoliaAnswer = (statusCode: number, text: string) => {
    expect(statusCode).toBeLessThan(500);
    if (statusCode >= 400) expect(JSON.parse(text)).toEqual({ message: expect.any(String), status: statusCode });
  };

  it('answers random JSON bodies on every route with 2xx or an Algolia 4xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ROUTES), requestLike, async ([method, url], body) => {
        const response = await t.call(method, url, JSON.stringify(body));
        assertAlgoliaAnswer(response.statusCode, response.body);
      }),
      { numRuns: 400 },
    );
  });

  it('answers random raw bytes and random params strings the same way', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ROUTES), fc.oneof(fc.string(), fc.string().map((s) => JSON.stringify({ params: s }))), async ([method, url], payload) => {
        const response = await t.call(method, url, payload, SEARCH_KEY);
        assertAlgoliaAnswer(response.statusCode, response.body);
      }),
      { numRuns: 300 },
    );
  });

  it('answers random paths and query strings without a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('GET', 'POST', 'PUT', 'DELETE'), fc.webPath(), fc.webQueryParameters(), async (method, path, query) => {
        const response = await t.call(method, `/1/indexes${path}?${query}`, method === 'GET' || method === 'DELETE' ? undefined : '{}');
        assertAlgoliaAnswer(response.statusCode, response.body);
      }),
      { numRuns: 300 },
    );
  });

  it('answers random analytics and user-token requests without a 5xx', async () => {
    const analytics = ['searches', 'searches/count', 'searches/noResults', 'clicks/clickThroughRate', 'conversions/revenue', 'hits', 'filters', 'filters/brand', 'users/count', 'status'];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...analytics), fc.webQueryParameters(), fc.dictionary(fc.constantFrom('index', 'startDate', 'endDate', 'limit', 'offset', 'tags', 'orderBy', 'direction', 'search', 'clickAnalytics'), fc.string()), async (route, raw, named) => {
        const query = new URLSearchParams(named).toString();
        const response = await t.call('GET', `/2/${route}?${query}&${raw}`);
        assertAlgoliaAnswer(response.statusCode, response.body);
      }),
      { numRuns: 300 },
    );
    await fc.assert(
      fc.asyncProperty(fc.string(), async (token) => {
        const response = await t.call('DELETE', `/1/usertokens/${encodeURIComponent(token)}`);
        assertAlgoliaAnswer(response.statusCode, response.body);
      }),
      { numRuns: 100 },
    );
  });
});
