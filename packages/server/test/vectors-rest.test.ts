/**
 * The `rest` embedder end to end, over a real server (with a search thread) and a real test embedder on
 * loopback (`fixtures/embedder-server.ts`, deterministic vectors from text):
 * - settings: checked (400 with {message, status}); the key and secret headers masked when read and in the API
 *   logs, kept when the masked settings are written back;
 * - records: acknowledged when logged, their vectors filled after (a task of their own), in the
 *   OpenAI-compatible and the Ollama shapes; a write keeping the text keeps the vector, one changing it gets a
 *   new one; a text the embedder gives zeros for is skipped, not retried forever;
 * - searches: the query text embedded (once: a cache), a product found by meaning with no word in common;
 * - outage and hang: writes still acknowledged and searchable by keywords, a hybrid search answers 503 at once
 *   with the reason, the status says why, and the vectors follow once the embedder is back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, waitUntil as until, type TestServer } from '../src/test-support.ts';
import { restEmbedderSettings, startTestEmbedder, type TestEmbedder } from './fixtures/embedder-server.ts';

const DIMS = 32;
const LIMITS = { embedderQueryTimeoutMs: 400, embedderQueryAttempts: 2, embedderDocumentTimeoutMs: 600, embedderRetryMaxMs: 300 };
const products = [
  { objectID: 't1', name: 'Steel thermos flask', brand: 'Kelvo', category: 'kitchen' },
  { objectID: 't2', name: 'Insulated travel mug', brand: 'Kelvo', category: 'kitchen' },
  { objectID: 's1', name: 'Compact two-seat sofa', brand: 'Sitwell', category: 'living' },
  { objectID: 'l1', name: 'Oak reading lamp', brand: 'Lumio', category: 'living' },
];

describe('rest embedder', () => {
  let fixture: TestServer;
  let embedder: TestEmbedder;
  const settings = (extra: Record<string, unknown> = {}) => ({
    searchableAttributes: ['name', 'brand'],
    attributesForFaceting: ['brand', 'category'],
    embedders: { meaning: restEmbedderSettings(embedder, DIMS, 'openai', { apiKey: 'sk-test-0123456789abcdef', headers: { 'X-Api-Key': 'header-secret-0123456789', 'X-Team': 'shop' }, ...extra }) },
  });
  const status = async (index = 'shop') => (await fixture.call('GET', `/1/indexes/${index}/embedders`)).body.embedders;
  const filled = (index = 'shop') => until(async () => (await status(index)).meaning.missing === 0);
  const write = async (index: string, path: string, body: unknown, method = 'POST') => {
    const { status: code, body: answer } = await fixture.call(method, `/1/indexes/${index}${path}`, body);
    expect(code, JSON.stringify(answer)).toBe(200);
    return answer;
  };
  const published = (index: string, answer: { taskID: number }) =>
    until(async () => (await fixture.call('GET', `/1/indexes/${index}/task/${answer.taskID}`)).body.status === 'published');

  beforeAll(async () => {
    embedder = await startTestEmbedder(DIMS);
    fixture = await startTestServer({ config: { searchThreads: 1, limits: LIMITS } });
    await published('shop', await write('shop', '/settings', settings(), 'PUT'));
    await published('shop', await write('shop', '/batch', { requests: products.map((body) => ({ action: 'addObject', body })) }));
    await filled();
  });
  afterAll(async () => {
    await fixture?.close();
    await embedder?.close();
  });

  it('refuses settings it cannot use, with 400 and the reason', async () => {
    const bad: Array<[Record<string, unknown>, RegExp]> = [
      [{ url: 'ftp://x' }, /embedders\.meaning\.url.*http or https/],
      [{ url: 'not a url' }, /not a valid URL/],
      [{ request: { input: 'text' } }, /request.*"\{\{text\}\}" exactly once/],
      [{ response: { data: 'x' } }, /response.*"\{\{embedding\}\}" exactly once/],
      [{ response: { data: [{ embedding: '{{embedding}}' }] } }, /in both request and response, or in neither/],
      [{ headers: { a: 1 } }, /headers.*object of strings/],
      [{ documentTemplate: '{% for f in fields %}{% endfor %}' }, /no \{% %\} tags/],
      [{ documentTemplateMaxBytes: 0 }, /documentTemplateMaxBytes/],
      [{ model: 'x' }, /unknown field model/],
      [{ dimensions: 0 }, /dimensions.*from 1 to 4096/],
    ];
    for (const [extra, message] of bad) {
      const { status: code, body } = await fixture.call('PUT', '/1/indexes/shop/settings', settings(extra));
      expect(code, JSON.stringify(extra)).toBe(400);
      expect(body.status).toBe(400);
      expect(body.message, JSON.stringify(extra)).toMatch(message);
    }
    const userProvided = await fixture.call('PUT', '/1/indexes/other/settings', { embedders: { e: { source: 'userProvided', dimensions: 3, url: 'http://x' } } });
    expect(userProvided.status).toBe(400);
    expect(userProvided.body.message).toMatch(/unknown field url/);
  });

  it('never shows the key: masked when read and in the API logs, kept when written back', async () => {
    const { body: read } = await fixture.call('GET', '/1/indexes/shop/settings');
    expect(read.embedders.meaning.apiKey).toBe('••••cdef');
    expect(read.embedders.meaning.headers).toEqual({ 'X-Api-Key': '••••6789', 'X-Team': 'shop' });
    expect(JSON.stringify(read)).not.toContain('sk-test');
    const logs = (await fixture.call('GET', '/1/logs?length=1000')).body.logs as Array<{ query_body: string; answer: string }>;
    expect(logs.length).toBeGreaterThan(0);
    for (const log of logs) expect(`${log.query_body}${log.answer}`).not.toMatch(/sk-test|header-secret/);
    // Written back as read: the embedder is still called with the real key.
    await published('shop', await write('shop', '/settings', { embedders: read.embedders }, 'PUT'));
    const before = embedder.authorizations.length;
    expect((await fixture.search({ query: 'travel flask mug', hybrid: { semanticRatio: 0.5 } }, 'shop')).nbHits).toBeGreaterThan(0);
    expect(embedder.authorizations.slice(before)).toEqual(['Bearer sk-test-0123456789abcdef']);
  });

  it('fills records\' vectors after their write, and finds by meaning', async () => {
    expect(await status()).toEqual({ meaning: { source: 'rest', dimensions: DIMS, vectors: 4, missing: 0, state: 'idle' } });
    // Each record's text, as the default template makes it: searchable attributes, one line each.
    expect(embedder.texts).toContain('name: Steel thermos flask\nbrand: Kelvo');
    const keywords = await fixture.search({ query: 'something to keep coffee hot' }, 'shop');
    expect(keywords.nbHits).toBe(0);
    const hybrid = await fixture.search({ query: 'something to keep coffee hot', hybrid: { semanticRatio: 0.5 }, getRankingInfo: true, hitsPerPage: 1 }, 'shop');
    expect(hybrid.hits.map((h) => h.objectID)).toEqual(['t1']);
    expect((hybrid.hits[0] as unknown as { _rankingInfo: { semanticScore: number } })._rankingInfo.semanticScore).toBeGreaterThan(0.3);
    const sofa = await fixture.search({ query: 'couch for a small flat', hybrid: { semanticRatio: 1 }, hitsPerPage: 1, filters: 'category:living' }, 'shop');
    expect(sofa.hits.map((h) => h.objectID)).toEqual(['s1']);
  });

  it('embeds a query once: the next searches with the same text use the cached vector', async () => {
    const calls = embedder.calls;
    for (let i = 0; i < 3; i++) await fixture.search({ query: 'insulated bottle for tea', hybrid: { semanticRatio: 0.7 } }, 'shop');
    expect(embedder.calls - calls).toBe(1);
  });

  it('keeps a vector while the text stays, embeds the new text when it changes', async () => {
    const texts = embedder.texts.length;
    await published('shop', await write('shop', '/batch', { requests: [{ action: 'updateObject', body: { ...products[1], price: 12 } }, { action: 'partialUpdateObject', body: { objectID: 't1', stock: 4 } }] }));
    // A write that needs an embedding wakes the worker before its task is published: idle now means none was.
    await until(async () => (await status()).meaning.state === 'idle');
    expect(embedder.texts.length).toBe(texts);
    expect((await fixture.call('GET', '/1/indexes/shop/t2')).body._vectors.meaning).toHaveLength(DIMS);
    expect((await fixture.call('GET', '/1/indexes/shop/t1')).body._vectors.meaning).toHaveLength(DIMS);
    await published('shop', await write('shop', '/batch', { requests: [{ action: 'partialUpdateObject', body: { objectID: 't2', name: 'Insulated coffee tumbler' } }] }));
    await expect.poll(() => embedder.texts.includes('name: Insulated coffee tumbler\nbrand: Kelvo')).toBe(true);
    await filled();
    // A record brought with its own vector keeps it.
    const own = Array.from({ length: DIMS }, (_, i) => (i === 0 ? 1 : 0));
    await published('shop', await write('shop', '/batch', { requests: [{ action: 'updateObject', body: { objectID: 'x1', name: 'Own vector', _vectors: { meaning: own } } }] }));
    expect((await fixture.call('GET', '/1/indexes/shop/x1')).body._vectors).toEqual({ meaning: own });
    expect(embedder.texts).not.toContain('name: Own vector');
  });

  it('skips a record the embedder gives a vector of zeros for, without retrying it forever', async () => {
    embedder.mode = 'zeros';
    await published('shop', await write('shop', '/batch', { requests: [{ action: 'addObject', body: { objectID: 'z1', name: 'Blank' } }] }));
    await expect.poll(() => embedder.texts.includes('name: Blank')).toBe(true);
    await expect.poll(async () => (await status()).meaning.state).toBe('idle');
    const calls = embedder.calls;
    await published('shop', await write('shop', '/batch', { requests: [{ action: 'partialUpdateObject', body: { objectID: 'l1', stock: 1 } }] }));
    await expect.poll(async () => (await status()).meaning).toMatchObject({ state: 'idle', missing: 1 });
    expect(embedder.calls).toBe(calls);
    embedder.mode = 'ok';
    // Written again, it is tried again.
    await published('shop', await write('shop', '/batch', { requests: [{ action: 'updateObject', body: { objectID: 'z1', name: 'Blank page notebook' } }] }));
    await filled();
  });

  for (const mode of ['down', 'hang'] as const) {
    it(`answers a hybrid search 503 at once when the embedder is ${mode}, keeps writes, and fills them once it is back`, async () => {
      embedder.mode = mode;
      const started = performance.now();
      const search = await fixture.call('POST', '/1/indexes/shop/query', { query: `a ${mode} query about lamps`, hybrid: { semanticRatio: 0.5 } });
      expect(search.status).toBe(503);
      expect(search.body.status).toBe(503);
      expect(search.body.message).toMatch(mode === 'down' ? /Embedder "meaning" could not embed the query: answered 503/ : /no answer within 400 ms/);
      expect(performance.now() - started).toBeLessThan(3000);
      // Writes go on, acknowledged when logged, and are found by their keywords.
      const answer = await write('shop', '/batch', { requests: [{ action: 'addObject', body: { objectID: `o-${mode}`, name: `Brass desk lamp ${mode}` } }] });
      await published('shop', answer);
      expect((await fixture.search({ query: `brass ${mode}` }, 'shop')).hits.map((h) => h.objectID)).toEqual([`o-${mode}`]);
      await expect.poll(async () => (await status()).meaning, { timeout: 20_000 }).toMatchObject({ state: 'failing', missing: 1, lastError: mode === 'down' ? 'answered 503' : 'no answer within 600 ms' });
      embedder.mode = 'ok';
      await filled();
      expect((await fixture.search({ query: `a ${mode} query about lamps`, hybrid: { semanticRatio: 0.5 } }, 'shop')).nbHits).toBeGreaterThan(0);
    });
  }

  it('speaks the Ollama shape too (one text per call)', async () => {
    const ollama = { embedders: { meaning: restEmbedderSettings(embedder, DIMS, 'ollama', { documentTemplate: 'A product: {{doc.name}} by {{ doc.brand }}' }) } };
    await published('ollama', await write('ollama', '/settings', ollama, 'PUT'));
    await published('ollama', await write('ollama', '/batch', { requests: products.map((body) => ({ action: 'addObject', body })) }));
    await filled('ollama');
    expect(embedder.texts).toContain('A product: Oak reading lamp by Lumio');
    expect((await fixture.search({ query: 'keep my drink warm', hybrid: { semanticRatio: 1 }, hitsPerPage: 1 }, 'ollama')).hits.map((h) => h.objectID)).toEqual(['t1']);
  });
});
