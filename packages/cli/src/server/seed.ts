import type { Product } from '@vitrine/protocol';
import type { RunningServer, Store } from '@vitrine/server';
import { demoIndexName, demoPersonalizationStrategy, demoReplicaSettings, demoRuleSources, demoRules, demoSettings, generateProducts, isDemoFacet } from '@vitrine/demo';

export interface SeedOptions {
  /** Number of products. */
  size: number;
  seed?: number;
  /** Products per write. Default 100. */
  batchSize?: number;
  /** Called after each durable batch with the number of products written so far. */
  onProgress?: (written: number) => void;
}

/**
 * Writes sent before the first is durable: they share the log's flushes (group commit), so small batches cost
 * no more disk syncs than large ones.
 */
const WRITES_IN_FLIGHT = 2;

/**
 * Creates the demo catalogue in a running server's store: the `products` index with its settings, its replicas
 * with theirs, then the products, streamed in batches (a large catalogue never sits in memory), then the demo's
 * rules (`demoRules`, built from the products generated). Resolves once the last write is visible to search.
 *
 * Batches are small because each is applied to the indexes in one go (atomically), searches waiting meanwhile:
 * 1,000 products took 0.2–0.8 s to apply at 10,000 products on a busy two-core machine, 100 a tenth of it.
 */
export async function seedDemoCatalogue(store: Store, options: SeedOptions): Promise<void> {
  const batchSize = options.batchSize ?? 100;
  // Settings first: the replicas exist (and the attributes are faceted) before the first product arrives.
  let last = (await store.setSettings(demoIndexName, demoSettings)).taskID;
  for (const [replica, settings] of Object.entries(demoReplicaSettings)) {
    last = (await store.setSettings(replica, settings)).taskID;
  }
  let written = 0;
  const inFlight = new Set<Promise<void>>();
  const send = async (products: Product[]): Promise<void> => {
    const write = store.saveObjects(demoIndexName, products).then(({ taskID }) => {
      last = Math.max(last, taskID);
      written += products.length;
      options.onProgress?.(written);
    });
    inFlight.add(write);
    write.then(() => inFlight.delete(write), () => {});
    if (inFlight.size >= WRITES_IN_FLIGHT) await Promise.race(inFlight);
  };
  let batch: Product[] = [];
  const ruleSources = demoRuleSources();
  for (const product of generateProducts(options.size, options.seed)) {
    ruleSources.add(product);
    batch.push(product);
    if (batch.length === batchSize) {
      await send(batch);
      batch = [];
    }
  }
  if (batch.length > 0) await send(batch);
  await Promise.all(inFlight);
  last = Math.max(last, (await store.saveRules(demoIndexName, demoRules(ruleSources))).taskID);
  await store.waitForTask(last);
}

/**
 * Sets the demo's personalization strategy (`demoPersonalizationStrategy`) unless one is set (the shop's own is
 * kept): run on a fresh start before the generated history's first model build, whose profiles then follow it,
 * so the history's shoppers (`demo-user-N`) have profiles at once. True when it set it.
 */
export function seedDemoStrategy(personalization: Pick<RunningServer['insights']['personalization'], 'strategy' | 'setStrategy'>): boolean {
  try {
    personalization.strategy();
    return false;
  } catch {
    // None set yet (404).
  }
  personalization.setStrategy(demoPersonalizationStrategy, isDemoFacet);
  return true;
}
