/**
 * Engine files carry the customRanking orders of the replicas searching their records (the engine's own is always
 * there), so that a restart sorts none again: written by the main thread or by a search thread, with no search
 * run; an unchanged index's file is linked into the next snapshot only while it holds the orders a new one would
 * (a replica's customRanking changed, or a file written without them, is written again).
 */
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { generateProducts } from '@vitrine/demo';
import { loadSnapshot } from '@vitrine/engine';
import { SearchThreads } from '../search/threads.ts';
import { tempDir } from '../test-support.ts';
import { getMeta } from './db.ts';
import { readSnapshotFile, SNAPSHOTS_DIR } from './snapshot.ts';
import { Store } from './store.ts';

/** The current snapshot's engine file of `name`, and its inode. */
function engineFile(store: Store, name: string): { path: string; inode: number } {
  const folder = join(store.dataDir, SNAPSHOTS_DIR, getMeta(store.db, 'snapshot_seq')!);
  const manifest = JSON.parse(readFileSync(join(folder, 'manifest.json'), 'utf8')) as { indexes: Array<{ name: string; engineFile?: string }> };
  const path = join(folder, manifest.indexes.find((index) => index.name === name)!.engineFile!);
  return { path, inode: statSync(path).ino };
}

/** Whether the file holds the pairs, the engine's own order and the order of `customRanking`. */
async function holds(path: string, customRanking: string[]): Promise<boolean> {
  return loadSnapshot(await readSnapshotFile(path)).restoredSnapshotHolds({ customRankings: [customRanking] });
}

/** Writes to another index, so that a snapshot is due (and taken) with `shop` unchanged. */
async function snapshotAfterOtherWrite(store: Store, objectID: string): Promise<void> {
  await store.waitForTask((await store.saveObjects('other', [{ objectID, name: 'Pine desk' }])).taskID);
  await store.snapshot();
}

describe("snapshots and replicas' customRanking orders", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  async function shop(dataDir: string): Promise<Store> {
    const store = await Store.open({ dataDir });
    await store.setSettings('shop', { searchableAttributes: ['name', 'brand'], customRanking: ['desc(popularity)'], replicas: ['virtual(shop_cheap)', 'shop_sorted'] });
    await store.setSettings('shop_cheap', { customRanking: ['asc(price)'], relevancyStrictness: 50 });
    await store.waitForTask((await store.saveObjects('shop', [...generateProducts(400, 5)])).taskID);
    return store;
  }

  for (const threadCount of [0, 1]) {
    it(`are written with no search run, and a replica's new customRanking rewrites the file (${threadCount} search threads)`, async () => {
      const dataDir = tempDir('vitrine-orders-');
      dirs.push(dataDir);
      const store = await shop(dataDir);
      const threads = threadCount > 0 ? new SearchThreads(store, threadCount) : undefined;
      await threads?.whenReady(threadCount);
      await snapshotAfterOtherWrite(store, 'a');
      const first = engineFile(store, 'shop');
      expect(await holds(first.path, ['asc(price)'])).toBe(true);
      expect(await holds(first.path, ['desc(price)'])).toBe(false);

      await snapshotAfterOtherWrite(store, 'b');
      expect(engineFile(store, 'shop').inode).toBe(first.inode);
      // The replica's own setting: the primary's engine is unchanged, its file is not what a snapshot now holds.
      await store.waitForTask((await store.setSettings('shop_cheap', { customRanking: ['desc(price)'] })).taskID);
      await snapshotAfterOtherWrite(store, 'c');
      const rewritten = engineFile(store, 'shop');
      expect(rewritten.inode).not.toBe(first.inode);
      expect(await holds(rewritten.path, ['desc(price)'])).toBe(true);
      if (threads) expect(threads.snapshotsTaken).toBe(3);
      await threads?.close();
      await store.close();
    }, 30_000);
  }

  it('writes again, after a restart, a file that lacks an order, and links it from then on', async () => {
    const dataDir = tempDir('vitrine-orders-');
    dirs.push(dataDir);
    const store = await shop(dataDir);
    await snapshotAfterOtherWrite(store, 'a');
    const { path } = engineFile(store, 'shop');
    await store.close();
    // As written before the replicas' orders were saved: the same index, without the virtual replica's order.
    writeFileSync(path, loadSnapshot(await readSnapshotFile(path)).saveSnapshot());
    expect(await holds(path, ['asc(price)'])).toBe(false);

    const restarted = await Store.open({ dataDir });
    const before = engineFile(restarted, 'shop');
    await snapshotAfterOtherWrite(restarted, 'b');
    const rewritten = engineFile(restarted, 'shop');
    expect(rewritten.inode).not.toBe(before.inode);
    expect(await holds(rewritten.path, ['asc(price)'])).toBe(true);
    await restarted.close();

    const again = await Store.open({ dataDir });
    const loaded = engineFile(again, 'shop');
    await snapshotAfterOtherWrite(again, 'c');
    expect(engineFile(again, 'shop').inode).toBe(loaded.inode);
    await again.close();
  }, 30_000);
});
