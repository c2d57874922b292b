/**
 * Stored events are bounded: the per-index and total budgets (the oldest go first, in the commit that went past),
 * a file that stops growing under a stream of events past the budget, and the retention window enforced by the
 * purge, whose freed pages go back to the file system. Real SQLite files, no server.
 */
import Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { InsightsEvent } from '@vitrine/protocol';
import { openInsights } from './index.ts';
import type { Insights, InsightsOptions } from './index.ts';
import { removeDir, tempDir } from './test-support.ts';

const DAY = 86_400_000;
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

function open(options: Partial<InsightsOptions>, clock: { now: number }): { insights: Insights; dir: string } {
  const dir = tempDir();
  dirs.push(dir);
  const insights = openInsights({
    dataDir: dir,
    now: () => clock.now,
    options: { modelRebuildIntervalMs: 0, suggestionsRebuildIntervalMs: 0, ...options },
    search: () => ({ hits: [], nbHits: 0 }) as never,
    getObjects: (_index, ids) => ids.map(() => null),
    listIndices: () => [],
    saveSuggestions: async () => {},
  });
  return { insights, dir };
}

/** `count` view events of `index`, named `${name}-${i}` so their order can be read back. */
function views(index: string, name: string, count: number, objectIDs = ['p1']): InsightsEvent[] {
  return Array.from({ length: count }, (_, i) => ({ eventType: 'view', eventName: `${name}-${i}`, index, userToken: `u${i % 50}`, objectIDs }));
}

/** The database file as a checkpoint that empties the log leaves it. */
function fileSize(dir: string): number {
  const db = new Database(join(dir, 'insights.sqlite'));
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return statSync(join(dir, 'insights.sqlite')).size;
}

describe('stored events', () => {
  it('keeps an index at its budget, dropping the oldest first, other indices untouched', async () => {
    const clock = { now: Date.UTC(2025, 5, 15) };
    const { insights } = open({ maxEventsPerIndex: 1500, maxEvents: 100_000, checkpointIntervalMs: 0 }, clock);
    await insights.recordEvents({ events: views('other', 'other', 10) });
    for (let round = 0; round < 5; round++) await insights.recordEvents({ events: views('products', `r${round}`, 1000) });
    const stored = insights.listEvents({ limit: 100_000 }).map((e) => e.event);
    const products = stored.filter((event) => event.index === 'products');
    expect(products).toHaveLength(1500);
    // The last 1,500 sent: the second half of round 3 and all of round 4.
    expect(products[0].eventName).toBe('r3-500');
    expect(products.at(-1)!.eventName).toBe('r4-999');
    expect(stored.filter((event) => event.index === 'other')).toHaveLength(10);
    expect(insights.storedEvents()).toBe(1510);
    await insights.stop();
  });

  it('keeps the total at its budget when events name many indices', async () => {
    const clock = { now: Date.UTC(2025, 5, 15) };
    const { insights } = open({ maxEventsPerIndex: 1000, maxEvents: 2500, checkpointIntervalMs: 0 }, clock);
    for (let i = 0; i < 40; i++) await insights.recordEvents({ events: views(`index-${i}`, `i${i}`, 100) });
    const stored = insights.listEvents({ limit: 100_000 }).map((e) => e.event);
    expect(stored).toHaveLength(2500);
    expect(insights.storedEvents()).toBe(2500);
    // The oldest indices went first.
    expect(stored[0].eventName).toBe('i15-0');
    await insights.stop();
  });

  it('does not grow its file while a stream of events goes on past the budget', async () => {
    const clock = { now: Date.UTC(2025, 5, 15) };
    const { insights, dir } = open({ maxEventsPerIndex: 3000, maxEvents: 3000 }, clock);
    const objectIDs = Array.from({ length: 10 }, (_, i) => `product-with-a-long-object-id-${i}`);
    const sizes: number[] = [];
    for (let round = 0; round < 40; round++) {
      await insights.recordEvents({ events: views('products', `r${round}`, 1000, objectIDs) });
      if (round % 5 === 4) sizes.push(fileSize(dir));
    }
    expect(insights.storedEvents()).toBe(3000);
    // Pages freed by the dropped events are reused: after the budget is reached, the file stays near its size
    // then, while 30,000 more events go through (without the budget, it would be 10 times). Within 1.6 times: a
    // loaded machine's checkpoints run late and leave some freed pages unused for a while (1.30 seen).
    for (const size of sizes.slice(1)) expect(size).toBeLessThan(sizes[0] * 1.6);
    await insights.stop();
  });

  it('deletes events past the retention window and gives the freed pages back to the file system', async () => {
    const clock = { now: Date.UTC(2025, 5, 15) };
    const { insights, dir } = open({ retentionDays: 90 }, clock);
    const objectIDs = Array.from({ length: 20 }, (_, i) => `product-with-a-long-object-id-${i}`);
    for (let round = 0; round < 30; round++) await insights.recordEvents({ events: views('products', `old${round}`, 1000, objectIDs) });
    clock.now += 60 * DAY;
    await insights.recordEvents({ events: views('products', 'recent', 10) });
    const before = fileSize(dir);
    clock.now += 31 * DAY;
    await insights.purge();
    expect(insights.listEvents({ limit: 100_000 }).map((e) => e.event.eventName)).toEqual(views('products', 'recent', 10).map((e) => e.eventName));
    expect(insights.storedEvents()).toBe(10);
    expect(fileSize(dir)).toBeLessThan(before / 2);
    await insights.stop();
  });
});
