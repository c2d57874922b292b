/**
 * Compatibility with the official `algoliasearch` v5 client (Node build), unchanged except for its hosts: every
 * endpoint the server implements, through the client's own methods and helpers.
 */
import { algoliasearch } from 'algoliasearch';
import type { Algoliasearch } from 'algoliasearch';
import { liteClient } from 'algoliasearch/lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, APP_ID, SEARCH_KEY, securedApiKey, startTestServer } from '../src/test-support.ts';
import type { TestServer } from '../src/test-support.ts';
import { PRODUCTS, SETTINGS } from './catalogue.ts';


describe('algoliasearch v5 against the server', () => {
  let fixture: TestServer;
  let client: Algoliasearch;
  const hosts = () => [{ url: fixture.host, protocol: 'http' as const, accept: 'readWrite' as const }];
  const searchClient = (key: string) => algoliasearch(APP_ID, key, { hosts: hosts() });

  beforeAll(async () => {
    fixture = await startTestServer();
    client = searchClient(ADMIN_KEY);
    const settingsTask = await client.setSettings({ indexName: 'products', indexSettings: SETTINGS });
    await client.waitForTask({ indexName: 'products', taskID: settingsTask.taskID });
    const batches = await client.saveObjects({ indexName: 'products', objects: PRODUCTS, waitForTasks: true });
    expect(batches[0].objectIDs).toEqual(PRODUCTS.map((p) => p.objectID));
  });
  afterAll(() => fixture.close());

  it('searches one index and several, with facets and facetFilters (liteClient, as InstantSearch does)', async () => {
    const lite = liteClient(APP_ID, SEARCH_KEY, { hosts: hosts() });
    const { results } = await lite.search({
      requests: [
        { indexName: 'products', query: 'lamp', facets: ['brand', 'color'], facetFilters: [['brand:Lumio']], hitsPerPage: 10 },
        { indexName: 'products', query: 'lamp', facets: ['brand'], hitsPerPage: 0, page: 0 },
      ],
    });
    const [main, disjunctive] = results as Array<Record<string, unknown>>;
    expect(main).toMatchObject({ nbHits: 2, page: 0, nbPages: 1, hitsPerPage: 10, query: 'lamp', index: 'products', facets: { brand: { Lumio: 2 } } });
    expect(typeof main.processingTimeMS).toBe('number');
    expect(typeof main.params).toBe('string');
    const hits = main.hits as Array<Record<string, unknown>>;
    expect(hits.map((h) => h.objectID).sort()).toEqual(['p1', 'p2']);
    expect(hits[0]._highlightResult).toMatchObject({ name: { matchLevel: 'full', matchedWords: ['lamp'] } });
    expect(disjunctive).toMatchObject({ hits: [], facets: { brand: { Lumio: 2 } } });

    const single = await client.searchSingleIndex({ indexName: 'products', searchParams: { query: 'oak', filters: 'price < 100' } });
    expect(single.hits.map((h) => h.objectID)).toEqual(['p4']);
  });

  it('answers type "facet" requests in a multi-query and searchForFacetValues', async () => {
    const { results } = await client.search({ requests: [{ indexName: 'products', type: 'facet', facet: 'brand', facetQuery: 'nor' }] });
    expect(results[0]).toMatchObject({ facetHits: [{ value: 'Nordhus', count: 2 }] });
    const direct = await client.searchForFacetValues({ indexName: 'products', facetName: 'brand', searchForFacetValuesRequest: { facetQuery: 'lu' } });
    expect(direct.facetHits.map((h) => h.value)).toEqual(['Lumio']);
    expect(direct.facetHits[0].highlighted).toContain('<em>');
  });

  it('returns a queryID with clickAnalytics', async () => {
    const response = await client.searchSingleIndex({ indexName: 'products', searchParams: { query: 'lamp', clickAnalytics: true } });
    expect(response.queryID).toMatch(/^[0-9a-f]{32}$/);
  });

  it('stops after enough matches with stopIfEnoughMatches', async () => {
    const { results } = await client.search({
      requests: [
        { indexName: 'products', query: 'oak', hitsPerPage: 1 },
        { indexName: 'products', query: 'lamp', hitsPerPage: 1 },
      ],
      strategy: 'stopIfEnoughMatches',
    });
    expect((results[0] as { nbHits: number }).nbHits).toBe(2);
    expect((results[1] as { nbHits: number }).nbHits).toBe(0);
  });

  it('browses every record with browseObjects and gets records by ID', async () => {
    const seen: string[] = [];
    await client.browseObjects({ indexName: 'products', browseParams: { hitsPerPage: 2 }, aggregator: (page) => seen.push(...page.hits.map((h) => h.objectID)) });
    expect(seen.sort()).toEqual(PRODUCTS.map((p) => p.objectID).sort());
    expect(await client.getObject({ indexName: 'products', objectID: 'p3', attributesToRetrieve: ['name'] })).toEqual({ objectID: 'p3', name: 'Nordhus oak desk' });
    const many = await client.getObjects({ requests: [{ indexName: 'products', objectID: 'p1' }, { indexName: 'products', objectID: 'missing' }] });
    expect(many.results.map((r) => (r as { objectID?: string } | null)?.objectID ?? null)).toEqual(['p1', null]);
  });

  it('writes single records: add with generated ID, replace, partial update, delete', async () => {
    const added = await client.saveObject({ indexName: 'scratch', body: { name: 'Generated' } });
    await client.waitForTask({ indexName: 'scratch', taskID: added.taskID });
    expect((await client.getObject({ indexName: 'scratch', objectID: added.objectID! })).name).toBe('Generated');

    const replaced = await client.addOrUpdateObject({ indexName: 'scratch', objectID: 'r1', body: { name: 'First', stock: 1, tags: ['a'] } });
    await client.waitForTask({ indexName: 'scratch', taskID: replaced.taskID! });
    const partial = await client.partialUpdateObject({
      indexName: 'scratch',
      objectID: 'r1',
      attributesToUpdate: { stock: { _operation: 'Increment', value: 2 }, tags: { _operation: 'AddUnique', value: 'b' } },
    });
    await client.waitForTask({ indexName: 'scratch', taskID: partial.taskID! });
    expect(await client.getObject({ indexName: 'scratch', objectID: 'r1' })).toEqual({ objectID: 'r1', name: 'First', stock: 3, tags: ['a', 'b'] });

    const noCreate = await client.partialUpdateObject({ indexName: 'scratch', objectID: 'ghost', attributesToUpdate: { name: 'x' }, createIfNotExists: false });
    await client.waitForTask({ indexName: 'scratch', taskID: noCreate.taskID! });
    await expect(client.getObject({ indexName: 'scratch', objectID: 'ghost' })).rejects.toMatchObject({ status: 404 });

    const deleted = await client.deleteObject({ indexName: 'scratch', objectID: 'r1' });
    expect(deleted.deletedAt).toBeTruthy();
    await client.waitForTask({ indexName: 'scratch', taskID: deleted.taskID });
    await expect(client.getObject({ indexName: 'scratch', objectID: 'r1' })).rejects.toMatchObject({ status: 404, message: 'ObjectID does not exist' });
  });

  it('runs the batch helpers: partialUpdateObjects, deleteObjects, chunkedBatch', async () => {
    await client.saveObjects({ indexName: 'helpers', objects: [{ objectID: 'h1', n: 1 }, { objectID: 'h2', n: 1 }, { objectID: 'h3', n: 1 }], waitForTasks: true });
    await client.partialUpdateObjects({ indexName: 'helpers', objects: [{ objectID: 'h1', n: 5 }, { objectID: 'h9', n: 9 }], createIfNotExists: false, waitForTasks: true });
    await client.deleteObjects({ indexName: 'helpers', objectIDs: ['h2'], waitForTasks: true });
    await client.chunkedBatch({ indexName: 'helpers', objects: [{ objectID: 'h4', n: 4 }, { objectID: 'h5', n: 5 }], action: 'updateObject', batchSize: 1, waitForTasks: true });
    const seen: Array<{ objectID: string; n: number }> = [];
    await client.browseObjects<{ n: number }>({ indexName: 'helpers', browseParams: {}, aggregator: (page) => seen.push(...page.hits) });
    expect(seen.map(({ objectID, n }) => ({ objectID, n })).sort((a, b) => a.objectID.localeCompare(b.objectID))).toEqual([
      { objectID: 'h1', n: 5 },
      { objectID: 'h3', n: 1 },
      { objectID: 'h4', n: 4 },
      { objectID: 'h5', n: 5 },
    ]);
  });

  it('batches across indexes, deletes by query and clears', async () => {
    const multi = await client.multipleBatch({
      requests: [
        { action: 'addObject', indexName: 'multi_a', body: { objectID: 'a1', kind: 'keep', price: 5 } },
        { action: 'addObject', indexName: 'multi_a', body: { objectID: 'a2', kind: 'drop', price: 50 } },
        { action: 'updateObject', indexName: 'multi_b', body: { objectID: 'b1' } },
      ],
    });
    expect(Object.keys(multi.taskID).sort()).toEqual(['multi_a', 'multi_b']);
    await client.waitForTask({ indexName: 'multi_a', taskID: multi.taskID.multi_a! });
    const byQuery = await client.deleteBy({ indexName: 'multi_a', deleteByParams: { numericFilters: ['price>10'] } });
    await client.waitForTask({ indexName: 'multi_a', taskID: byQuery.taskID });
    expect((await client.searchSingleIndex({ indexName: 'multi_a' })).hits.map((h) => h.objectID)).toEqual(['a1']);
    const cleared = await client.clearObjects({ indexName: 'multi_b' });
    await client.waitForTask({ indexName: 'multi_b', taskID: cleared.taskID });
    expect((await client.searchSingleIndex({ indexName: 'multi_b' })).nbHits).toBe(0);
  });

  it('replaces all objects atomically (copy settings, batch to a temporary index, move)', async () => {
    await client.replaceAllObjects({ indexName: 'products_copy_src', objects: [{ objectID: 'old' }] });
    const settings = await client.setSettings({ indexName: 'products_copy_src', indexSettings: { customRanking: ['asc(price)'] } });
    await client.waitForTask({ indexName: 'products_copy_src', taskID: settings.taskID });
    await client.replaceAllObjects({ indexName: 'products_copy_src', objects: [{ objectID: 'n1', price: 2 }, { objectID: 'n2', price: 1 }], batchSize: 1 });
    const { hits } = await client.searchSingleIndex({ indexName: 'products_copy_src' });
    expect(hits.map((h) => h.objectID)).toEqual(['n2', 'n1']);
    expect((await client.getSettings({ indexName: 'products_copy_src' })).customRanking).toEqual(['asc(price)']);
    const { items } = await client.listIndices();
    expect(items.some((i) => i.name.startsWith('products_copy_src_tmp'))).toBe(false);
  });

  it('merges settings, resets with null, creates replicas and forwards to them', async () => {
    const set = await client.setSettings({ indexName: 'products', indexSettings: { replicas: ['products_price_asc', 'virtual(products_cheap)'] } });
    await client.waitForTask({ indexName: 'products', taskID: set.taskID });
    const asc = await client.setSettings({ indexName: 'products_price_asc', indexSettings: { ranking: ['asc(price)', 'typo', 'words', 'filters', 'proximity', 'attribute', 'exact', 'custom'] } });
    await client.waitForTask({ indexName: 'products_price_asc', taskID: asc.taskID });
    const { hits } = await client.searchSingleIndex({ indexName: 'products_price_asc', searchParams: { query: 'lamp' } });
    expect(hits.map((h) => h.objectID)).toEqual(['p1', 'p2']);
    const settings = await client.getSettings({ indexName: 'products' });
    expect(settings.replicas).toEqual(['products_price_asc', 'virtual(products_cheap)']);
    expect(settings.attributesForFaceting).toEqual(SETTINGS.attributesForFaceting);
    expect((await client.getSettings({ indexName: 'products_price_asc' })).primary).toBe('products');

    const forwarded = await client.setSettings({ indexName: 'products', indexSettings: { maxValuesPerFacet: 50 }, forwardToReplicas: true });
    await client.waitForTask({ indexName: 'products', taskID: forwarded.taskID });
    expect((await client.getSettings({ indexName: 'products_cheap' })).maxValuesPerFacet).toBe(50);
    const reset = await client.setSettings({ indexName: 'products', indexSettings: { maxValuesPerFacet: null as unknown as number } });
    await client.waitForTask({ indexName: 'products', taskID: reset.taskID });
    expect((await client.getSettings({ indexName: 'products' })).maxValuesPerFacet).toBe(100);

    await expect(client.saveObject({ indexName: 'products_price_asc', body: { objectID: 'x' } })).rejects.toMatchObject({ status: 400 });
    const { items } = await client.listIndices();
    const primary = items.find((i) => i.name === 'products')!;
    expect(primary).toMatchObject({ entries: 5, replicas: ['products_price_asc', 'virtual(products_cheap)'] });
    expect(items.find((i) => i.name === 'products_cheap')).toMatchObject({ virtual: true, primary: 'products', entries: 5 });
  });

  it('copies and moves indexes, and deletes them', async () => {
    const copy = await client.operationIndex({ indexName: 'products', operationIndexParams: { operation: 'copy', destination: 'products_backup' } });
    await client.waitForTask({ indexName: 'products', taskID: copy.taskID });
    expect((await client.searchSingleIndex({ indexName: 'products_backup' })).nbHits).toBe(5);
    expect((await client.getSettings({ indexName: 'products_backup' })).replicas).toBeUndefined();
    const move = await client.operationIndex({ indexName: 'products_backup', operationIndexParams: { operation: 'move', destination: 'products_moved' } });
    await client.waitForTask({ indexName: 'products_backup', taskID: move.taskID });
    expect(await client.indexExists({ indexName: 'products_backup' })).toBe(false);
    expect((await client.searchSingleIndex({ indexName: 'products_moved' })).nbHits).toBe(5);
    const deleted = await client.deleteIndex({ indexName: 'products_moved' });
    await client.waitForTask({ indexName: 'products_moved', taskID: deleted.taskID });
    await expect(client.searchSingleIndex({ indexName: 'products_moved' })).rejects.toMatchObject({ status: 404, message: 'Index does not exist' });
  });

  it('manages synonyms', async () => {
    const saved = await client.saveSynonym({ indexName: 'products', objectID: 'syn1', synonymHit: { objectID: 'syn1', type: 'synonym', synonyms: ['lamp', 'light'] } });
    await client.waitForTask({ indexName: 'products', taskID: saved.taskID });
    expect(await client.getSynonym({ indexName: 'products', objectID: 'syn1' })).toEqual({ objectID: 'syn1', type: 'synonym', synonyms: ['lamp', 'light'] });
    expect((await client.searchSingleIndex({ indexName: 'products', searchParams: { query: 'light' } })).nbHits).toBe(2);
    const browsed: string[] = [];
    await client.browseSynonyms({ indexName: 'products', aggregator: (page) => browsed.push(...page.hits.map((h) => h.objectID)) });
    expect(browsed).toEqual(['syn1']);
    const batch = await client.saveSynonyms({
      indexName: 'products',
      synonymHit: [{ objectID: 'syn2', type: 'onewaysynonym', input: 'desk', synonyms: ['table'] }],
      replaceExistingSynonyms: true,
    });
    await client.waitForTask({ indexName: 'products', taskID: batch.taskID });
    const found = await client.searchSynonyms({ indexName: 'products' });
    expect(found.hits.map((h) => h.objectID)).toEqual(['syn2']);
    expect(found.nbHits).toBe(1);
    const deleted = await client.deleteSynonym({ indexName: 'products', objectID: 'syn2' });
    await client.waitForTask({ indexName: 'products', taskID: deleted.taskID });
    await expect(client.getSynonym({ indexName: 'products', objectID: 'syn2' })).rejects.toMatchObject({ status: 404 });
    const cleared = await client.clearSynonyms({ indexName: 'products' });
    await client.waitForTask({ indexName: 'products', taskID: cleared.taskID });
    expect((await client.searchSynonyms({ indexName: 'products' })).nbHits).toBe(0);
  });

  it('manages API keys and enforces their restrictions', async () => {
    const created = await client.addApiKey({ acl: ['search'], indexes: ['products*'], maxHitsPerQuery: 1, description: 'shop' });
    await client.waitForApiKey({ operation: 'add', key: created.key });
    expect(await client.getApiKey({ key: created.key })).toMatchObject({ value: created.key, acl: ['search'], indexes: ['products*'], description: 'shop' });
    const restricted = searchClient(created.key);
    expect((await restricted.searchSingleIndex({ indexName: 'products', searchParams: { query: 'lamp' } })).hits).toHaveLength(1);
    await expect(restricted.searchSingleIndex({ indexName: 'scratch' })).rejects.toMatchObject({ status: 403, message: 'Index not allowed with this API key' });
    await expect(restricted.setSettings({ indexName: 'products', indexSettings: {} })).rejects.toMatchObject({ status: 403 });

    const update = { acl: ['search' as const, 'browse' as const], description: 'updated' };
    await client.updateApiKey({ key: created.key, apiKey: update });
    await client.waitForApiKey({ operation: 'update', key: created.key, apiKey: update });
    const { keys } = await client.listApiKeys();
    expect(keys.find((k) => k.description === 'updated')).toBeTruthy();

    await client.deleteApiKey({ key: created.key });
    await client.waitForApiKey({ operation: 'delete', key: created.key });
    await expect(restricted.searchSingleIndex({ indexName: 'products' })).rejects.toMatchObject({ status: 403 });
    await client.restoreApiKey({ key: created.key });
    expect((await restricted.searchSingleIndex({ indexName: 'products' })).nbHits).toBe(5);
  });

  it('honours secured API keys generated by the client: forced filters cannot be widened', async () => {
    const securedKey = securedApiKey(SEARCH_KEY, {
      filters: 'brand:Lumio',
      restrictIndices: ['products', 'products_price_asc'],
      validUntil: Math.floor(Date.now() / 1000) + 3600,
    });
    const secured = searchClient(securedKey);
    const all = await secured.searchSingleIndex({ indexName: 'products', searchParams: { query: '' } });
    expect(all.hits.map((h) => h.objectID).sort()).toEqual(['p1', 'p2']);
    const widened = await secured.searchSingleIndex({ indexName: 'products', searchParams: { filters: 'brand:Lumio OR brand:Apple' } });
    expect(widened.hits.map((h) => h.objectID).sort()).toEqual(['p1', 'p2']);
    const disjoint = await secured.searchSingleIndex({ indexName: 'products', searchParams: { facetFilters: ['brand:Apple'] } });
    expect(disjoint.hits.map((h) => h.objectID)).toEqual([]);
    await expect(secured.searchSingleIndex({ indexName: 'scratch' })).rejects.toMatchObject({ status: 403 });

    const expired = searchClient(securedApiKey(SEARCH_KEY, { validUntil: Math.floor(Date.now() / 1000) - 10 }));
    await expect(expired.searchSingleIndex({ indexName: 'products' })).rejects.toMatchObject({ status: 403 });
    const forged = searchClient(securedApiKey('not-the-search-key', {}));
    await expect(forged.searchSingleIndex({ indexName: 'products' })).rejects.toMatchObject({ status: 403 });
    // A key too large to be cached is verified on each request, with the same restrictions, every time.
    const longFilters = `brand:Lumio AND NOT ${Array.from({ length: 150 }, (_, i) => `color:shade${i}`).join(' AND NOT ')}`;
    const long = searchClient(securedApiKey(SEARCH_KEY, { filters: longFilters }));
    for (let i = 0; i < 2; i++) {
      const hits = await long.searchSingleIndex({ indexName: 'products', searchParams: { query: '' } });
      expect(hits.hits.map((h) => h.objectID).sort()).toEqual(['p1', 'p2']);
    }
  });

  it('reports task status for any index', async () => {
    const task = await client.saveObject({ indexName: 'scratch', body: { objectID: 't1' } });
    await client.waitForTask({ indexName: 'scratch', taskID: task.taskID });
    expect(await client.getTask({ indexName: 'scratch', taskID: task.taskID })).toMatchObject({ status: 'published' });
  });

  it('accepts insights events through the insights client', async () => {
    const insights = client.initInsights({ region: 'us', options: { hosts: hosts() } });
    const response = await insights.pushEvents({
      events: [{ eventType: 'view', eventName: 'Product Viewed', index: 'products', userToken: 'user-1', objectIDs: ['p1'] }],
    });
    expect(response).toMatchObject({ status: 200, message: 'OK' });
    expect(fixture.server.insights.listEvents().at(-1)!.event).toMatchObject({ eventName: 'Product Viewed', objectIDs: ['p1'] });
  });
});
