/**
 * Crash durability of events: a child process runs the real server (insights included); concurrent writers
 * send batches of events, and the test `kill -9`s the process mid-stream. After each kill, every batch that was acknowledged
 * (`200 OK`) must be in the database, whole; a batch never answered may be there or not, but never in part.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { APP_ID, SEARCH_KEY, removeDir, spawnServer, tempDir } from '../../src/test-support.ts';

const ROUNDS = Number(process.env.VITRINE_DURABILITY_ROUNDS ?? (process.env.CI ? 10 : 2));
const WRITERS = 3;
const BATCH = 50;
/** Each round starts a server process: a few seconds each on a slow machine. */
const TIMEOUT_MS = 30_000 + ROUNDS * 5_000;

describe('events survive kill -9', () => {
  const dataDir = tempDir('vitrine-insights-crash-');
  afterAll(() => removeDir(dataDir));

  it(`keeps every acknowledged batch, whole, over ${ROUNDS} crashes`, async () => {
    const acknowledged = new Set<string>();
    const sent = new Set<string>();
    for (let round = 0; round < ROUNDS; round++) {
      const { kill, url } = await spawnServer({ VITRINE_DATA_DIR: dataDir });
      let stop = false;
      const writer = async (w: number) => {
        for (let n = 0; !stop; n++) {
          const batchName = `r${round}-w${w}-b${n}`;
          const events = Array.from({ length: BATCH }, (_, i) => ({
            eventType: 'view', eventName: batchName, index: 'products', userToken: `writer-${w}`, objectIDs: [String(i + 1)],
          }));
          sent.add(batchName);
          try {
            const response = await fetch(`${url}/1/events`, {
              method: 'POST',
              headers: { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': SEARCH_KEY, 'content-type': 'application/json' },
              body: JSON.stringify({ events }),
            });
            if (response.status === 200) acknowledged.add(batchName);
          } catch {
            return; // The server is gone.
          }
        }
      };
      const writers = Array.from({ length: WRITERS }, (_, w) => writer(w));
      // Kill once some batches are acknowledged in this round, at a moment the writers are mid-flight.
      while (![...acknowledged].some((name) => name.startsWith(`r${round}-`))) await new Promise((resolve) => setImmediate(resolve));
      // A random extra moment, so the kill lands anywhere in a commit cycle (not a wait for a condition).
      await new Promise((resolve) => setTimeout(resolve, 20 + Math.floor(Math.random() * 80)));
      await kill();
      stop = true;
      await Promise.all(writers);

      const db = new Database(join(dataDir, 'insights.sqlite'));
      const rows = db.prepare('SELECT name, COUNT(*) AS n FROM events GROUP BY name').all() as Array<{ name: string; n: number }>;
      db.close();
      const stored = new Map(rows.map((r) => [r.name, r.n]));
      for (const name of acknowledged) expect(stored.get(name), `acknowledged batch ${name}`).toBe(BATCH);
      for (const [name, n] of stored) {
        expect(sent.has(name)).toBe(true);
        expect(n, `batch ${name} is whole`).toBe(BATCH);
      }
    }
    expect(acknowledged.size).toBeGreaterThan(ROUNDS);
  }, TIMEOUT_MS);
});
