import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../test-support.ts';
import type { TestApp } from '../test-support.ts';

describe('settings and replicas', () => {
  let t: TestApp;
  const put = async (index: string, settings: unknown, query = '') => {
    const response = await t.call('PUT', `/1/indexes/${index}/settings${query}`, settings);
    if (response.statusCode === 200) await t.settle(response);
    return response;
  };
  const get = async (index: string) => (await t.call('GET', `/1/indexes/${index}/settings`)).json();
  const ids = async (index: string, body: unknown = {}) => (await t.call('POST', `/1/indexes/${index}/query`, body)).json().hits.map((h: { objectID: string }) => h.objectID);

  beforeAll(async () => {
    t = await createTestApp();
    await t.settle(await t.call('POST', '/1/indexes/shop/batch', {
      requests: [
        { action: 'addObject', body: { objectID: 'cheap', name: 'lamp', price: 5, popularity: 1 } },
        { action: 'addObject', body: { objectID: 'mid', name: 'lamp', price: 50, popularity: 3 } },
        { action: 'addObject', body: { objectID: 'dear', name: 'lamp', price: 500, popularity: 2 } },
      ],
    }));
    await put('shop', { customRanking: ['desc(popularity)'], attributesForFaceting: ['price'] });
  });
  afterAll(async () => {
    await t.close();
    expect(t.applyErrors).toEqual([]);
  });

  it('merges partial updates and resets a key with null', async () => {
    await put('shop', { hitsPerPage: 2 });
    expect(await get('shop')).toMatchObject({ hitsPerPage: 2, customRanking: ['desc(popularity)'] });
    await put('shop', { hitsPerPage: null });
    expect((await get('shop')).hitsPerPage).toBe(20);
    expect(await ids('shop')).toEqual(['mid', 'dear', 'cheap']);
  });

  it('creates standard replicas from a copy of the settings and virtual ones inheriting them', async () => {
    await put('shop', { replicas: ['shop_price_asc', 'virtual(shop_virtual)'] });
    expect(await get('shop_price_asc')).toMatchObject({ primary: 'shop', customRanking: ['desc(popularity)'] });
    await put('shop_price_asc', { ranking: ['asc(price)', 'typo', 'words', 'filters', 'proximity', 'attribute', 'exact', 'custom'] });
    expect(await ids('shop_price_asc')).toEqual(['cheap', 'mid', 'dear']);
    await put('shop_virtual', { customRanking: ['desc(price)'] });
    expect(await ids('shop_virtual')).toEqual(['dear', 'mid', 'cheap']);
    // Replicas see the primary's records as soon as they are written: no copy to keep in sync.
    await t.settle(await t.call('PUT', '/1/indexes/shop/new', { name: 'lamp', price: 1, popularity: 0 }));
    expect(await ids('shop_price_asc')).toEqual(['new', 'cheap', 'mid', 'dear']);
    await t.settle(await t.call('DELETE', '/1/indexes/shop/new'));
  });

  it('forwards settings to replicas only when asked', async () => {
    await put('shop', { maxValuesPerFacet: 7 });
    expect((await get('shop_price_asc')).maxValuesPerFacet).toBe(100);
    await put('shop', { maxValuesPerFacet: 8 }, '?forwardToReplicas=true');
    expect((await get('shop_price_asc')).maxValuesPerFacet).toBe(8);
    expect((await get('shop_virtual')).maxValuesPerFacet).toBe(8);
  });

  it('shows list settings as lists, never null: the defaults, or on a replica its primary\'s where it sets none', async () => {
    await put('plain', { hitsPerPage: 5 });
    const plain = await get('plain');
    expect(Object.entries(plain).filter(([, value]) => value === null)).toEqual([]);
    expect(plain).toMatchObject({ searchableAttributes: [], attributesToRetrieve: ['*'], customRanking: [], exactOnSingleWordQuery: 'attribute', alternativesAsExact: ['ignorePlurals', 'singleWordSynonym'] });
    expect(plain).not.toHaveProperty('version');
    // A list the replica sets is its own (customRanking, set above); one it does not set is its primary's.
    expect((await get('shop_virtual')).customRanking).toEqual(['desc(price)']);
    await put('shop', { attributesToSnippet: ['name:3'] });
    expect((await get('shop_virtual')).attributesToSnippet).toEqual(['name:3']);
    expect((await get('shop')).attributesToSnippet).toEqual(['name:3']);
    await put('shop', { attributesToSnippet: null });
    expect((await get('shop_virtual')).attributesToSnippet).toEqual([]);
  });

  it('rejects invalid replica lists', async () => {
    expect((await put('shop', { replicas: ['shop'] })).json().message).toMatch(/own replica/);
    expect((await put('shop', { replicas: ['a', 'a'] })).json().message).toMatch(/listed twice/);
    expect((await put('shop', { replicas: 'a' })).statusCode).toBe(400);
    expect((await put('shop_price_asc', { replicas: ['x'] })).json().message).toMatch(/itself a replica/);
    expect((await put('other', { replicas: ['shop_price_asc'] })).json().message).toMatch(/already a replica of shop/);
  });

  it('keeps settings within the server caps', async () => {
    expect((await put('shop', { paginationLimitedTo: 50_000 })).json().message).toMatch(/paginationLimitedTo.*between 0 and 1000/);
    expect((await put('shop', { hitsPerPage: 5000 })).statusCode).toBe(400);
    expect((await put('shop', { paginationLimitedTo: 500 })).statusCode).toBe(200);
  });

  it('lets the engine reject settings it cannot apply, before logging them', async () => {
    const response = await put('shop', { customRanking: 'desc(popularity)' });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/customRanking/);
  });

  it('reads an empty sortFacetValuesBy as none (count) and refuses a value no search could take', async () => {
    const facets = async (body: Record<string, unknown> = {}) => {
      const response = await t.call('POST', '/1/indexes/facet-order/query', { facets: ['brand'], ...body });
      expect(response.statusCode).toBe(200);
      return Object.keys(response.json().facets.brand);
    };
    const brands = ['Zeta', 'Mu', 'Beta', 'Zeta'];
    await t.settle(await t.call('POST', '/1/indexes/facet-order/batch', { requests: brands.map((brand, i) => ({ action: 'addObject', body: { objectID: String(i), brand } })) }));
    await put('facet-order', { attributesForFaceting: ['brand'], sortFacetValuesBy: 'alpha' });
    // A search's "" leaves the index's order; the index's "" is the default order, by count.
    expect(await facets({ sortFacetValuesBy: '' })).toEqual(['Beta', 'Mu', 'Zeta']);
    expect(await facets({ params: 'sortFacetValuesBy=&facets=brand' })).toEqual(['Beta', 'Mu', 'Zeta']);
    expect((await put('facet-order', { sortFacetValuesBy: '' })).statusCode).toBe(200);
    expect(await facets()).toEqual(['Zeta', 'Beta', 'Mu']);
    expect(await facets({ sortFacetValuesBy: '' })).toEqual(['Zeta', 'Beta', 'Mu']);
    expect(await facets({ sortFacetValuesBy: 'alpha' })).toEqual(['Beta', 'Mu', 'Zeta']);
    // Stored, "bogus" would have made every search of the index a 400.
    const refused = await put('facet-order', { sortFacetValuesBy: 'bogus' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toMatch(/sortFacetValuesBy.*count or alpha/);
    expect(await facets()).toEqual(['Zeta', 'Beta', 'Mu']);
  });

  it('detaches replicas: a standard one keeps a copy of the records, a virtual one is deleted', async () => {
    await put('shop', { replicas: [] });
    expect((await get('shop')).replicas).toBeUndefined();
    expect((await get('shop_price_asc')).primary).toBeUndefined();
    expect(await ids('shop_price_asc')).toEqual(['cheap', 'mid', 'dear']);
    expect((await t.call('GET', '/1/indexes/shop_virtual/settings')).statusCode).toBe(404);
    // Detached, it is a regular index again: writes are accepted and do not touch the former primary.
    await t.settle(await t.call('PUT', '/1/indexes/shop_price_asc/solo', { name: 'lamp', price: 2 }));
    expect(await ids('shop')).not.toContain('solo');
  });

  it('removes a deleted replica from its primary', async () => {
    await put('pair', { replicas: ['pair_a', 'virtual(pair_b)'] });
    await t.settle(await t.call('DELETE', '/1/indexes/pair_a'));
    expect((await get('pair')).replicas).toEqual(['virtual(pair_b)']);
    await t.settle(await t.call('DELETE', '/1/indexes/pair_b'));
    expect((await get('pair')).replicas).toBeUndefined();
  });

  it('detaches the replicas of a deleted primary', async () => {
    await put('base', { replicas: ['base_copy', 'virtual(base_v)'] });
    await t.settle(await t.call('PUT', '/1/indexes/base/r1', { name: 'x' }));
    await t.settle(await t.call('DELETE', '/1/indexes/base'));
    expect(await ids('base_copy')).toEqual(['r1']);
    expect((await t.call('GET', '/1/indexes/base_v/settings')).statusCode).toBe(404);
    expect((await t.call('GET', '/1/indexes/base/settings')).statusCode).toBe(404);
  });
});
