/**
 * The cost of the first search after a small write, as a shop updating stock while shoppers search sees it.
 *
 *   node --import tsx packages/engine/bench/write-then-search.ts [--size 100000] [--rounds 200] [--batch 10]
 *     [--popularity-only]   (writes change popularity alone, as stock-level updates do: made in place)
 *
 * Builds an index of the demo catalogue with the demo settings, then runs rounds of {save a batch of modified
 * products, run one InstantSearch-like query (text prefix, facets on four attributes, a price filter)} and
 * prints p50/p99 of the search alone, next to the same queries without writes in between.
 */
import type { Product } from '@vitrine/protocol';
import { demoSettings, generateProducts } from '@vitrine/demo';
import { SearchIndex } from '../src/index.ts';
import { buildWorkload, FACETS, inBatches, numberOption } from './workload.ts';

const size = numberOption('size', 100_000);
const rounds = numberOption('rounds', 200);
const batch = numberOption('batch', 10);
const popularityOnly = process.argv.includes('--popularity-only');

// As in run.ts, the process holds no catalogue while it measures (an application does not; a million product
// objects would be traced by every full collection): the queries are drawn from one pass of the generator, the
// index is built from a second, and only the products the writes will change are kept.
const changedAt = (round: number, k: number): number => (round * 7919 + k * 104_729) % size;
const workload = buildWorkload([...generateProducts(size, 1)], rounds, 11);
const needed = new Set<number>();
for (let i = 0; i < rounds; i++) for (let k = 0; k < batch; k++) needed.add(changedAt(i, k));
const kept = new Map<number, Product>();
const index = new SearchIndex(demoSettings);
index.setResultCacheBytes(0); // measure the search, not the result cache
let position = 0;
for (const batch of inBatches(generateProducts(size, 1), 1000)) {
  for (const product of batch) if (needed.has(position++)) kept.set(position - 1, product);
  index.saveObjects(batch);
}

const query = (i: number): number => {
  const q = workload.b[i];
  return index.search({ query: q.query, hitsPerPage: 20, filters: `price:${q.priceMin} TO ${q.priceMax}`, facets: FACETS }).nbHits;
};
const percentile = (times: number[], p: number): string => times.sort((a, b) => a - b)[Math.min(times.length - 1, Math.floor(times.length * p))].toFixed(2);

// Warm up (and settle the structures the initial import left to build).
for (let i = 0; i < Math.min(rounds, 50); i++) query(i);

const quiet: number[] = [];
for (let i = 0; i < rounds; i++) {
  const t = performance.now();
  query(i);
  quiet.push(performance.now() - t);
}

const afterWrite: number[] = [];
let writeMs = 0;
for (let i = 0; i < rounds; i++) {
  // Price and popularity change: the customRanking order, numeric columns and facet rows all see new values.
  // Popularity alone (not indexed, only ranked) is changed in place.
  const changed: Product[] = [];
  for (let k = 0; k < batch; k++) {
    const p = kept.get(changedAt(i, k))!;
    const popularity = (p.popularity * 31 + i) % 1000;
    changed.push(popularityOnly ? { ...p, popularity } : { ...p, popularity, price: Math.round(p.price * 0.9 * 100) / 100 });
  }
  let t = performance.now();
  index.saveObjects(changed);
  writeMs += performance.now() - t;
  t = performance.now();
  query(i);
  afterWrite.push(performance.now() - t);
}

console.log(`size ${size}, ${rounds} rounds, batches of ${batch}${popularityOnly ? ', popularity only' : ', price and popularity'}`);
console.log(`search without writes:     p50 ${percentile(quiet, 0.5)} ms  p99 ${percentile(quiet, 0.99)} ms`);
console.log(`search right after a write: p50 ${percentile(afterWrite, 0.5)} ms  p99 ${percentile(afterWrite, 0.99)} ms`);
console.log(`write (saveObjects) mean:   ${(writeMs / rounds).toFixed(2)} ms`);
