/**
 * A search thread applies a large batch in steps: a search of another index is answered before the batch is
 * applied there, and a search of the batch's own index sees all of it.
 */
import type { Worker } from 'node:worker_threads';
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

/** What the thread posts, in the order the main thread receives it: results and how far it applied. */
function recordMessages(): string[] {
  const events: string[] = [];
  const thread = [...(threads as unknown as { threads: Set<{ worker: Worker }> }).threads][0];
  thread.worker.on('message', (message: { type: string; seq?: number }) => {
    if (message.type === 'result') events.push('result');
    if (message.type === 'applied') events.push(`applied ${message.seq}`);
  });
  return events;
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
  const events = recordMessages();
  // Sent in the turn the batch is handed to the thread (its listener comes first): the calls queue right behind
  // the batch, whatever the machine's load, rather than after a wait that a loaded machine stretches.
  let shop!: Promise<{ body: string | Uint8Array[] }>;
  const sent = new Promise<void>((resolve) => {
    const stop = store.onApplied((applied) => {
      if (!applied.some(({ op }) => op.kind === 'batch' && op.requests.some((request) => request.indexName === 'bulk'))) return;
      stop();
      shop = threads.run(searchCall('shop', 'lamp'))!;
      resolve();
    });
  });
  const task = await store.saveObjects('bulk', products);
  await sent;
  expect(await nbHits(shop)).toBe(1);
  // The search of the other index was answered before the thread had applied the batch.
  expect(events).toEqual(['result']);
  // A search of the batch's own index sees it whole: the batch is finished first.
  const bulk = threads.run(searchCall('bulk', ''))!;
  expect(await nbHits(bulk)).toBe(products.length);
  expect(events).toEqual(['result', `applied ${task.taskID}`, 'result']);
}, 30_000);
