/**
 * A crash in the middle of a snapshot: the server imports batches until the snapshot it writes in the background
 * (every 5,000 records here) is under way — its temporary folder just appeared — and is killed with SIGKILL
 * then. The data folder must load on restart, with every acknowledged record, whole; with and without a search
 * thread (which writes the snapshot's files when there is one).
 */
import { mkdirSync, readdirSync, watch } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, APP_ID, removeDir, spawnServer, tempDir } from '../src/test-support.ts';

const headers = { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': ADMIN_KEY, 'content-type': 'text/plain' };
const BATCH = 500;

async function browseAll(url: string): Promise<Map<string, Record<string, unknown>>> {
  const records = new Map<string, Record<string, unknown>>();
  let cursor: string | undefined;
  do {
    const response = await fetch(`${url}/1/indexes/crash/browse`, { method: 'POST', headers, body: JSON.stringify(cursor ? { cursor } : { hitsPerPage: 1000 }) });
    const page = (await response.json()) as { hits: Array<Record<string, unknown>>; cursor?: string };
    for (const hit of page.hits) records.set(hit.objectID as string, hit);
    cursor = page.cursor;
  } while (cursor);
  return records;
}

/** Resolves when the `count`-th snapshot begins to be written (its temporary folder appears). */
function snapshotStarts(dataDir: string, count: number): { started: Promise<void>; stop: () => void } {
  const folder = join(dataDir, 'snapshots');
  mkdirSync(folder, { recursive: true });
  const seen = new Set<string>();
  let stop = () => {};
  const started = new Promise<void>((resolve) => {
    const watcher = watch(folder, (_event, name) => {
      if (name?.startsWith('tmp-') && !seen.has(name)) seen.add(name);
      if (seen.size >= count) resolve();
    });
    stop = () => watcher.close();
  });
  return { started, stop };
}

describe('a crash while a snapshot is written', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach(removeDir));

  for (const threads of [0, 1]) {
    it(`leaves a data folder that loads with every acknowledged record (${threads} search thread${threads === 1 ? '' : 's'})`, { timeout: 120_000 }, async () => {
      const dataDir = tempDir('vitrine-snapshot-crash-');
      dirs.push(dataDir);
      const env = { VITRINE_DATA_DIR: dataDir, VITRINE_SEARCH_THREADS: String(threads), VITRINE_SNAPSHOT_EVERY_RECORDS: '5000', VITRINE_SNAPSHOT_EVERY_OPS: '100000' };
      const server = await spawnServer(env);
      // The third snapshot: two are current before it, so the crash leaves an older snapshot and its log.
      const watcher = snapshotStarts(dataDir, 3);
      const killed = watcher.started.then(() => server.kill());
      const acked = new Set<string>();
      let batch = 0;
      let dead = false;
      void killed.then(() => (dead = true));
      while (!dead) {
        const ids = Array.from({ length: BATCH }, (_, i) => `r${batch}-${i}`);
        batch++;
        const requests = ids.map((id) => ({ action: 'updateObject', body: { objectID: id, text: `value of ${id} `.repeat(8) } }));
        try {
          const response = await fetch(`${server.url}/1/indexes/crash/batch`, { method: 'POST', headers, body: JSON.stringify({ requests }) });
          if (response.ok) for (const id of ids) acked.add(id);
        } catch {
          break; // killed mid-request: never acknowledged
        }
      }
      await killed;
      watcher.stop();
      const leftovers = readdirSync(join(dataDir, 'snapshots')).filter((name) => name.startsWith('tmp-'));
      expect(leftovers.length, 'the kill landed while a snapshot was being written').toBeGreaterThan(0);

      const restarted = await spawnServer(env);
      try {
        const present = await browseAll(restarted.url);
        const missing = [...acked].filter((id) => present.get(id)?.text !== `value of ${id} `.repeat(8));
        expect(missing, 'acknowledged records missing or altered after the restart').toEqual([]);
        expect(acked.size).toBeGreaterThanOrEqual(10_000);
        const response = await fetch(`${restarted.url}/1/indexes/crash/query`, { method: 'POST', headers, body: JSON.stringify({ query: 'value', hitsPerPage: 0 }) });
        expect(((await response.json()) as { nbHits: number }).nbHits).toBe(present.size);
      } finally {
        await restarted.kill();
      }
    });
  }
});
