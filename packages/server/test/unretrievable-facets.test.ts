/**
 * The facet values of `unretrievableAttributes` are not shown to keys without `seeUnretrievableAttributes`
 * (issue 49, item 6), over a real server with a search thread and the official client: not in `facets` or
 * `facets_stats` (named or `*`), not through a search for facet values (its own route or a multi-query's
 * `type: "facet"` query). Keys with the ACL (the admin key, a stored key given it) see them; filtering on them
 * keeps working for every key.
 */
import { algoliasearch } from 'algoliasearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, APP_ID, SEARCH_KEY, securedApiKey, startTestServer } from '../src/test-support.ts';
import type { TestServer } from '../src/test-support.ts';

const RECORDS = [
  { objectID: 'a', name: 'oak table', brand: 'Nordhus', supplier: 'Secret Mill Ltd', cost: 12 },
  { objectID: 'b', name: 'oak chair', brand: 'Nordhus', supplier: 'Hidden Forge', cost: 30 },
  { objectID: 'c', name: 'brass lamp', brand: 'Lumio', supplier: 'Secret Mill Ltd', cost: 7 },
];
const SETTINGS = {
  searchableAttributes: ['name'],
  attributesForFaceting: ['searchable(brand)', 'searchable(supplier)', 'cost'],
  unretrievableAttributes: ['supplier', 'cost'],
};

describe('facets of unretrievable attributes', () => {
  let fixture: TestServer;
  let withAcl: string;
  let withoutAcl: string;
  const connect = (key: string) => algoliasearch(APP_ID, key, { hosts: [{ url: fixture.host, protocol: 'http', accept: 'readWrite' }] });
  const facetsOf = async (key: string, facets: string[]) => {
    const answer = await connect(key).searchSingleIndex({ indexName: 'shop', searchParams: { facets } });
    return { facets: Object.keys(answer.facets ?? {}).sort(), stats: Object.keys(answer.facets_stats ?? {}).sort(), text: JSON.stringify(answer) };
  };

  beforeAll(async () => {
    fixture = await startTestServer({ config: { searchThreads: 1 }, index: { name: 'shop', settings: SETTINGS, records: RECORDS } });
    withAcl = await fixture.createKey({ acl: ['search', 'seeUnretrievableAttributes'] });
    withoutAcl = await fixture.createKey({ acl: ['search'] });
  });
  afterAll(() => fixture.close());

  it('leaves them out of facets and facets_stats for keys without the ACL', async () => {
    for (const key of [SEARCH_KEY, withoutAcl, securedApiKey(SEARCH_KEY, { filters: 'brand:Nordhus' })]) {
      for (const facets of [['*'], ['brand', 'supplier', 'cost']]) {
        const answer = await facetsOf(key, facets);
        expect(answer.facets).toEqual(['brand']);
        expect(answer.stats).toEqual([]);
        expect(answer.text).not.toMatch(/Secret Mill|Hidden Forge/);
      }
    }
  });

  it('refuses searching their values to keys without the ACL, as for an attribute that is not a facet', async () => {
    const refusal = { status: 400, message: 'Cannot search in `supplier` attribute, you need to add `searchable(supplier)` to attributesForFaceting.' };
    for (const key of [SEARCH_KEY, withoutAcl]) {
      await expect(connect(key).searchForFacetValues({ indexName: 'shop', facetName: 'supplier', searchForFacetValuesRequest: { facetQuery: 'sec' } })).rejects.toMatchObject(refusal);
      await expect(connect(key).search({ requests: [{ indexName: 'shop', type: 'facet', facet: 'supplier', facetQuery: 'sec' }] })).rejects.toMatchObject(refusal);
      // A retrievable facet is searched as before.
      const brands = await connect(key).searchForFacetValues({ indexName: 'shop', facetName: 'brand', searchForFacetValuesRequest: { facetQuery: 'nord' } });
      expect(brands.facetHits.map((hit) => hit.value)).toEqual(['Nordhus']);
    }
  });

  it('shows them to keys with the ACL, and lets every key filter on them', async () => {
    for (const key of [ADMIN_KEY, withAcl]) {
      const answer = await facetsOf(key, ['*']);
      expect(answer.facets).toEqual(['brand', 'cost', 'supplier']);
      expect(answer.stats).toEqual(['cost']);
      const values = await connect(key).searchForFacetValues({ indexName: 'shop', facetName: 'supplier', searchForFacetValuesRequest: { facetQuery: 'sec' } });
      expect(values.facetHits).toMatchObject([{ value: 'Secret Mill Ltd', count: 2 }]);
    }
    const filtered = await connect(SEARCH_KEY).searchSingleIndex({ indexName: 'shop', searchParams: { filters: 'supplier:"Hidden Forge"' } });
    expect(filtered.hits.map((hit) => hit.objectID)).toEqual(['b']);
  });
});
