/**
 * A search thread applies a large batch in steps: a search of another index is answered before the batch is
 * applied there, and a search of the batch's own index sees all of it.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { generateProducts } from '@vitrine/demo';
import { Store } from '../storage/store.ts';
import { bodyText, removeDir, tempDir } from '../test-support.ts';
import type { SearchCall } from './queries.ts';
import { SearchThreads } from './threads.ts';

const dataDir = tempDir();
let store: Store;
let threads: SearchThreads;

function searchCall(indexName: string, query: string): SearchCall {
  return { queries: [{ indexName, type: 'default', params: { query, hitsPerPage: 1 } }], strategy: 'none', forcedFilter: null, withIndex: true, client: '127.0.0.1', maxResponseBytes: 10 << 20 };
}

async function nbHits(answer: Promise<{ body: string | Uint8Array[] }>): Promise<number> {
  return (JSON.parse(bodyText((await answer).body)) as { results: Array<{ nbHits: number }> }).results[0].nbHits;
}

/** The last operation the thread said it applied. */
function threadApplied(): number {
  return [...(threads as unknown as { threads: Set<{ appliedSeq: number }> }).threads][0].appliedSeq;
}

beforeAll(async () => {
  store = await Store.open({ dataDir });
  await store.waitForTask((await store.saveObjects('shop', [{ objectID: 's1', name: 'Oak lamp' }])).taskID);
  threads = new SearchThreads(store, 1);
  await threads.whenReady(1);
}, 30_000);

afterAll(async () => {
  await threads.close();
  await store.close();
  removeDir(dataDir);
});

it('answers a search of one index while a large batch of another is applied, and shows that batch whole', async () => {
  const products = [...generateProducts(5000, 9)];
  const task = await store.saveObjects('bulk', products);
  await store.waitForTask(task.taskID);
  // Published: the thread has been sent the batch, and applies it in steps.
  let answeredAt = Number.NaN;
  const shop = threads.run(searchCall('shop', 'lamp'))!.then((answer) => {
    answeredAt = threadApplied();
    return answer;
  });
  const bulk = threads.run(searchCall('bulk', ''))!;
  expect(await nbHits(shop)).toBe(1);
  expect(answeredAt).toBeLessThan(task.taskID);
  expect(await nbHits(bulk)).toBe(products.length);
}, 30_000);
