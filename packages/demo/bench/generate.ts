/**
 * Generation speed and catalogue statistics: `node --import tsx packages/demo/bench/generate.ts [count] [seed]`.
 * Times streaming `count` products (default 1,000,000, best of three) and reports, for the first 10,000, how many
 * names are shared, how many products show stars without reviews, and names with a word repeated.
 */
import { generateProducts } from '../src/index.ts';

const count = Number(process.argv[2] ?? 1_000_000);
const seed = Number(process.argv[3] ?? 1);

function time(): number {
  const start = performance.now();
  let bytes = 0;
  for (const product of generateProducts(count, seed)) bytes += product.name.length;
  if (bytes === 0 && count > 0) throw new Error('no products');
  return performance.now() - start;
}

const runs = [time(), time(), time()].sort((a, b) => a - b);
console.log(`${count.toLocaleString('en')} products: best ${(runs[0] / 1000).toFixed(2)} s (runs ${runs.map((r) => (r / 1000).toFixed(2)).join(', ')})`);

const sample = [...generateProducts(10_000, seed)];
const perName = new Map<string, number>();
for (const p of sample) perName.set(p.name, (perName.get(p.name) ?? 0) + 1);
const shared = sample.filter((p) => perName.get(p.name)! > 1).length;
const repeated = sample.filter((p) => /\b(\w+) \1\b/i.test(p.name)).length;
const starsWithoutReviews = sample.filter((p) => p.reviewCount === 0 && p.rating > 0).length;
const groups = new Set(sample.map((p) => (p as { groupID?: string }).groupID ?? p.objectID)).size;
console.log(`first 10,000: ${shared} share a name, ${repeated} repeat a word, ${starsWithoutReviews} rated without reviews, ${groups} groups`);
