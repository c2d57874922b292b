/**
 * Hybrid search through the official clients, unchanged: `vector`, `hybrid` and `retrieveVectors` travel as
 * unknown search parameters (v5's JSON fields, InstantSearch's liteClient, v4's params string), and records'
 * `_vectors` as a record attribute. Over a real server with a search thread: filters, facets over the merged
 * set, a rule (pin and hide), a secured key's filters and distinct apply to vector hits as to keyword hits;
 * `_rankingInfo` shows both ranks; bad input (wrong dimensions, NaN, unknown embedder, an index without
 * embedders) answers 400 with Algolia's body and applies nothing.
 */
import { algoliasearch, type Algoliasearch, type SearchResponse } from 'algoliasearch';
import { liteClient } from 'algoliasearch/lite';
import algoliasearchV4 from 'algoliasearch-v4';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, APP_ID, SEARCH_KEY, securedApiKey, startTestServer, type TestServer } from '../src/test-support.ts';

/** Unit vectors on a circle (third dimension 0): the angle to the query orders them. */
const at = (degrees: number) => [Math.cos((degrees * Math.PI) / 180), Math.sin((degrees * Math.PI) / 180), 0];
const records = [
  { objectID: 'k1', name: 'coffee mug', brand: 'acme', model: 'm1', _vectors: { look: at(80) } },
  { objectID: 'k2', name: 'coffee cup', brand: 'bolt', model: 'm2', _vectors: { look: at(60) } },
  { objectID: 'k3', name: 'coffee pot', brand: 'acme', model: 'm3' },
  { objectID: 'v1', name: 'thermos flask', brand: 'bolt', model: 'm1', _vectors: { look: at(0) } },
  { objectID: 'v2', name: 'travel bottle', brand: 'acme', model: 'm4', _vectors: { look: at(10) } },
  { objectID: 'v3', name: 'lunch box', brand: 'cosy', model: 'm5', _vectors: { look: at(20) } },
];
const hybrid = { query: 'coffee', vector: at(0), hybrid: { embedder: 'look', semanticRatio: 0.5 } };
const ids = (response: { hits: Array<{ objectID: string }> }) => response.hits.map((hit) => hit.objectID);

describe('hybrid search through the official clients', () => {
  let fixture: TestServer;
  let client: Algoliasearch;
  const hosts = () => [{ url: fixture.host, protocol: 'http' as const, accept: 'readWrite' as const }];
  const connect = (key: string) => algoliasearch(APP_ID, key, { hosts: hosts() });
  // The extension's parameters are not in the clients' types: they pass as unknown keys.
  const search = (key: string, params: Record<string, unknown>) => connect(key).searchSingleIndex({ indexName: 'catalog', searchParams: params as never }) as Promise<SearchResponse<Record<string, unknown>>>;
  const refusal = async (promise: Promise<unknown>) => promise.then(() => ({ status: 200, message: '' }), (error: { status: number; message: string }) => ({ status: error.status, message: error.message }));

  beforeAll(async () => {
    fixture = await startTestServer({ config: { searchThreads: 1 } });
    // A thread starting on a loaded machine can take longer than the client's timeouts: searches wait for it.
    await fixture.server.app.searchThreads?.whenReady();
    client = connect(ADMIN_KEY);
    const settings = await client.setSettings({
      indexName: 'catalog',
      indexSettings: { searchableAttributes: ['name'], attributesForFaceting: ['brand', 'model'], embedders: { look: { source: 'userProvided', dimensions: 3 } } } as never,
    });
    await client.waitForTask({ indexName: 'catalog', taskID: settings.taskID });
    await client.saveObjects({ indexName: 'catalog', objects: records, waitForTasks: true });
  });
  afterAll(() => fixture.close());

  it('merges keyword and vector hits (v5), ranks and scores in _rankingInfo, vectors only when asked', async () => {
    const response = await search(SEARCH_KEY, { ...hybrid, getRankingInfo: true });
    // Weighted reciprocal ranks at 0.5: k1 and k2 are in both lists; then v1, v2 (vectors), k3 and v3 tied.
    expect(ids(response)).toEqual(['k1', 'k2', 'v1', 'v2', 'k3', 'v3']);
    expect(response.nbHits).toBe(6);
    expect(response.hits[0]._rankingInfo).toMatchObject({ keywordRank: 1, semanticRank: 5, hybridScore: 0.5 / 61 + 0.5 / 65 });
    expect(response.hits[2]._rankingInfo).toMatchObject({ semanticRank: 1, semanticScore: 1 });
    expect(response.hits[0]).not.toHaveProperty('_vectors');
    const withVectors = await search(SEARCH_KEY, { ...hybrid, retrieveVectors: true, hitsPerPage: 1 });
    // Kept as float32: each number reads back as the float32 of what was sent.
    expect((withVectors.hits[0]._vectors as { look: number[] }).look.map(Math.fround)).toEqual(at(80).map(Math.fround));
    expect((await client.getObject({ indexName: 'catalog', objectID: 'v1' }))._vectors).toEqual({ look: [1, 0, 0] });
  });

  it('applies filters and counts facets over the merged set (liteClient, as InstantSearch sends it)', async () => {
    const lite = liteClient(APP_ID, SEARCH_KEY, { hosts: hosts() });
    const { results } = await lite.search({
      requests: [
        { indexName: 'catalog', ...hybrid, facets: ['brand'], facetFilters: [['brand:acme', 'brand:bolt']] } as never,
        { indexName: 'catalog', ...hybrid, facets: ['brand'], hitsPerPage: 0 } as never,
      ],
    });
    const [refined, counts] = results as Array<SearchResponse<Record<string, unknown>>>;
    expect(ids(refined)).toEqual(['k1', 'k2', 'v1', 'v2', 'k3']);
    expect(refined.facets).toEqual({ brand: { acme: 3, bolt: 2 } });
    expect(counts.facets).toEqual({ brand: { acme: 3, bolt: 2, cosy: 1 } });
    expect(counts.nbHits).toBe(6);
  });

  it('keeps a secured key\'s filters on vector hits too', async () => {
    const key = securedApiKey(SEARCH_KEY, { filters: 'NOT brand:bolt' });
    const response = await search(key, { ...hybrid, hybrid: { semanticRatio: 1 } });
    expect(ids(response)).toEqual(['v2', 'v3', 'k1']);
  });

  it('follows a rule: a hidden record is no hit, a pinned one takes its place', async () => {
    const task = await client.saveRule({
      indexName: 'catalog',
      objectID: 'thermos-first',
      rule: { objectID: 'thermos-first', conditions: [{ pattern: 'coffee', anchoring: 'contains' }], consequence: { promote: [{ objectID: 'v3', position: 0 }], hide: [{ objectID: 'v1' }] } },
    });
    await client.waitForTask({ indexName: 'catalog', taskID: task.taskID });
    const response = await search(SEARCH_KEY, hybrid);
    expect(ids(response)).toEqual(['v3', 'k1', 'k2', 'v2', 'k3']);
    expect(response.nbHits).toBe(5);
    await client.waitForTask({ indexName: 'catalog', taskID: (await client.deleteRule({ indexName: 'catalog', objectID: 'thermos-first' })).taskID });
  });

  it('keeps one hit per distinct group in the merged order', async () => {
    const response = await search(SEARCH_KEY, { ...hybrid, distinct: 1, attributeForDistinct: 'model' });
    expect(ids(response)).toEqual(ids(await search(SEARCH_KEY, hybrid)));
    const settings = await client.setSettings({ indexName: 'catalog', indexSettings: { attributeForDistinct: 'model' } });
    await client.waitForTask({ indexName: 'catalog', taskID: settings.taskID });
    expect(ids(await search(SEARCH_KEY, { ...hybrid, distinct: true }))).toEqual(['k1', 'k2', 'v2', 'k3', 'v3']);
    await client.waitForTask({ indexName: 'catalog', taskID: (await client.setSettings({ indexName: 'catalog', indexSettings: { attributeForDistinct: null } as never })).taskID });
  });

  it('passes the parameters in v4\'s params string too', async () => {
    const v4 = algoliasearchV4(APP_ID, SEARCH_KEY, { hosts: [{ url: fixture.host, protocol: 'http', accept: 3 }] } as never);
    const response = await v4.initIndex('catalog').search<Record<string, unknown>>('coffee', { vector: at(0), hybrid: { semanticRatio: 1 }, retrieveVectors: true, hitsPerPage: 1 } as never);
    expect(ids(response)).toEqual(['v1']);
    expect(response.hits[0]._vectors).toEqual({ look: [1, 0, 0] });
  });

  it('refuses bad input with 400 and applies nothing', async () => {
    const searches: Array<[Record<string, unknown>, RegExp]> = [
      [{ vector: [1, 0] }, /expected 3 numbers, got 2/],
      [{ vector: [1, Number.NaN, 0] }, /element 1 is not a finite number \(null\)/],
      [{ vector: at(0), hybrid: { embedder: 'text' } }, /no embedder "text"/],
      [{ query: 'coffee', hybrid: { embedder: 'look' } }, /userProvided: send the query's vector/],
    ];
    for (const [params, message] of searches) {
      const { status, message: text } = await refusal(search(SEARCH_KEY, params));
      expect(status, JSON.stringify(params)).toBe(400);
      expect(text).toMatch(message);
    }
    const writes: Array<[unknown, RegExp]> = [
      [{ look: [1, 2] }, /_vectors\.look: expected 3 numbers, got 2/],
      [{ look: [1, Number.NaN, 2] }, /element 1 is not a finite number/],
      [{ text: [1, 2, 3] }, /no embedder of this name/],
    ];
    for (const [vectors, message] of writes) {
      const { status, message: text } = await refusal(client.batch({ indexName: 'catalog', batchWriteParams: { requests: [{ action: 'addObject', body: { objectID: 'new-ok', name: 'fine' } }, { action: 'addObject', body: { objectID: 'new-bad', _vectors: vectors } }] } }));
      expect(status).toBe(400);
      expect(text).toMatch(/Invalid record at the position 1/);
      expect(text).toMatch(message);
    }
    // Infinity is no JSON number, but 1e400 parses to it.
    const infinite = await fetch(`${fixture.url}/1/indexes/catalog/batch`, {
      method: 'POST',
      headers: { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': ADMIN_KEY },
      body: '{"requests":[{"action":"addObject","body":{"objectID":"inf","_vectors":{"look":[1e400,0,0]}}}]}',
    });
    expect(infinite.status).toBe(400);
    expect(((await infinite.json()) as { message: string }).message).toMatch(/element 0 is not a finite number/);
    const plain = await refusal(client.saveObject({ indexName: 'no-embedders', body: { objectID: 'x', _vectors: { look: [1, 0, 0] } } }));
    expect(plain).toMatchObject({ status: 400, message: expect.stringMatching(/the index has no embedders/) });
    expect((await search(SEARCH_KEY, { query: 'fine' })).nbHits).toBe(0);
  });
});
