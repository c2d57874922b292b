/**
 * The index's `hybrid` setting (the default of searches that send neither `hybrid` nor `vector`), over a real
 * server and the loopback test embedder (`fixtures/embedder-server.ts`):
 * - unset, a search without `hybrid` is the keyword search, answered as Algolia answers it;
 * - set, single-index and multi-query searches without `hybrid` are hybrid; a search's own `hybrid` wins;
 * - a setting naming no embedder of the index leaves searches keyword searches; a malformed one is a 400;
 * - the embedder down: searches relying on the setting answer by their keywords (and for a while do not ask
 *   the embedder at all), while a search asking for `hybrid` itself answers 503.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_KEY, startTestServer, waitUntil as until, type TestServer } from '../src/test-support.ts';
import { restEmbedderSettings, startTestEmbedder, type TestEmbedder } from './fixtures/embedder-server.ts';

const DIMS = 32;
const LIMITS = { embedderQueryTimeoutMs: 400, embedderQueryAttempts: 2, embedderRetryMaxMs: 300 };
const products = [
  { objectID: 't1', name: 'Steel thermos flask', brand: 'Kelvo' },
  { objectID: 's1', name: 'Compact two-seat sofa', brand: 'Sitwell' },
  { objectID: 'l1', name: 'Oak reading lamp', brand: 'Lumio' },
];

describe('the hybrid setting', () => {
  let fixture: TestServer;
  let embedder: TestEmbedder;
  const settings = async (body: Record<string, unknown>) => {
    const answer = await fixture.call('PUT', '/1/indexes/shop/settings', body);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    await until(async () => (await fixture.call('GET', `/1/indexes/shop/task/${answer.body.taskID}`)).body.status === 'published');
  };
  const search = (params: Record<string, unknown>) => fixture.call('POST', '/1/indexes/shop/query', params, SEARCH_KEY);
  const ids = (body: { hits: Array<{ objectID: string }> }) => body.hits.map((hit) => hit.objectID);

  beforeAll(async () => {
    embedder = await startTestEmbedder(DIMS);
    fixture = await startTestServer({ config: { searchThreads: 1, limits: LIMITS } });
    await settings({ searchableAttributes: ['name', 'brand'], embedders: { meaning: restEmbedderSettings(embedder, DIMS, 'openai', { documentTemplate: '{{doc.name}}' }) } });
    const batch = await fixture.call('POST', '/1/indexes/shop/batch', { requests: products.map((body) => ({ action: 'addObject', body })) });
    await until(async () => (await fixture.call('GET', `/1/indexes/shop/task/${batch.body.taskID}`)).body.status === 'published');
    await until(async () => (await fixture.call('GET', '/1/indexes/shop/embedders')).body.embedders.meaning.missing === 0);
  });
  afterAll(async () => {
    await fixture?.close();
    await embedder?.close();
  });

  it('unset: a search without hybrid is the keyword search, as Algolia answers it', async () => {
    const calls = embedder.calls;
    const { status, body } = await search({ query: 'keep coffee hot' });
    expect(status).toBe(200);
    expect(body.nbHits).toBe(0);
    expect(body).not.toHaveProperty('semanticHitCount');
    expect(embedder.calls).toBe(calls);
  });

  it('set: searches without hybrid are hybrid, single-index and multi-query; their own hybrid wins', async () => {
    await settings({ hybrid: { semanticRatio: 0.6 } });
    const single = (await search({ query: 'keep coffee hot' })).body;
    expect(ids(single)[0]).toBe('t1');
    expect(single.semanticHitCount).toBeGreaterThan(0);
    const multi = await fixture.call('POST', '/1/indexes/*/queries', { requests: [{ indexName: 'shop', query: 'couch for a small flat' }, { indexName: 'shop', query: 'couch for a small flat', hitsPerPage: 0, facets: ['brand'] }] }, SEARCH_KEY);
    expect(multi.status).toBe(200);
    expect(ids(multi.body.results[0])[0]).toBe('s1');
    expect(multi.body.results[1].nbHits).toBe(multi.body.results[0].nbHits);
    expect((await search({ query: 'keep coffee hot', hybrid: { semanticRatio: 0 } })).body.nbHits).toBe(0);
    // Browsing (no text) stays the keyword listing.
    expect(ids((await search({ query: '' })).body)).toEqual(['t1', 's1', 'l1']);
  });

  it('naming no embedder of the index leaves searches keyword searches; a malformed one is a 400', async () => {
    await settings({ hybrid: { embedder: 'gone', semanticRatio: 0.5 } });
    expect((await search({ query: 'keep coffee hot' })).body.nbHits).toBe(0);
    for (const [value, message] of [['on', /"hybrid": expected an object/], [{ semanticRatio: 2 }, /hybrid\.semanticRatio/], [{ ratio: 1 }, /unknown field ratio/], [{ embedder: 3 }, /hybrid\.embedder/]] as const) {
      const answer = await fixture.call('PUT', '/1/indexes/shop/settings', { hybrid: value });
      expect(answer.status, JSON.stringify(value)).toBe(400);
      expect(answer.body).toEqual({ message: expect.stringMatching(message), status: 400 });
    }
  });

  it('the embedder down: searches relying on the setting answer by their keywords, a search asking for hybrid answers 503', async () => {
    await settings({ hybrid: { embedder: 'meaning' } });
    embedder.mode = 'down';
    try {
      const fallback = await search({ query: 'thermos flask' });
      expect(fallback.status).toBe(200);
      expect(ids(fallback.body)).toEqual(['t1']);
      expect(fallback.body).not.toHaveProperty('semanticHitCount');
      // Paused after the failure: the next ones do not wait for the embedder's timeouts.
      const calls = embedder.calls;
      const began = performance.now();
      for (const query of ['oak lamp', 'sofa', 'thermos']) expect((await search({ query })).status).toBe(200);
      expect(embedder.calls).toBe(calls);
      expect(performance.now() - began).toBeLessThan(LIMITS.embedderQueryTimeoutMs);
      // A text not asked before (a cached vector would answer without the embedder).
      const asked = await search({ query: 'keep the tea warm', hybrid: { semanticRatio: 0.5 } });
      expect(asked.status).toBe(503);
      expect(asked.body.message).toMatch(/Embedder "meaning" could not embed the query/);
    } finally {
      embedder.mode = 'ok';
    }
  });
});
