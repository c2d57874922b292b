/**
 * Compaction under a trickle of writes: the demo catalogue, then rounds of {10 price updates, 2 searches}
 * until a compaction has come and gone; prints the longest write and the longest search while it ran, with the
 * compaction done a few records at a time (the engine's way) and in one go (as a rebuild, the previous way).
 * Prices, not popularity: a price is a facet, so its update appends and tombstones (a popularity update is made
 * in place and never leads to a compaction).
 *
 *   node --import tsx packages/engine/bench/compaction.ts [--size 100000]
 */
import { demoSettings, generateProducts } from '@vitrine/demo';
import { createRandom } from '../../demo/src/random.ts';
import type { Product } from '@vitrine/protocol';
import { SearchIndex } from '../src/index.ts';
import { FACETS, inBatches, numberOption } from './workload.ts';

const size = numberOption('size', 100_000);
const QUERIES = ['lamp', 'desk', 'chair', 'sofa', 'table', 'de', 'la', 'ch'];

interface Internals {
  compactionPolicy: { perWrite: number; perSearch: number };
  compaction: unknown;
  compactions: number;
}

function run(mode: 'in steps' | 'in one go'): void {
  const products: Product[] = [];
  const index = new SearchIndex(demoSettings);
  index.setResultCacheBytes(0); // measure the search, not the result cache
  for (const batch of inBatches(generateProducts(size, 1), 1000)) {
    index.saveObjects(batch);
    products.push(...batch);
  }
  const internals = index as unknown as Internals;
  if (mode === 'in one go') Object.assign(internals.compactionPolicy, { perWrite: Number.MAX_SAFE_INTEGER, perSearch: Number.MAX_SAFE_INTEGER });
  const random = createRandom(7).next;
  const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)];
  for (const query of QUERIES) index.search({ query, hitsPerPage: 20, facets: FACETS });
  let longestWrite = 0;
  let longestSearch = 0;
  let rounds = 0;
  let during = false;
  const started = performance.now();
  while (internals.compactions === 0) {
    const changed = Array.from({ length: 10 }, () => {
      const product = pick(products);
      product.price = Math.round(product.price * 101) / 100;
      return { ...product };
    });
    let t = performance.now();
    index.saveObjects(changed);
    const write = performance.now() - t;
    during ||= internals.compaction !== null || internals.compactions > 0;
    for (let k = 0; k < 2; k++) {
      t = performance.now();
      index.search({ query: pick(QUERIES), hitsPerPage: 20, facets: FACETS });
      if (during) longestSearch = Math.max(longestSearch, performance.now() - t);
    }
    if (during) longestWrite = Math.max(longestWrite, write);
    rounds++;
  }
  console.log(
    `${size} products, compaction ${mode}: after ${rounds} rounds (${((performance.now() - started) / 1000).toFixed(1)} s); longest write ${longestWrite.toFixed(1)} ms, longest search ${longestSearch.toFixed(1)} ms while it ran`,
  );
}

run('in one go');
run('in steps');
