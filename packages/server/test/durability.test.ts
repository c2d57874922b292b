/**
 * Crash durability: a server process imports batches while the test `kill -9`s it at a random moment, then
 * restarts it on the same data folder. Every acknowledged record must be there, with its content, and every
 * batch must be all-or-nothing, and searchable (a word every record holds finds them all). Snapshots are taken
 * often so that kills also land during snapshot writes; every other round runs with a search thread, which
 * then captures the snapshots. Rounds: VITRINE_DURABILITY_ROUNDS (default 20 in CI, 3 locally).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, APP_ID, removeDir, spawnServer, tempDir } from '../src/test-support.ts';

const ROUNDS = Number(process.env.VITRINE_DURABILITY_ROUNDS ?? (process.env.CI ? 20 : 3));
const BATCH = 50;
const WRITERS = 3;
const headers = { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': ADMIN_KEY, 'content-type': 'text/plain' };
const startChild = (dataDir: string, threads = 0) =>
  spawnServer({ VITRINE_DATA_DIR: dataDir, VITRINE_SNAPSHOT_EVERY_OPS: '25', VITRINE_SEARCH_THREADS: String(threads) });

/** How many records a search for a word every record holds finds (0 without the index). */
async function searchCount(url: string): Promise<number> {
  const response = await fetch(`${url}/1/indexes/crash/query`, { method: 'POST', headers, body: JSON.stringify({ query: 'value', hitsPerPage: 0 }) });
  return response.status === 404 ? 0 : ((await response.json()) as { nbHits: number }).nbHits;
}

async function browseAll(url: string): Promise<Map<string, Record<string, unknown>>> {
  const records = new Map<string, Record<string, unknown>>();
  let cursor: string | undefined;
  do {
    const response = await fetch(`${url}/1/indexes/crash/browse`, { method: 'POST', headers, body: JSON.stringify(cursor ? { cursor } : { hitsPerPage: 1000 }) });
    if (response.status === 404) return records;
    const page = (await response.json()) as { hits: Array<Record<string, unknown>>; cursor?: string };
    for (const hit of page.hits) records.set(hit.objectID as string, hit);
    cursor = page.cursor;
  } while (cursor);
  return records;
}

describe('durability under kill -9', () => {
  const dataDir = tempDir('vitrine-crash-');
  afterAll(() => removeDir(dataDir));

  it(`keeps every acknowledged write across ${ROUNDS} hard kills`, { timeout: 60_000 + ROUNDS * 10_000 }, async () => {
    const acked = new Set<string>();
    const batches: string[][] = [];
    let nextBatch = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const { kill, url } = await startChild(dataDir, round % 2);
      // Everything acknowledged before the previous kill is there, intact; every batch is all or nothing.
      const present = await browseAll(url);
      expect(await searchCount(url), `records found by search after restart ${round}`).toBe(present.size);
      // One assertion per check (not per record): thousands of expect() calls would dominate the run time.
      const missing = [...acked].filter((id) => present.get(id)?.payload !== `value of ${id}`);
      expect(missing, `acknowledged records missing or altered after restart ${round}`).toEqual([]);
      const partial = batches.filter((ids) => {
        const count = ids.filter((id) => present.has(id)).length;
        return count !== 0 && count !== ids.length;
      });
      expect(partial.map((ids) => ids[0]), `batches partially applied after restart ${round}`).toEqual([]);
      let stop = false;
      const writer = async () => {
        while (!stop) {
          const ids = Array.from({ length: BATCH }, (_, i) => `b${nextBatch}-${i}`);
          nextBatch++;
          batches.push(ids);
          const body = JSON.stringify({ requests: ids.map((id) => ({ action: 'updateObject', body: { objectID: id, payload: `value of ${id}` } })) });
          try {
            const response = await fetch(`${url}/1/indexes/crash/batch`, { method: 'POST', headers, body });
            if (response.ok) for (const id of ids) acked.add(id);
          } catch {
            return; // The server died mid-request: this batch was never acknowledged.
          }
        }
      };
      const writers = Array.from({ length: WRITERS }, writer);
      // The kill moment is random, so kills land anywhere in the write path (commit, apply, snapshot).
      await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 400));
      await kill();
      stop = true;
      await Promise.all(writers);
    }
    const { kill, url } = await startChild(dataDir);
    try {
      const present = await browseAll(url);
      expect([...acked].filter((id) => !present.has(id)), 'acknowledged records missing at the end').toEqual([]);
      expect(await searchCount(url)).toBe(present.size);
      expect(acked.size).toBeGreaterThan(0);
    } finally {
      await kill();
    }
  });
});
