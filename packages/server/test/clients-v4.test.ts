/**
 * Compatibility with the official `algoliasearch` v4 client (installed as `algoliasearch-v4`), which sends
 * search parameters as a url-encoded `params` string and lists as JSON inside it.
 */
import algoliasearchV4 from 'algoliasearch-v4';
import type { SearchClient, SearchIndex } from 'algoliasearch-v4';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, APP_ID, SEARCH_KEY, startTestServer } from '../src/test-support.ts';
import type { TestServer } from '../src/test-support.ts';
import { PRODUCTS, SETTINGS } from './catalogue.ts';

describe('algoliasearch v4 against the server', () => {
  let fixture: TestServer;
  let client: SearchClient;
  let index: SearchIndex;
  const connect = (key: string) => algoliasearchV4(APP_ID, key, { hosts: [{ url: fixture.host, protocol: 'http' }] });

  beforeAll(async () => {
    fixture = await startTestServer();
    client = connect(ADMIN_KEY);
    index = client.initIndex('products');
    await index.setSettings(SETTINGS).wait();
    await index.saveObjects(PRODUCTS).wait();
  });
  afterAll(() => fixture.close());

  it('searches with params strings: facets, JSON facetFilters, numeric filters, pagination', async () => {
    const response = await index.search('lamp', { facets: ['brand', 'color'], facetFilters: [['brand:Lumio', 'brand:Apple']], numericFilters: ['price<=100'], hitsPerPage: 1 });
    expect(response).toMatchObject({ nbHits: 1, page: 0, nbPages: 1, hitsPerPage: 1, query: 'lamp', facets: { brand: { Lumio: 1 } } });
    expect(response.hits[0].objectID).toBe('p1');
    const { results } = await client.multipleQueries([
      { indexName: 'products', query: 'oak', params: { facets: ['brand'], attributesToRetrieve: ['name'] } },
      { indexName: 'products', query: 'keyboard' },
    ]);
    const [oak, keyboard] = results as Array<{ nbHits: number; hits: Array<Record<string, unknown>> }>;
    expect([oak.nbHits, keyboard.nbHits]).toEqual([2, 1]);
    expect(Object.keys(oak.hits[0]).filter((k) => !k.startsWith('_')).sort()).toEqual(['name', 'objectID']);
  });

  it('searches facet values and browses every record', async () => {
    const { facetHits } = await index.searchForFacetValues('brand', 'nord');
    expect(facetHits).toMatchObject([{ value: 'Nordhus', count: 2 }]);
    const seen: string[] = [];
    await index.browseObjects({ query: '', hitsPerPage: 2, batch: (hits) => seen.push(...hits.map((h) => h.objectID)) });
    expect(seen.sort()).toEqual(PRODUCTS.map((p) => p.objectID).sort());
  });

  it('reads and writes records', async () => {
    const scratch = client.initIndex('v4_scratch');
    const { objectID } = await scratch.saveObject({ name: 'auto' }, { autoGenerateObjectIDIfNotExist: true }).wait();
    expect((await scratch.getObject<{ name: string }>(objectID)).name).toBe('auto');
    await scratch.saveObject({ objectID: 'k', count: 1 }).wait();
    await scratch.partialUpdateObject({ objectID: 'k', count: { _operation: 'Decrement', value: 3 } }).wait();
    expect(await scratch.getObject('k')).toEqual({ objectID: 'k', count: -2 });
    const { results } = await scratch.getObjects(['k', 'nope']);
    expect(results.map((r) => (r ? r.objectID : null))).toEqual(['k', null]);
    await scratch.deleteObject('k').wait();
    await expect(scratch.getObject('k')).rejects.toMatchObject({ status: 404 });
    await scratch.deleteBy({ filters: 'name:auto' }).wait();
    expect((await scratch.search('')).nbHits).toBe(0);
  });

  it('replaces all objects safely, copies, moves and deletes indexes', async () => {
    const target = client.initIndex('v4_replace');
    await target.saveObjects([{ objectID: 'old' }]).wait();
    await target.setSettings({ customRanking: ['desc(rank)'] }).wait();
    await target.replaceAllObjects([{ objectID: 'a', rank: 1 }, { objectID: 'b', rank: 2 }], { safe: true });
    expect((await target.search('')).hits.map((h) => h.objectID)).toEqual(['b', 'a']);
    expect((await target.getSettings()).customRanking).toEqual(['desc(rank)']);

    await client.copyIndex('v4_replace', 'v4_copy').wait();
    expect((await client.initIndex('v4_copy').search('')).nbHits).toBe(2);
    await client.moveIndex('v4_copy', 'v4_moved').wait();
    expect(await client.initIndex('v4_copy').exists()).toBe(false);
    await client.initIndex('v4_moved').delete().wait();
    const { items } = await client.listIndices();
    expect(items.map((i) => i.name)).not.toContain('v4_moved');
    expect(items.find((i) => i.name === 'products')).toMatchObject({ entries: 5 });
  });

  it('manages synonyms and settings with forwardToReplicas', async () => {
    await index.setSettings({ replicas: ['products_v4_desc'] }).wait();
    await client.initIndex('products_v4_desc').setSettings({ ranking: ['desc(price)', 'typo', 'words', 'filters', 'proximity', 'attribute', 'exact', 'custom'] }).wait();
    expect((await client.initIndex('products_v4_desc').search('oak')).hits.map((h) => h.objectID)).toEqual(['p3', 'p4']);
    await index.saveSynonym({ objectID: 'kb', type: 'synonym', synonyms: ['keyboard', 'keypad'] }, { forwardToReplicas: true }).wait();
    expect((await index.search('keypad')).nbHits).toBe(1);
    expect(await client.initIndex('products_v4_desc').getSynonym('kb')).toMatchObject({ objectID: 'kb' });
    const { hits } = await index.searchSynonyms('keypad');
    expect(hits.map((h) => h.objectID)).toEqual(['kb']);
    await index.clearSynonyms().wait();
    expect((await index.searchSynonyms('')).nbHits).toBe(0);
  });

  it('manages API keys and honours secured keys generated by v4 (JSON lists)', async () => {
    const { key } = await client.addApiKey(['search'], { indexes: ['products'], description: 'v4' }).wait();
    expect(await client.getApiKey(key)).toMatchObject({ value: key, acl: ['search'], description: 'v4' });
    const limited = connect(key);
    expect((await limited.initIndex('products').search('lamp')).nbHits).toBe(2);
    await expect(limited.initIndex('v4_scratch').search('')).rejects.toMatchObject({ status: 403 });
    await client.deleteApiKey(key).wait();

    const securedKey = client.generateSecuredApiKey(SEARCH_KEY, { filters: 'price > 95', restrictIndices: ['products'] });
    const secured = connect(securedKey).initIndex('products');
    const { hits } = await secured.search('', { numericFilters: ['price < 1000'] });
    expect(hits.map((h) => h.objectID).sort()).toEqual(['p2', 'p3', 'p5']);
    await expect(connect(securedKey).initIndex('v4_replace').search('')).rejects.toMatchObject({ status: 403 });
  });

  it('batches across indexes, reads many records, clears, and manages synonym sets and keys', async () => {
    const { taskID, objectIDs } = await client.multipleBatch([
      { action: 'addObject', indexName: 'v4_multi_a', body: { objectID: 'a1', n: 1 } },
      { action: 'addObject', indexName: 'v4_multi_b', body: { objectID: 'b1', n: 2 } },
    ]).wait();
    expect(Object.keys(taskID).sort()).toEqual(['v4_multi_a', 'v4_multi_b']);
    expect(objectIDs).toEqual(['a1', 'b1']);
    const { results } = await client.multipleGetObjects([
      { indexName: 'v4_multi_a', objectID: 'a1' },
      { indexName: 'v4_multi_b', objectID: 'b1', attributesToRetrieve: ['objectID'] },
    ]);
    expect(results).toEqual([{ objectID: 'a1', n: 1 }, { objectID: 'b1' }]);
    const multiA = client.initIndex('v4_multi_a');
    await multiA.clearObjects().wait();
    expect((await multiA.search('')).nbHits).toBe(0);

    await multiA.saveSynonyms([{ objectID: 's1', type: 'synonym', synonyms: ['a', 'b'] }, { objectID: 's2', type: 'altCorrection1', word: 'lamp', corrections: ['lmp'] }]).wait();
    expect(await multiA.getSynonym('s2')).toEqual({ objectID: 's2', type: 'altcorrection1', word: 'lamp', corrections: ['lmp'] });
    await multiA.saveSynonyms([{ objectID: 's3', type: 'placeholder', placeholder: '<size>', replacements: ['small', 'large'] }], { replaceExistingSynonyms: true }).wait();
    expect((await multiA.searchSynonyms('')).hits.map((h) => h.objectID)).toEqual(['s3']);
    await multiA.deleteSynonym('s3').wait();
    await expect(multiA.getSynonym('s3')).rejects.toMatchObject({ status: 404 });

    const { key } = await client.addApiKey(['search'], { description: 'to update' }).wait();
    await client.updateApiKey(key, { acl: ['search', 'browse'], maxHitsPerQuery: 3 }).wait();
    expect(await client.getApiKey(key)).toMatchObject({ acl: ['search', 'browse'], maxHitsPerQuery: 3, description: 'to update' });
    expect((await client.listApiKeys()).keys.some((k) => k.description === 'to update')).toBe(true);
    await client.deleteApiKey(key).wait();
    await client.restoreApiKey(key).wait();
    // Restored with its updated ACL: browsing now works with it.
    let browsed = 0;
    await connect(key).initIndex('products').browseObjects({ batch: (hits) => (browsed += hits.length) });
    expect(browsed).toBe(5);
  });
});
