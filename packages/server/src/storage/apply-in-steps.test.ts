/**
 * Batches applied in steps on the main thread (`Store.setApplyInSteps`, what search threads switch on): a large
 * batch spans several turns of the event loop, reads of other indexes meanwhile do not wait for it, and a read
 * of its own index finishes it first, so no reader sees part of a batch.
 */
import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { generateProducts } from '@vitrine/demo';
import { tempDir } from '../test-support.ts';
import { getMeta } from './db.ts';
import { Store } from './store.ts';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('batches applied in steps', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('applies a large batch over several turns; reading its index finishes it, reading another does not', async () => {
    const dataDir = tempDir('vitrine-steps-');
    dirs.push(dataDir);
    const store = await Store.open({ dataDir });
    store.setApplyInSteps(() => true);
    await store.waitForTask((await store.saveObjects('small', [{ objectID: 's1', name: 'Lamp' }])).taskID);
    const products = [...generateProducts(5000, 7)];
    const task = await store.saveObjects('big', products);
    // Half applied between two turns: the engine itself holds part of the batch.
    let partial = 0;
    for (let turn = 0; turn < 10_000 && partial === 0; turn++) {
      await nextTurn();
      partial = store.registry.peek('big')?.engine?.size ?? 0;
    }
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(products.length);
    expect(store.taskStatus(task.taskID)).toBe('notPublished');
    // Another index is read as it is: the batch goes on in steps.
    expect(store.registry.get('small')!.engine!.size).toBe(1);
    expect(store.registry.peek('big')!.engine!.size).toBe(partial);
    // Its own index: the rest of the batch is applied first, and the task is published at once.
    expect(store.registry.get('big')!.engine!.size).toBe(products.length);
    expect(store.taskStatus(task.taskID)).toBe('published');
    await store.close();
  });

  it('snapshots whole batches only: a snapshot taken here finishes the batch under way', async () => {
    const dataDir = tempDir('vitrine-steps-');
    dirs.push(dataDir);
    const store = await Store.open({ dataDir });
    store.setApplyInSteps(() => true);
    await store.waitForTask((await store.saveObjects('small', [{ objectID: 's1', name: 'Lamp' }])).taskID);
    const products = [...generateProducts(5000, 8)];
    const task = await store.saveObjects('big', products);
    while ((store.registry.peek('big')?.engine?.size ?? 0) === 0) await nextTurn();
    await store.snapshot();
    expect(store.taskStatus(task.taskID)).toBe('published');
    expect(Number(getMeta(store.db, 'snapshot_seq'))).toBe(task.taskID);
    store.db.close();
    // A crash after the snapshot: the restart loads the batch whole, from the snapshot alone.
    const reopened = await Store.open({ dataDir });
    expect(reopened.registry.get('big')!.engine!.size).toBe(products.length);
    await reopened.close();
  });
});
