import type { Store } from '@vitrine/server';
import { demoIndexName, demoReplicaSettings, demoSettings, generateProducts } from '@vitrine/demo';

export interface SeedOptions {
  /** Number of products. */
  size: number;
  seed?: number;
  /** Products per write. Default 1000. */
  batchSize?: number;
  /** Called after each durable batch with the number of products written so far. */
  onProgress?: (written: number) => void;
}

/**
 * Creates the demo catalogue in a running server's store: the `products` index with its settings, its replicas
 * with theirs, then the products, streamed in batches (a large catalogue never sits in memory). Resolves once
 * the last write is visible to search.
 */
export async function seedDemoCatalogue(store: Store, options: SeedOptions): Promise<void> {
  const batchSize = options.batchSize ?? 1000;
  // Settings first: the replicas exist (and the attributes are faceted) before the first product arrives.
  let last = await store.setSettings(demoIndexName, demoSettings);
  for (const [replica, settings] of Object.entries(demoReplicaSettings)) {
    last = await store.setSettings(replica, settings);
  }
  let batch = [];
  let written = 0;
  for (const product of generateProducts(options.size, options.seed)) {
    batch.push(product);
    if (batch.length === batchSize) {
      last = await store.saveObjects(demoIndexName, batch);
      written += batch.length;
      batch = [];
      options.onProgress?.(written);
    }
  }
  if (batch.length > 0) {
    last = await store.saveObjects(demoIndexName, batch);
    written += batch.length;
    options.onProgress?.(written);
  }
  await store.waitForTask(last.taskID);
}
