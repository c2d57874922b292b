/**
 * The `huggingFace` embedder (a local sentence model) end to end: a real server (with a search thread) loading
 * a real ONNX file from disk through onnxruntime-node and @huggingface/tokenizers, on its model thread. The
 * model is written by the test (`fixtures/tiny-model.ts`: a tokenizer.json of a few dozen words and an ONNX
 * graph looking up a vector per token), so nothing is downloaded.
 * - settings: a folder missing or outside the models folder, a file that is not a model, a tokenizer missing,
 *   vectors of another size: 400 with the reason, nothing logged;
 * - records: acknowledged when logged, their vectors filled after, normalised;
 * - searches: a product found by meaning with no word in common, with `hybrid` or the index's `hybrid` setting;
 * - the model folder gone (a restart): the status says why, a hybrid search answers 503 at once, a search
 *   relying on the setting answers by its keywords, writes go on; the folder back, vectors follow.
 */
import { cpSync, mkdirSync, renameSync, writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../src/index.ts';
import { ADMIN_KEY, APP_ID, SEARCH_KEY, removeDir, tempDir, waitUntil as until } from '../src/test-support.ts';
import { writeTinyModel } from './fixtures/tiny-model.ts';

const DIMS = 16;
const products = [
  { objectID: 't1', name: 'Steel thermos flask', brand: 'Kelvo', category: 'kitchen' },
  { objectID: 't2', name: 'Oak travel mug', brand: 'Kelvo', category: 'kitchen' },
  { objectID: 's1', name: 'Compact two-seat sofa', brand: 'Sitwell', category: 'living' },
  { objectID: 'l1', name: 'Oak reading lamp', brand: 'Lumio', category: 'living' },
];
const embedders = (extra: Record<string, unknown> = {}) => ({ meaning: { source: 'huggingFace', model: 'tiny', dimensions: DIMS, documentTemplate: '{{doc.name}}', ...extra } });

describe('huggingFace embedder (a local ONNX model)', () => {
  const dataDir = tempDir();
  const modelsDir = tempDir('vitrine-models-');
  let server: RunningServer;
  const start = async () => (server = await startServer({ dataDir, modelsDir, appId: APP_ID, adminApiKey: ADMIN_KEY, searchApiKey: SEARCH_KEY, port: 0, searchThreads: 1, limits: { embedderRetryMaxMs: 300 } }));
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read many response shapes
  const call = async (method: string, path: string, body?: unknown, key = ADMIN_KEY): Promise<{ status: number; body: any }> => {
    const response = await fetch(`${server.url}${path}`, { method, headers: { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': key }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: response.status, body: await response.json() };
  };
  const write = async (method: string, path: string, body: unknown) => {
    const answer = await call(method, `/1/indexes/shop${path}`, body);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    await until(async () => (await call('GET', `/1/indexes/shop/task/${answer.body.taskID}`)).body.status === 'published');
  };
  const search = (params: Record<string, unknown>) => call('POST', '/1/indexes/shop/query', params, SEARCH_KEY);
  const status = async () => (await call('GET', '/1/indexes/shop/embedders')).body.embedders.meaning;

  beforeAll(async () => {
    writeTinyModel(join(modelsDir, 'tiny'), DIMS);
    await start();
    await write('PUT', '/settings', { searchableAttributes: ['name', 'brand'], attributesForFaceting: ['brand'], embedders: embedders() });
    await write('POST', '/batch', { requests: products.map((body) => ({ action: 'addObject', body })) });
    await until(async () => (await status()).missing === 0);
  });
  afterAll(async () => {
    await server?.close();
    removeDir(dataDir);
    removeDir(modelsDir);
  });

  it('refuses a model it cannot load, with 400 and the reason, and logs nothing', async () => {
    cpSync(join(modelsDir, 'tiny'), join(modelsDir, 'broken'), { recursive: true });
    writeFileSync(join(modelsDir, 'broken', 'onnx', 'model.onnx'), 'not a model');
    mkdirSync(join(modelsDir, 'no-tokenizer', 'onnx'), { recursive: true });
    cpSync(join(modelsDir, 'tiny', 'onnx', 'model.onnx'), join(modelsDir, 'no-tokenizer', 'onnx', 'model.onnx'));
    const bad: Array<[Record<string, unknown>, RegExp]> = [
      [{ model: 'missing' }, /embedders\.meaning\.model.*no model folder "missing"/],
      [{ model: '../tiny' }, /embedders\.meaning\.model.*downloads no model/],
      [{ model: '/tmp' }, /embedders\.meaning\.model/],
      [{ model: 'broken' }, /embedders\.meaning\.model.*onnx\/model\.onnx of the model folder "broken" cannot be loaded/],
      [{ model: 'no-tokenizer' }, /embedders\.meaning\.model.*has no tokenizer\.json/],
      [{ dimensions: 384 }, /embedders\.meaning\.dimensions.*gives vectors of 16 numbers/],
      [{ revision: 'main' }, /unknown field revision/],
      [{ pooling: 'max' }, /pooling.*useModel, forceMean or forceCls/],
    ];
    for (const [extra, message] of bad) {
      const answer = await call('PUT', '/1/indexes/shop/settings', { embedders: embedders(extra) });
      expect(answer.status, JSON.stringify(extra)).toBe(400);
      expect(answer.body).toEqual({ message: expect.stringMatching(message), status: 400 });
    }
    const settings = (await call('GET', '/1/indexes/shop/settings')).body;
    expect(settings.embedders).toEqual(embedders());
  });

  it('fills records\' vectors after their writes, normalised, and shows the source in the status', async () => {
    expect(await status()).toMatchObject({ source: 'huggingFace', dimensions: DIMS, vectors: products.length, missing: 0, state: 'idle' });
    const hit = (await search({ query: 'thermos', retrieveVectors: true })).body.hits[0];
    expect(hit.objectID).toBe('t1');
    const vector = hit._vectors.meaning as number[];
    expect(vector).toHaveLength(DIMS);
    expect(Math.hypot(...vector)).toBeCloseTo(1, 5);
  });

  it('finds a product by meaning, with no word in common', async () => {
    expect((await search({ query: 'keep coffee hot' })).body.nbHits).toBe(0);
    const hybrid = (await search({ query: 'keep coffee hot', hybrid: { semanticRatio: 0.5 }, getRankingInfo: true })).body;
    expect(hybrid.hits[0].objectID).toBe('t1');
    expect(hybrid.semanticHitCount).toBeGreaterThan(0);
    expect(hybrid.hits[0]._rankingInfo.semanticScore).toBeGreaterThan(0.5);
    expect((await search({ query: 'couch for a small flat', hybrid: { semanticRatio: 1 } })).body.hits[0].objectID).toBe('s1');
  });

  it('applies the index\'s hybrid setting to searches that send none', async () => {
    await write('PUT', '/settings', { hybrid: { semanticRatio: 0.5 } });
    expect((await search({ query: 'keep coffee hot' })).body.hits[0].objectID).toBe('t1');
    // A search's own hybrid wins: a ratio of 0 is the keyword search.
    expect((await search({ query: 'keep coffee hot', hybrid: { semanticRatio: 0 } })).body.nbHits).toBe(0);
    await write('PUT', '/settings', { hybrid: null });
    expect((await search({ query: 'keep coffee hot' })).body.nbHits).toBe(0);
  });

  it('with its folder gone: the status says why, hybrid searches answer 503 at once, writes go on; then recovers', async () => {
    await write('PUT', '/settings', { hybrid: { semanticRatio: 0.5 } });
    await server.close();
    renameSync(join(modelsDir, 'tiny'), join(modelsDir, 'away'));
    await start();
    await until(async () => (await status()).state === 'failing');
    expect((await status()).lastError).toMatch(/no model folder "tiny"/);
    const began = performance.now();
    const failed = await search({ query: 'keep coffee hot', hybrid: { semanticRatio: 0.5 } });
    expect(failed.status).toBe(503);
    expect(failed.body.message).toMatch(/Embedder "meaning" could not embed the query: there is no model folder "tiny"/);
    expect(performance.now() - began).toBeLessThan(2000);
    // Relying on the setting, a search is the keyword search it would be without it.
    const keywords = await search({ query: 'thermos' });
    expect(keywords.status).toBe(200);
    expect(keywords.body.hits.map((hit: { objectID: string }) => hit.objectID)).toEqual(['t1']);
    expect((await search({ query: 'keep coffee hot' })).body.nbHits).toBe(0);
    await write('POST', '/batch', { requests: [{ action: 'addObject', body: { objectID: 'c1', name: 'Tea flask', brand: 'Kelvo' } }] });
    expect((await search({ query: 'tea flask', hybrid: { semanticRatio: 0 } })).body.hits[0].objectID).toBe('c1');
    renameSync(join(modelsDir, 'away'), join(modelsDir, 'tiny'));
    await until(async () => (await status()).missing === 0);
    expect((await search({ query: 'keep coffee hot', hybrid: { semanticRatio: 1 } })).body.hits[0].objectID).toMatch(/^(t1|c1)$/);
    rmSync(join(modelsDir, 'broken'), { recursive: true, force: true });
  });
});
