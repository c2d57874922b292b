/**
 * Snapshots write only the indexes changed since the last one: an unchanged index's engine file is linked from
 * the previous snapshot folder (same file on disk), and the folder still loads whole. Both ways of writing a
 * snapshot: captured on the main thread, and written by a search thread.
 */
import { readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { generateProducts } from '@vitrine/demo';
import { SearchThreads } from '../search/threads.ts';
import { tempDir } from '../test-support.ts';
import { getMeta } from './db.ts';
import { SNAPSHOTS_DIR } from './snapshot.ts';
import { Store } from './store.ts';

/** The file holding each index's engine in the current snapshot, with its inode. */
function engineFiles(store: Store): Map<string, number> {
  const folder = join(store.dataDir, SNAPSHOTS_DIR, getMeta(store.db, 'snapshot_seq')!);
  const manifest = JSON.parse(readFileSync(join(folder, 'manifest.json'), 'utf8')) as { indexes: Array<{ name: string; engineFile?: string }> };
  const files = new Map<string, number>();
  for (const index of manifest.indexes) if (index.engineFile) files.set(index.name, statSync(join(folder, index.engineFile)).ino);
  return files;
}

describe('snapshots of unchanged indexes', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  for (const threadCount of [0, 1]) {
    it(`link the previous file and rewrite only what changed (${threadCount} search threads)`, async () => {
      const dataDir = tempDir('vitrine-reuse-');
      dirs.push(dataDir);
      const store = await Store.open({ dataDir });
      const threads = threadCount > 0 ? new SearchThreads(store, threadCount) : undefined;
      await threads?.whenReady(threadCount);
      const shop = [...generateProducts(500, 3)];
      await store.saveObjects('shop', shop);
      await store.waitForTask((await store.saveObjects('bulk', [...generateProducts(500, 4)])).taskID);
      await store.snapshot();
      const first = engineFiles(store);

      await store.waitForTask((await store.saveObjects('bulk', [{ objectID: 'new', name: 'Walnut stool' }])).taskID);
      await store.snapshot();
      const second = engineFiles(store);
      expect(second.get('shop')).toBe(first.get('shop'));
      expect(second.get('bulk')).not.toBe(first.get('bulk'));

      // Changed again (a setting only): written again.
      await store.waitForTask((await store.setSettings('shop', { searchableAttributes: ['name', 'brand'] })).taskID);
      await store.waitForTask((await store.saveObjects('bulk', [{ objectID: 'newer', name: 'Pine desk' }])).taskID);
      await store.snapshot();
      expect(engineFiles(store).get('shop')).not.toBe(first.get('shop'));
      if (threads) expect(threads.snapshotsTaken).toBe(3);

      await threads?.close();
      store.db.close();
      // A crash: the restart loads the linked file as any other.
      const reopened = await Store.open({ dataDir });
      expect(reopened.registry.get('shop')!.engine!.size).toBe(shop.length);
      expect(reopened.getSettings('shop')).toEqual({ searchableAttributes: ['name', 'brand'] });
      expect(reopened.registry.get('shop')!.engine!.search({ query: shop[0].name as string }).nbHits).toBeGreaterThan(0);
      expect(reopened.registry.get('bulk')!.engine!.size).toBe(502);
      // Loaded as it was written: the next snapshot links the unchanged index from the folder it loaded.
      const loaded = engineFiles(reopened);
      await reopened.waitForTask((await reopened.saveObjects('bulk', [{ objectID: 'last', name: 'Ash shelf' }])).taskID);
      await reopened.snapshot();
      expect(engineFiles(reopened).get('shop')).toBe(loaded.get('shop'));
      await reopened.close();
    }, 30_000);
  }
});
