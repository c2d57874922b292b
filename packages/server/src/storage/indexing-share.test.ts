/**
 * Indexing gives way to searches: while searches are answered the apply loop rests between slices, and writes
 * arriving faster than they are applied wait before they are logged.
 */
import { rmSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { generateProducts } from '@vitrine/demo';
import { tempDir } from '../test-support.ts';
import { restAfter, SearchActivity } from './indexing-share.ts';
import { Store } from './store.ts';

const turns = async (n: number): Promise<void> => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe('restAfter', () => {
  it('rests long enough to work the given share of the time, within bounds', () => {
    expect(restAfter(10, 0.25)).toBeCloseTo(30);
    expect(restAfter(10, 0.5)).toBeCloseTo(10);
    expect(restAfter(400, 0.25)).toBe(100);
    for (const share of [1, 2, 0, -1, Number.NaN]) expect(restAfter(10, share)).toBe(0);
    expect(restAfter(0, 0.25)).toBe(0);
  });

  it('counts searches as recent for a second', () => {
    const searches = new SearchActivity();
    expect(searches.recent).toBe(false);
    searches.noted();
    expect(searches.recent).toBe(true);
  });
});

describe('Store, indexing beside searches', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  /**
   * The share of the event loop's time spent applying a backlog of batches, searches being answered meanwhile
   * (noted every 50 ms): the loop is held until every batch is logged, so only applying is measured.
   */
  async function busyShareWhileApplying(indexingShareWhileSearching: number): Promise<number> {
    const dataDir = tempDir('vitrine-share-');
    dirs.push(dataDir);
    const store = await Store.open({ dataDir, limits: { indexingShareWhileSearching, applyBacklogBytes: 1 << 30 } });
    let release!: () => void;
    const logged = new Promise<void>((resolve) => (release = resolve));
    store.setApplyGate(() => logged);
    const products = [...generateProducts(6000, 3)];
    const tasks = [];
    for (let i = 0; i < products.length; i += 100) tasks.push(store.saveObjects('products', products.slice(i, i + 100)));
    const last = (await Promise.all(tasks)).at(-1)!.taskID;
    store.setApplyGate(null);
    store.searches.noted();
    const searching = setInterval(() => store.searches.noted(), 50);
    const before = performance.eventLoopUtilization();
    release();
    await store.waitForTask(last);
    const { utilization } = performance.eventLoopUtilization(before);
    clearInterval(searching);
    expect(store.registry.get('products')!.engine!.size).toBe(6000);
    await store.close();
    return utilization;
  }

  it('applies at most about its share of the time while searches are answered', async () => {
    // Busy about a quarter of the time (slices and their rests are measured on the same clock, whatever the
    // machine's load); with a share of 1 the loop never rests.
    expect(await busyShareWhileApplying(0.25)).toBeLessThan(0.5);
    expect(await busyShareWhileApplying(1)).toBeGreaterThan(0.6);
  }, 60_000);

  it('holds new writes before logging them while the backlog to apply is over its bytes', async () => {
    const dataDir = tempDir('vitrine-backlog-');
    dirs.push(dataDir);
    const store = await Store.open({ dataDir, limits: { applyBacklogBytes: 1000 } });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    store.setApplyGate(() => held);
    const first = await store.saveObjects('products', [...generateProducts(20, 1)]);
    const second = store.saveObjects('products', [{ objectID: 'late', name: 'Late lamp' }]);
    await turns(20);
    // Not logged: it waits in the log writer's queue, its caller not yet answered.
    const log = (store as unknown as { log: { waiting: number } }).log;
    expect(log.waiting).toBe(1);
    store.setApplyGate(null);
    release();
    const { taskID } = await second;
    expect(taskID).toBeGreaterThan(first.taskID);
    await store.waitForTask(taskID);
    expect(store.registry.get('products')!.engine!.getObject('late')).toBeDefined();
    await store.close();
  });
});
