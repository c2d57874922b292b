import { Worker } from 'node:worker_threads';
import type { InsightsHistory } from '@vitrine/protocol';

/** The thread's module: compiled, or, running from the sources, a shim that registers the TypeScript loader first. */
const ENTRY = import.meta.url.endsWith('.ts') ? new URL('./demo-history-thread.mjs', import.meta.url) : new URL('./demo-history-worker.js', import.meta.url);

/**
 * The demo's past activity (`generateHistory` over the first `products` demo products), generated in a worker
 * thread: 3–4 s of computing for the 10,000-product catalogue, which on the main thread held every request of
 * a first start.
 */
export function generateDemoHistory(products: number): Promise<InsightsHistory> {
  const worker = new Worker(ENTRY, { workerData: { products } });
  return new Promise<InsightsHistory>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the demo history thread exited with code ${code}`)));
  }).finally(() => void worker.terminate());
}
