/**
 * Recommendations as a restricted key sees them: one shop holding two tenants' records, a history where the other
 * tenant's items and brands trend most, and a secured key forcing `tenant:A` and `attributesToRetrieve`. Every
 * model answers only tenant A's records, trimmed to the forced attributes; trending facets rank only values of
 * the records the key may see, and only attributes its searches can count as facets.
 */
import type { InsightsEvent } from '@vitrine/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, SEARCH_KEY, securedApiKey } from '../../src/test-support.ts';
import type { TestApp } from '../../src/test-support.ts';

const NOW = Date.UTC(2025, 5, 15, 12);
const HOUR = 3_600_000;

/** Tenant A sells wood, tenant B metal; both in the same categories, so items look alike across tenants. */
const RECORDS = ['A', 'B'].flatMap((tenant) =>
  Array.from({ length: 8 }, (_, i) => ({
    objectID: `${tenant.toLowerCase()}${i}`,
    name: `${tenant === 'A' ? 'Oak' : 'Steel'} desk ${i}`,
    brand: tenant === 'A' ? ['Woodly', 'Pinecraft'][i % 2] : ['Metalix', 'Steelworks'][i % 2],
    color: ['black', 'white'][i % 2],
    price: 100 + 10 * i,
    tenant,
    owner: `${tenant.toLowerCase()}-owner`,
    cost: 50 + i,
    hierarchicalCategories: { lvl0: 'Furniture', lvl1: 'Furniture > Desks' },
  })),
);

/** Tenant B's items are viewed, clicked and bought three times as much; shoppers also filter on B's brands. */
function history(): Array<InsightsEvent & { timestamp: number }> {
  const events: Array<InsightsEvent & { timestamp: number }> = [];
  RECORDS.forEach((record, i) => {
    const times = record.tenant === 'B' ? 3 : 1;
    for (let n = 0; n < times; n++) {
      const userToken = `user-${i}-${n}`;
      const timestamp = NOW - (i + 1) * HOUR;
      // Bought with the next item of its tenant and with its counterpart at the other tenant.
      const basket = [record.objectID, RECORDS[(i + 1) % 8 + (i < 8 ? 0 : 8)].objectID, RECORDS[(i + 8) % 16].objectID];
      events.push({ eventType: 'view', eventName: 'Viewed', index: 'shop', userToken, objectIDs: [record.objectID], timestamp });
      events.push({ eventType: 'click', eventName: 'Clicked', index: 'shop', userToken, objectIDs: basket, timestamp: timestamp + 1000 });
      events.push({ eventType: 'conversion', eventSubtype: 'purchase', eventName: 'Bought', index: 'shop', userToken, objectIDs: basket, timestamp: timestamp + 2000 });
    }
  });
  for (let n = 0; n < 20; n++) {
    events.push({ eventType: 'click', eventName: 'Filtered', index: 'shop', userToken: `filter-${n}`, filters: ['brand:Metalix', 'color:black'], timestamp: NOW - (n + 1) * HOUR });
  }
  return events;
}

describe('recommendations for a key restricted to one tenant', () => {
  let t: TestApp;
  /** `tenant:A`, and only `name` retrieved. */
  let tenantKey: string;
  const recommend = async (request: Record<string, unknown>, key = tenantKey) =>
    t.call('POST', '/1/indexes/*/recommendations', { requests: [{ indexName: 'shop', threshold: 0, ...request }] }, key);
  const hitsOf = async (request: Record<string, unknown>, key = tenantKey) => (await recommend(request, key)).json().results[0].hits as Array<Record<string, unknown>>;
  /** What a hit shows of the record (highlighting and the score are not attributes). */
  const attributes = (hit: Record<string, unknown>) => Object.keys(hit).filter((k) => !k.startsWith('_')).sort();

  beforeAll(async () => {
    t = await createTestApp({ config: { now: () => NOW, insights: { modelRebuildIntervalMs: 0, suggestionsRebuildIntervalMs: 0 } } });
    await t.settle(await t.call('PUT', '/1/indexes/shop/settings', {
      searchableAttributes: ['name', 'brand'],
      attributesForFaceting: ['searchable(brand)', 'color', 'tenant', 'filterOnly(owner)', 'hierarchicalCategories.lvl0', 'hierarchicalCategories.lvl1'],
      unretrievableAttributes: ['cost'],
    }));
    await t.settle(await t.call('POST', '/1/indexes/shop/batch', { requests: RECORDS.map((body) => ({ action: 'addObject', body })) }));
    expect(await t.app.insights.seedIfEmpty({ searches: [], events: history() })).toBe(true);
    tenantKey = securedApiKey(SEARCH_KEY, { filters: 'tenant:A', attributesToRetrieve: ['name'] });
  });
  afterAll(() => t.close());

  it("answers only the tenant's records, with the forced attributes, from every model", async () => {
    const requests = [
      { model: 'trending-items' },
      { model: 'trending-items', facetName: 'color', facetValue: 'black' },
      { model: 'bought-together', objectID: 'a1' },
      { model: 'related-products', objectID: 'a1' },
      { model: 'looking-similar', objectID: 'a1' },
      { model: 'bought-together', objectID: 'no-such-item', fallbackParameters: { query: 'desk' } },
    ];
    for (const request of requests) {
      const everyone = await hitsOf(request, SEARCH_KEY);
      expect(everyone.some((hit) => String(hit.objectID).startsWith('b')), JSON.stringify(request)).toBe(true);
      const hits = await hitsOf(request);
      expect(hits.length, JSON.stringify(request)).toBeGreaterThan(0);
      for (const hit of hits) {
        expect(String(hit.objectID), JSON.stringify(request)).toMatch(/^a/);
        expect(attributes(hit)).toEqual(['name', 'objectID']);
      }
    }
  });

  it("recommends nothing from a record the key cannot read, as for a missing one", async () => {
    expect((await hitsOf({ model: 'looking-similar', objectID: 'b1' }, SEARCH_KEY)).length).toBeGreaterThan(0);
    expect(await hitsOf({ model: 'looking-similar', objectID: 'b1' })).toEqual([]);
    expect(await hitsOf({ model: 'looking-similar', objectID: 'no-such-item' })).toEqual([]);
  });

  it("ranks trending facet values of the tenant's records only", async () => {
    const values = async (facetName: string, key?: string) => (await hitsOf({ model: 'trending-facets', facetName }, key)).map((hit) => hit.facetValue);
    // Unrestricted, tenant B's brand leads (busier items, and the filter events name it).
    expect((await values('brand', SEARCH_KEY))[0]).toBe('Metalix');
    expect((await values('brand')).sort()).toEqual(['Pinecraft', 'Woodly']);
    expect((await values('color')).sort()).toEqual(['black', 'white']);
    const onlyB = securedApiKey(SEARCH_KEY, { filters: 'tenant:B AND color:white' });
    expect(await values('brand', onlyB)).toEqual(['Steelworks']);
  });

  it('refuses a facet the key cannot count: undeclared, unretrievable or filterOnly attributes', async () => {
    for (const facetName of ['cost', 'tenant_secret', 'owner', 'name', '__proto__', 'constructor', '*']) {
      const response = await recommend({ model: 'trending-facets', facetName }, SEARCH_KEY);
      expect(response.json(), facetName).toEqual({
        status: 400,
        message: `Invalid value for "facetName": \`${facetName}\` is not a facet of shop: only attributes in attributesForFaceting, not filterOnly, can be asked`,
      });
    }
  });
});
