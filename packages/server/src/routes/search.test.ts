import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, SEARCH_KEY, securedApiKey } from '../test-support.ts';
import type { TestApp } from '../test-support.ts';

describe('search routes', () => {
  let t: TestApp;
  const search = (url: string, body?: unknown) => t.call(body === undefined ? 'GET' : 'POST', url, body, SEARCH_KEY);

  beforeAll(async () => {
    t = await createTestApp();
    await t.settle(await t.call('PUT', '/1/indexes/shop/settings', { attributesForFaceting: ['searchable(brand)', 'price'] }));
    await t.settle(await t.call('POST', '/1/indexes/shop/batch', {
      requests: ['Lumio lamp', 'Lumio desk', 'Nordhus lamp'].map((name, i) => ({ action: 'addObject', body: { objectID: String(i), name, brand: name.split(' ')[0], price: 10 * (i + 1) } })),
    }));
  });
  afterAll(() => t.close());

  it('reads GET search parameters from the query string, coerced like v4 params', async () => {
    const response = await search(`/1/indexes/shop?query=lamp&hitsPerPage=1&facets=brand&facetFilters=${encodeURIComponent('["brand:Lumio"]')}`);
    expect(response.json()).toMatchObject({ nbHits: 1, hitsPerPage: 1, facets: { brand: { Lumio: 1 } } });
  });

  it('merges a v4 params string with JSON fields', async () => {
    const response = await search('/1/indexes/shop/query', { params: 'query=lamp&numericFilters=%5B%22price%3E15%22%5D', hitsPerPage: 5 });
    expect(response.json()).toMatchObject({ nbHits: 1, hitsPerPage: 5 });
    expect(response.json().hits[0].objectID).toBe('2');
  });

  it('ranks by filter scores and accepts facetFilters nested deeper than one OR level, in v5 fields and v4 params', async () => {
    const scored = await search('/1/indexes/shop/query', { filters: '(brand:Lumio<score=1> OR brand:Nordhus<score=5>)', query: 'lamp' });
    expect(scored.statusCode).toBe(200);
    expect(scored.json().hits.map((hit: { objectID: string }) => hit.objectID)).toEqual(['2', '0']);
    const nested = await search('/1/indexes/shop/query', { facetFilters: ['price:20', ['brand:Nordhus', ['brand:Lumio']]] });
    expect(nested.json()).toMatchObject({ nbHits: 1, hits: [{ objectID: '1' }] });
    const v4 = await search('/1/indexes/shop/query', { params: `facetFilters=${encodeURIComponent('[["brand:Lumio<score=1>","brand:Nordhus<score=5>"]]')}&query=lamp` });
    expect(v4.json().hits.map((hit: { objectID: string }) => hit.objectID)).toEqual(['2', '0']);
  });

  it('validates multi-queries before running any', async () => {
    const noIndex = await search('/1/indexes/*/queries', { requests: [{ query: 'a' }] });
    expect(noIndex.json()).toEqual({ message: 'Missing parameter: requests[0].indexName', status: 400 });
    const badType = await search('/1/indexes/*/queries', { requests: [{ indexName: 'shop', type: 'hits' }] });
    expect(badType.statusCode).toBe(400);
    const noFacet = await search('/1/indexes/*/queries', { requests: [{ indexName: 'shop', type: 'facet' }] });
    expect(noFacet.json().message).toMatch(/facet/);
    const missing = await search('/1/indexes/*/queries', { requests: [{ indexName: 'shop' }, { indexName: 'nowhere' }] });
    expect(missing.json()).toEqual({ message: 'Index does not exist', status: 404 });
    const tooMany = await search('/1/indexes/*/queries', { requests: Array.from({ length: 101 }, () => ({ indexName: 'shop' })) });
    expect(tooMany.statusCode).toBe(400);
    expect((await search('/1/indexes/shop/queries', { requests: [] })).statusCode).toBe(404);
  });

  it('enforces the query and pagination limits over HTTP', async () => {
    expect((await search('/1/indexes/shop/query', { query: 'x'.repeat(600) })).json()).toEqual({ message: 'Query too long: 600 bytes, the limit is 512', status: 400 });
    expect((await search('/1/indexes/shop/query', { hitsPerPage: 5000 })).json().message).toMatch(/hitsPerPage/);
    expect((await search('/1/indexes/shop/query', { params: 'page=abc' })).json().message).toMatch(/page/);
  });

  it('caps the highlight tags, given or forced by a secured key, with a 400 naming the limit', async () => {
    const tag = 'x'.repeat(257);
    const tooLong = { message: 'Parameter too long: "highlightPreTag" is 257 bytes, the limit is 256', status: 400 };
    expect((await search('/1/indexes/shop/query', { query: 'lamp', highlightPreTag: tag })).json()).toEqual(tooLong);
    expect((await search('/1/indexes/*/queries', { requests: [{ indexName: 'shop', params: `highlightPostTag=${'é'.repeat(129)}` }] })).json()).toEqual({
      message: 'Parameter too long: "highlightPostTag" is 258 bytes, the limit is 256',
      status: 400,
    });
    expect((await search('/1/indexes/shop/query', { snippetEllipsisText: tag })).statusCode).toBe(400);
    const secured = securedApiKey(SEARCH_KEY, { highlightPreTag: tag });
    expect((await t.call('POST', '/1/indexes/shop/query', { query: 'lamp' }, secured)).json()).toEqual(tooLong);
    const fine = await search('/1/indexes/shop/query', { query: 'lamp', highlightPreTag: '<mark class="hit">', highlightPostTag: 'y'.repeat(256) });
    expect(fine.json().hits[0]._highlightResult.name.value).toBe(`Lumio <mark class="hit">lamp${'y'.repeat(256)}`);
  });

  it('refuses a response past maxResponseBytes with a 400, on the main thread and on a search thread', async () => {
    const limits = { maxResponseBytes: 4000 };
    for (const config of [{}, { searchThreads: 1 }]) {
      const small = await createTestApp({ limits, config });
      try {
        await small.app.searchThreads?.whenReady();
        await small.settle(await small.call('POST', '/1/indexes/shop/batch', {
          requests: Array.from({ length: 30 }, (_, i) => ({ action: 'addObject', body: { objectID: String(i), name: `lamp number ${i}` } })),
        }));
        const heavy = { indexName: 'shop', query: 'lamp', hitsPerPage: 1000, attributesToHighlight: ['*'] };
        const refused = await small.call('POST', '/1/indexes/*/queries', { requests: Array.from({ length: 100 }, () => heavy) }, SEARCH_KEY);
        expect(refused.json()).toEqual({
          message: 'Response too large: the limit is 4000 bytes; ask for fewer hits, facet values, or highlighted or snippeted attributes',
          status: 400,
        });
        const answered = await small.call('POST', '/1/indexes/*/queries', { requests: [{ ...heavy, hitsPerPage: 5 }] }, SEARCH_KEY);
        expect(answered.json().results[0].hits).toHaveLength(5);
      } finally {
        await small.close();
      }
    }
  });

  it('turns engine errors into 400s with the engine message', async () => {
    const response = await search('/1/indexes/shop/query', { filters: 'brand:Lumio AND (' });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/^filters:/);
    const facet = await search('/1/indexes/shop/facets/price/query', { facetQuery: '1' });
    expect(facet.statusCode).toBe(400);
  });

  it('browses with a cursor until the end, with the browse ACL only', async () => {
    expect((await search('/1/indexes/shop/browse', {})).json()).toEqual({ message: 'Method not allowed with this API key', status: 403 });
    const first = (await t.call('POST', '/1/indexes/shop/browse', { hitsPerPage: 2 })).json();
    expect(first.hits).toHaveLength(2);
    expect(typeof first.cursor).toBe('string');
    const rest = (await t.call('GET', `/1/indexes/shop/browse?cursor=${encodeURIComponent(first.cursor)}`)).json();
    expect(rest.hits).toHaveLength(1);
    expect(rest.cursor).toBeUndefined();
  });
});
