/**
 * The search thread's share of the HTTP benchmark, in-process: the pair of queries its multi-query sends (a page
 * of 20 hits with facets on four attributes, two refined brands and a price filter; then the brand facet's own
 * query without hits), answered by the engine and serialised to JSON, with a batch of 10 popularity increments
 * after every ninth pair (the benchmark's 10% of writes). No HTTP, no second thread: the figure moves only with
 * the engine and the settings, so two versions can be told apart on a machine whose speed varies between runs.
 *
 *   node --import tsx packages/engine/bench/search-pair.ts [--size 100000] [--pairs 4000] [--rounds 4]
 *
 * Rounds alternate the demo settings as shipped and the same with `attributesToHighlight` left to Algolia's
 * default (every searchable attribute), so the cost of highlighting what the storefront does not show is measured
 * in the same process. Prints, per round, the mean time per pair (searches and JSON), its p50/p99, and the bytes.
 */
import { demoSettings, generateProducts } from '@vitrine/demo';
import type { Product, SearchParams } from '@vitrine/protocol';
import { createRandom } from '../../demo/src/random.ts';
import { SearchIndex } from '../src/index.ts';
import { inBatches, numberOption } from './workload.ts';

const size = numberOption('size', 100_000);
const pairs = numberOption('pairs', 4000);
const rounds = numberOption('rounds', 4);

const products: Product[] = [...generateProducts(size)];
const index = new SearchIndex(demoSettings);
for (const batch of inBatches(products, 1000)) index.saveObjects(batch);

// As the HTTP benchmark draws its queries: a prefix of one of 2,000 name words, two of 200 brands.
const wordSet = new Set<string>();
const brandSet = new Set<string>();
for (const product of products) {
  if (wordSet.size < 2000) for (const word of product.name.toLowerCase().split(/\s+/)) if (word.length > 3) wordSet.add(word);
  if (brandSet.size < 200) brandSet.add(product.brand);
}
const words = [...wordSet];
const brands = [...brandSet];
const facets = ['brand', 'color', 'rating', 'hierarchicalCategories.lvl0'];
// Algolia's default for attributesToHighlight: every searchable attribute.
const everySearchable = demoSettings.searchableAttributes!.flatMap((entry) => entry.replace(/^unordered\((.*)\)$/, '$1').split(','));

function runRound(highlightOverride: SearchParams, seed: number): { mean: number; p50: number; p99: number; bytes: number } {
  const random = createRandom(seed);
  const times: number[] = [];
  let bytes = 0;
  let total = 0;
  for (let i = 0; i < pairs; i++) {
    if (i % 9 === 8) {
      const changed = Array.from({ length: 10 }, () => {
        const product = products[random.int(size)];
        product.popularity++;
        return { ...product };
      });
      index.saveObjects(changed);
    }
    const word = words[random.int(words.length)];
    const query = word.slice(0, 2 + random.int(word.length - 1));
    const refined = [brands[random.int(brands.length)], brands[random.int(brands.length)]];
    const started = performance.now();
    const page = index.search({ query, hitsPerPage: 20, facets, facetFilters: [refined.map((b) => `brand:${b}`)], numericFilters: ['price>=1'], ...highlightOverride });
    const brandCounts = index.search({ query, hitsPerPage: 0, facets: ['brand'], numericFilters: ['price>=1'], analytics: false, clickAnalytics: false });
    bytes += JSON.stringify({ results: [page, brandCounts] }).length;
    const elapsed = performance.now() - started;
    times.push(elapsed);
    total += elapsed;
  }
  times.sort((a, b) => a - b);
  return { mean: total / pairs, p50: times[pairs >> 1], p99: times[Math.floor(pairs * 0.99)], bytes: bytes / pairs };
}

// One round untimed: the first searches fill the engine's caches.
runRound({}, 1);
const variants = [
  ['demo settings (highlight name)', {}],
  ['every searchable attribute highlighted', { attributesToHighlight: everySearchable }],
] as const;
for (let round = 0; round < rounds; round++) {
  // Each half its own seed (the same queries twice would find the second half's in the result cache), and the
  // halves in turn first (the engine's caches warm up over the run).
  for (let k = 0; k < 2; k++) {
    const [name, override] = variants[(round + k) % 2];
    const { mean, p50, p99, bytes } = runRound(override, 100 + 2 * round + k);
    console.log(`round ${round + 1}, ${name}: ${mean.toFixed(3)} ms per pair (p50 ${p50.toFixed(3)}, p99 ${p99.toFixed(2)}), ${Math.round(bytes)} bytes`);
  }
}
console.log(`${size} products, ${pairs} pairs per round, a write batch of 10 after every ninth pair`);
