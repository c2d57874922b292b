/**
 * Query categorization over a socket: clicks and purchases after searches for "lamp" land on lighting products;
 * after a model build, a search asking for `extensions.queryCategorization` gets Algolia's shape (normalised
 * query, count, type, categories with bins and hierarchy paths, autofiltering), and the automatic boost, asked per
 * search or by the index's `queryCategorizationAutoFiltering` setting, puts the category's records first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_KEY, startTestServer, waitUntil } from '../../src/test-support.ts';
import type { TestServer } from '../../src/test-support.ts';

const category = (lvl0: string, lvl1: string) => ({ lvl0, lvl1: `${lvl0} > ${lvl1}` });
// Ten lamps: the first five toys (a lamp-shaped night light set), the last five lighting.
const records = Array.from({ length: 10 }, (_, i) => ({
  objectID: `l${i}`, name: `lamp ${i}`, popularity: 10 - i,
  hierarchicalCategories: i < 5 ? category('Toys', 'Night lights') : category('Home', 'Lighting'),
}));

describe('query categorization over HTTP', () => {
  let t: TestServer;
  const lamp = async (params: Record<string, unknown>) => {
    const { status, body } = await t.call('POST', '/1/indexes/shop/query', { query: 'lamp', ...params }, SEARCH_KEY);
    expect(status).toBe(200);
    return body;
  };
  const retrieve = { extensions: { queryCategorization: { enableCategoriesRetrieval: true } } };

  beforeAll(async () => {
    t = await startTestServer({
      config: { insights: { modelRebuildIntervalMs: 0, suggestionsRebuildIntervalMs: 0 } },
      index: { name: 'shop', settings: { searchableAttributes: ['name'], attributesForFaceting: ['hierarchicalCategories.lvl0', 'hierarchicalCategories.lvl1'], customRanking: ['desc(popularity)'] }, records },
    });
    const events: Array<Record<string, unknown>> = [];
    for (let i = 0; i < 12; i++) {
      const userToken = `shopper-${i}`;
      const { body } = await t.call('POST', '/1/indexes/shop/query', { query: 'lamp', clickAnalytics: true, userToken }, SEARCH_KEY);
      const objectID = i === 0 ? 'l0' : `l${5 + (i % 5)}`;
      const position = body.hits.findIndex((hit: { objectID: string }) => hit.objectID === objectID) + 1;
      events.push({ eventType: 'click', eventName: 'Hit Clicked', index: 'shop', userToken, queryID: body.queryID, objectIDs: [objectID], positions: [position] });
      if (i % 3 === 1) events.push({ eventType: 'conversion', eventSubtype: 'purchase', eventName: 'Purchased', index: 'shop', userToken, queryID: body.queryID, objectIDs: [objectID] });
    }
    expect((await t.call('POST', '/1/events', { events }, SEARCH_KEY)).status).toBe(200);
    await t.server.insights.settleSearches();
    expect((await t.call('POST', '/1/vitrine/recommend/build', {})).status).toBe(200);
    // Categories are read from the records after the build, in the background.
    await waitUntil(async () => (await lamp(retrieve)).extensions?.queryCategorization?.type === 'narrow');
  });
  afterAll(() => t?.close());

  it('answers the categories a query leads to in Algolia\'s shape, only when asked', async () => {
    const body = await lamp({ ...retrieve, query: ' Lamp' });
    // Engagement: 11 clicks + 4 purchases × 2 on lighting, 1 click on a toy: Home 19 / 20, Home > Lighting 19 / 20.
    expect(body.extensions).toEqual({
      queryCategorization: {
        normalizedQuery: 'lamp', count: expect.any(Number), type: 'narrow',
        categories: [{ bin: 'certain', hierarchyPath: [
          { facetName: 'hierarchicalCategories.lvl0', facetValue: 'Home', depth: 0 },
          { facetName: 'hierarchicalCategories.lvl1', facetValue: 'Home > Lighting', depth: 1 },
        ] }],
        autofiltering: { enabled: false },
      },
    });
    expect(body.extensions.queryCategorization.count).toBeGreaterThanOrEqual(12);
    expect((await lamp({})).extensions).toBeUndefined();
    expect((await lamp({ ...retrieve, query: 'unknown words' })).extensions).toEqual({ queryCategorization: {} });
  });

  it('boosts the predicted category when asked per search, or by the index setting; never filters', async () => {
    const plain = await lamp({ hitsPerPage: 10 });
    expect(plain.hits[0].objectID).toBe('l0');
    const boosted = await lamp({ hitsPerPage: 10, extensions: { queryCategorization: { enableCategoriesRetrieval: true, enableAutoFiltering: true } } });
    expect(boosted.hits.map((hit: { objectID: string }) => hit.objectID)).toEqual(['l5', 'l6', 'l7', 'l8', 'l9', 'l0', 'l1', 'l2', 'l3', 'l4']);
    expect(boosted.nbHits).toBe(plain.nbHits);
    expect(boosted.extensions.queryCategorization.autofiltering).toEqual({ enabled: true, maxDepth: 2, facetFilters: ['hierarchicalCategories.lvl1:Home > Lighting'] });
    const { body } = await t.call('PUT', '/1/indexes/shop/settings', { queryCategorizationAutoFiltering: true });
    await t.server.store.waitForTask(body.taskID);
    expect((await lamp({ hitsPerPage: 10 })).hits[0].objectID).toBe('l5');
    // A search turning it off wins over the setting.
    expect((await lamp({ hitsPerPage: 10, extensions: { queryCategorization: { enableAutoFiltering: false } } })).hits[0].objectID).toBe('l0');
    expect((await t.call('PUT', '/1/indexes/shop/settings', { queryCategorizationAutoFiltering: 'on' })).status).toBe(400);
  });
});
