/**
 * Records with vectors survive `kill -9`: a server process takes batches of records carrying `_vectors` while
 * the test kills it at a random moment (snapshots every few operations, so kills land in snapshot writes too;
 * every other round with a search thread), then restarts it on the same folder. Every acknowledged record is
 * there with its vector (as float32), and a vector search by a record's own vector finds it first.
 * Then a rest embedder: records acknowledged just before the kill, their vectors not yet filled, get them after
 * the restart (the server looks for records without one when it starts).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, APP_ID, removeDir, spawnServer, tempDir, waitUntil as until, writeUntilKilled } from '../src/test-support.ts';
import { restEmbedderSettings, startTestEmbedder } from './fixtures/embedder-server.ts';

const ROUNDS = Number(process.env.VITRINE_DURABILITY_ROUNDS ?? (process.env.CI ? 6 : 3));
const DIMS = 8;
const headers = { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': ADMIN_KEY, 'content-type': 'text/plain' };
/** Servers started and not yet killed: a failed assertion leaves none running. */
const running = new Set<() => Promise<void>>();
async function start(dataDir: string, threads: number): Promise<{ url: string; kill(): Promise<void> }> {
  const server = await spawnServer({ VITRINE_DATA_DIR: dataDir, VITRINE_SNAPSHOT_EVERY_OPS: '5', VITRINE_SEARCH_THREADS: String(threads) });
  running.add(server.kill);
  return { url: server.url, kill: () => (running.delete(server.kill), server.kill()) };
}

/** A vector of its own for each record: deterministic from its id. */
function vectorOf(id: string): number[] {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return Array.from({ length: DIMS }, (_, i) => (((h >>> (i * 4)) & 15) - 7.5) / 3);
}

async function call(url: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}


async function vectorsOf(url: string, index: string): Promise<Map<string, number[] | undefined>> {
  const out = new Map<string, number[] | undefined>();
  let cursor: string | undefined;
  do {
    const { status, body } = await call(url, 'POST', `/1/indexes/${index}/browse`, cursor ? { cursor, retrieveVectors: true } : { hitsPerPage: 1000, retrieveVectors: true });
    if (status === 404) return out;
    for (const hit of body.hits as Array<{ objectID: string; _vectors?: { v?: number[] } }>) out.set(hit.objectID, hit._vectors?.v);
    cursor = body.cursor as string | undefined;
  } while (cursor);
  return out;
}

describe('records with vectors under kill -9', () => {
  const dataDir = tempDir('vitrine-vectors-crash-');
  afterAll(async () => {
    await Promise.all([...running].map((kill) => kill()));
    removeDir(dataDir);
  });

  it(`keeps every acknowledged vector across ${ROUNDS} hard kills`, { timeout: 60_000 + ROUNDS * 15_000 }, async () => {
    const acked = new Set<string>();
    let next = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const { kill, url } = await start(dataDir, round % 2);
      if (round === 0) expect((await call(url, 'PUT', '/1/indexes/crash/settings', { embedders: { v: { source: 'userProvided', dimensions: DIMS } } })).status).toBe(200);
      const present = await vectorsOf(url, 'crash');
      // Vectors are kept as float32: each number reads back as the float32 of what was sent.
      const float32 = (vector: number[] | undefined) => JSON.stringify(vector?.map(Math.fround));
      const wrong = [...acked].filter((id) => float32(present.get(id)) !== float32(vectorOf(id)));
      expect(wrong, `acknowledged vectors missing or altered after restart ${round}`).toEqual([]);
      for (const id of [...acked].slice(-3)) {
        const { body } = await call(url, 'POST', '/1/indexes/crash/query', { vector: vectorOf(id), hitsPerPage: 1 });
        expect((body.hits as Array<{ objectID: string }>)[0].objectID, `nearest to ${id}'s own vector after restart ${round}`).toBe(id);
      }
      await writeUntilKilled(kill, 2, async (running) => {
        while (running()) {
          const ids = Array.from({ length: 20 }, () => `r${next++}`);
          const body = { requests: ids.map((id) => ({ action: 'updateObject', body: { objectID: id, name: `record ${id}`, _vectors: { v: vectorOf(id) } } })) };
          try {
            const response = await fetch(`${url}/1/indexes/crash/batch`, { method: 'POST', headers, body: JSON.stringify(body) });
            if (response.ok) for (const id of ids) acked.add(id);
          } catch {
            return;
          }
        }
      });
    }
    expect(acked.size).toBeGreaterThan(0);
  });

  it('fills, after a restart, the vectors of records acknowledged just before a kill', { timeout: 60_000 }, async () => {
    const embedder = await startTestEmbedder(DIMS);
    const folder = tempDir('vitrine-vectors-crash-rest-');
    try {
      let server = await start(folder, 1);
      expect((await call(server.url, 'PUT', '/1/indexes/rest/settings', { embedders: { v: restEmbedderSettings(embedder, DIMS) } })).status).toBe(200);
      // The embedder hangs: the records are acknowledged, their vectors cannot follow before the kill.
      embedder.mode = 'hang';
      const batch = await call(server.url, 'POST', '/1/indexes/rest/batch', { requests: ['lamp', 'sofa', 'mug'].map((name) => ({ action: 'addObject', body: { objectID: name, name } })) });
      expect(batch.status).toBe(200);
      await server.kill();
      embedder.mode = 'ok';
      server = await start(folder, 1);
      await until(async () => ((await call(server.url, 'GET', '/1/indexes/rest/embedders')).body.embedders as { v: { missing: number; vectors: number } }).v.vectors === 3);
      const vectors = await vectorsOf(server.url, 'rest');
      expect([...vectors.keys()].sort()).toEqual(['lamp', 'mug', 'sofa']);
      for (const vector of vectors.values()) expect(vector).toHaveLength(DIMS);
      await server.kill();
    } finally {
      await embedder.close();
      removeDir(folder);
    }
  });
});
