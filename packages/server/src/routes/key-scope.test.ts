/**
 * What a restricted key reads outside the query routes: records by objectID (one, many), browse and facet-value
 * searches see only the records inside the key's forced filter, with the attributes it forces; filterOnly
 * attributes filter but give no counts. One shop holding two tenants' records, read with a secured key and a
 * stored key that force `tenant:A`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, SEARCH_KEY, securedApiKey } from '../test-support.ts';
import type { TestApp } from '../test-support.ts';

const RECORDS = [
  { objectID: 'a1', name: 'Oak desk', brand: 'Woodly', tenant: 'A', owner: 'ann', price: 120, cost: 60 },
  { objectID: 'a2', name: 'Pine shelf', brand: 'Woodly', tenant: 'A', owner: 'ann', price: 40, cost: 15 },
  { objectID: 'b1', name: 'Steel desk', brand: 'Metalix', tenant: 'B', owner: 'bob', price: 300, cost: 200 },
];
const ABSENT = { message: 'ObjectID does not exist', status: 404 };

describe('reads of a key restricted to one tenant', () => {
  let t: TestApp;
  /** Secured key: `tenant:A`, and `name` as the only attribute retrieved. */
  let securedKey: string;
  /** Stored key with browse: `tenant:A` in its queryParameters. */
  let storedKey: string;

  beforeAll(async () => {
    t = await createTestApp();
    await t.settle(await t.call('PUT', '/1/indexes/shop/settings', {
      attributesForFaceting: ['tenant', 'searchable(brand)', 'filterOnly(owner)'],
      unretrievableAttributes: ['cost'],
    }));
    await t.settle(await t.call('POST', '/1/indexes/shop/batch', { requests: RECORDS.map((body) => ({ action: 'addObject', body })) }));
    securedKey = securedApiKey(SEARCH_KEY, { filters: 'tenant:A', attributesToRetrieve: ['name'] });
    storedKey = (await t.call('POST', '/1/keys', { acl: ['search', 'browse'], queryParameters: 'filters=tenant%3AA' })).json().key;
  });
  afterAll(() => t.close());

  it("answers 404 for another tenant's record and only the forced attributes of its own", async () => {
    expect((await t.call('GET', '/1/indexes/shop/b1', undefined, securedKey)).json()).toEqual(ABSENT);
    expect((await t.call('GET', '/1/indexes/shop/b1', undefined, storedKey)).json()).toEqual(ABSENT);
    const own = await t.call('GET', '/1/indexes/shop/a1?attributesToRetrieve=*', undefined, securedKey);
    expect(own.json()).toEqual({ objectID: 'a1', name: 'Oak desk' });
    // Forced filters only: every attribute but the unretrievable one.
    expect((await t.call('GET', '/1/indexes/shop/a1', undefined, storedKey)).json()).toEqual({ objectID: 'a1', name: 'Oak desk', brand: 'Woodly', tenant: 'A', owner: 'ann', price: 120 });
    // The unrestricted keys still read every record.
    expect((await t.call('GET', '/1/indexes/shop/b1', undefined, SEARCH_KEY)).statusCode).toBe(200);
    expect((await t.call('GET', '/1/indexes/shop/b1')).json()).toEqual(RECORDS[2]);
  });

  it("answers null in getObjects for another tenant's records, as for missing ones", async () => {
    const requests = [
      { indexName: 'shop', objectID: 'b1' },
      { indexName: 'shop', objectID: 'a2', attributesToRetrieve: ['price', 'cost'] },
      { indexName: 'shop', objectID: 'nope' },
      { indexName: 'elsewhere', objectID: 'a1' },
      { indexName: 'shop', objectID: 'a1' },
    ];
    const secured = await t.call('POST', '/1/indexes/*/objects', { requests }, securedKey);
    expect(secured.json()).toEqual({ results: [null, { objectID: 'a2', name: 'Pine shelf' }, null, null, { objectID: 'a1', name: 'Oak desk' }] });
    const stored = await t.call('POST', '/1/indexes/*/objects', { requests }, storedKey);
    expect(stored.json().results.map((r: { objectID: string } | null) => r?.objectID ?? null)).toEqual([null, 'a2', null, null, 'a1']);
    expect(stored.json().results[1]).toEqual({ objectID: 'a2', price: 40 });
  });

  it('highlights and snippets only the attributes the key retrieves, in search, multi-query and browse', async () => {
    const params = { query: 'desk', attributesToHighlight: ['*'], attributesToSnippet: ['brand:2', 'name:2'] };
    const single = (await t.call('POST', '/1/indexes/shop/query', params, securedKey)).json();
    const multi = (await t.call('POST', '/1/indexes/*/queries', { requests: [{ indexName: 'shop', ...params }] }, securedKey)).json().results[0];
    const defaults = (await t.call('POST', '/1/indexes/shop/query', { query: 'desk' }, securedKey)).json();
    const browsingKey = (await t.call('POST', '/1/keys', { acl: ['browse'], queryParameters: 'filters=tenant%3AA&attributesToRetrieve=%5B%22name%22%5D' })).json().key;
    const browse = (await t.call('POST', '/1/indexes/shop/browse', params, browsingKey)).json();
    for (const result of [single, multi, defaults]) {
      expect(result.hits).toHaveLength(1);
      expect(Object.keys(result.hits[0]._highlightResult)).toEqual(['name']);
    }
    expect(Object.keys(single.hits[0]._snippetResult)).toEqual(['name']);
    expect(browse.hits.map((hit: { _highlightResult: object }) => Object.keys(hit._highlightResult))).toEqual([['name']]);
    // A key forcing filters only keeps the default: every searchable attribute highlighted, retrieved or not.
    const stored = (await t.call('POST', '/1/indexes/shop/query', { query: 'desk', attributesToRetrieve: ['name'] }, storedKey)).json();
    expect(Object.keys(stored.hits[0]._highlightResult).sort()).toEqual(['brand', 'name', 'owner', 'price', 'tenant']);
  });

  it("browses and searches facet values within the key's filter", async () => {
    const browse = await t.call('POST', '/1/indexes/shop/browse', {}, storedKey);
    expect(browse.json().hits.map((h: { objectID: string }) => h.objectID).sort()).toEqual(['a1', 'a2']);
    const widened = await t.call('POST', '/1/indexes/shop/browse', { filters: 'tenant:B OR tenant:A' }, storedKey);
    expect(widened.json().hits.map((h: { objectID: string }) => h.objectID).sort()).toEqual(['a1', 'a2']);
    for (const key of [securedKey, storedKey]) {
      const facetHits = await t.call('POST', '/1/indexes/shop/facets/brand/query', { facetQuery: '' }, key);
      expect(facetHits.json().facetHits).toEqual([{ value: 'Woodly', highlighted: 'Woodly', count: 2 }]);
    }
  });

  it('filters on filterOnly attributes without counting their values, and refuses to search them', async () => {
    const search = await t.call('POST', '/1/indexes/shop/query', { facets: ['owner', 'brand'], filters: 'owner:bob' }, SEARCH_KEY);
    expect(search.json()).toMatchObject({ nbHits: 1, facets: { brand: { Metalix: 1 } } });
    expect(search.json().facets.owner).toBeUndefined();
    const facetSearch = await t.call('POST', '/1/indexes/shop/facets/owner/query', { facetQuery: 'a' }, SEARCH_KEY);
    expect(facetSearch.json()).toEqual({ status: 400, message: 'Cannot search in `owner` attribute, you need to add `searchable(owner)` to attributesForFaceting.' });
  });
});
