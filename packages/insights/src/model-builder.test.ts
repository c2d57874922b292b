/**
 * Model builds leave the main thread free: over a generated event log of 100,000 events (seconds of work), the
 * main thread's longest stall while `rebuildModels()` runs stays under a bound a build on it would break many times
 * over, and the models the thread hands back answer as an in-process build's do.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openInsights } from './index.ts';
import { defaultInsightsOptions } from './deps.ts';
import { modelsView } from './models.ts';
import { buildHere, removeDir, tempDir, watchStalls } from './test-support.ts';

const NOW = Date.UTC(2025, 5, 15, 12);
const EVENTS = 100_000;
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/** Shoppers' sessions over 20 days: views and clicks of a 5,000-item catalogue, some purchases. */
function writeEvents(file: string): void {
  const db = new Database(file);
  const insert = db.prepare(`INSERT INTO events (ts, received_at, index_name, type, subtype, name, user_token, object_ids)
    VALUES (?, ?, 'products', ?, ?, 'Event', ?, ?)`);
  let seed = 7;
  const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  db.transaction(() => {
    for (let i = 0; i < EVENTS; i++) {
      const session = Math.floor(i / 8);
      const ts = NOW - 20 * 86_400_000 + session * 130_000 + (i % 8) * 30_000;
      const item = (Math.floor(random() * 5000) + (session % 50)) % 5000;
      const kind = random();
      const [type, subtype] = kind < 0.7 ? ['view', null] : kind < 0.95 ? ['click', null] : ['conversion', 'purchase'];
      insert.run(ts, ts, type, subtype, `user-${session % 10_000}`, JSON.stringify([String(item), String((item + 1) % 5000)]));
    }
  })();
  db.close();
}

describe('model builds', () => {
  it('run in a thread of their own: the main thread answers meanwhile, and gets the same models', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const insights = openInsights({
      dataDir: dir,
      now: () => NOW,
      options: { modelRebuildIntervalMs: 0, suggestionsRebuildIntervalMs: 0 },
      // The recommend route fetches its candidates with a search restricted to their objectIDs: every one exists.
      search: (_index, params) => {
        const ids = ((params.facetFilters as string[][] | undefined)?.at(-1) ?? []).map((filter) => filter.slice('objectID:'.length));
        return { hits: ids.map((objectID) => ({ objectID })), nbHits: ids.length } as never;
      },
      getObjects: (_index, ids) => ids.map(() => null),
      listIndices: () => ['products'],
      saveSuggestions: async () => {},
    });
    // The first build (at open, of an empty log) out of the way; the thread started.
    await insights.rebuildModels();
    writeEvents(join(dir, 'insights.sqlite'));

    const stalls = watchStalls();
    const started = performance.now();
    const summary = await insights.rebuildModels();
    const took = performance.now() - started;
    const longestStall = stalls.stop();

    expect(summary.eventsRead).toBe(EVENTS);
    expect(summary.relatedItems).toBeGreaterThan(1000);
    // The build takes seconds (about two on a quiet machine); on the main thread the stall would be as long.
    expect(took).toBeGreaterThan(500);
    expect(longestStall).toBeLessThan(200);

    // The same build from scratch, on this thread, over aggregates of its own.
    const db = new Database(join(dir, 'insights.sqlite'));
    const inProcess = modelsView(buildHere(db, join(dir, 'scratch-models.sqlite'), NOW, defaultInsightsOptions, { full: true }).packed);
    db.close();
    expect(summary).toMatchObject(inProcess.counts);
    const source = ['42', '43', '44', '45'].find((id) => inProcess.boughtTogether('products', id).length > 1)!;
    const body = { requests: [{ indexName: 'products', model: 'bought-together', objectID: source }] };
    const { results } = await insights.recommend(body, null);
    const expected = inProcess.boughtTogether('products', source).slice(0, 30);
    expect(results[0].hits.map((hit) => ({ objectID: 'objectID' in hit ? hit.objectID : '', score: hit._score }))).toEqual(expected);
    await insights.stop();
  });
});
