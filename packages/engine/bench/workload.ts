/**
 * The benchmark workload: the demo catalogue (`@vitrine/demo`'s `generateProducts`) and four query mixes
 * drawn from it deterministically, so every engine answers exactly the same questions.
 *
 * (a) as-you-type: 1–3 words of a product name, the last one cut to a prefix of at least 2 letters, 20 hits.
 * (b) (a) plus an OR-filter on two brands, a price range, and facet counts on 4 attributes.
 * (c) empty query refined on one category, with facet counts on the same 4 attributes.
 * (d) InstantSearch's multi-query for two refined disjunctive facets (brand, colour): the main query plus one
 *     query per refined facet, without its own refinement, counting only that facet.
 */
import type { Product } from '@vitrine/protocol';
import { createRandom } from '../../demo/src/random.ts';

export const FACETS = ['brand', 'color', 'hierarchicalCategories.lvl0', 'free_shipping'];

export interface TextQuery {
  query: string;
}
export interface FilteredQuery extends TextQuery {
  brands: [string, string];
  priceMin: number;
  priceMax: number;
}
export interface CategoryQuery {
  category: string;
}
export interface DisjunctiveQuery extends TextQuery {
  brands: [string, string];
  color: string;
}

export interface Workload {
  a: TextQuery[];
  b: FilteredQuery[];
  c: CategoryQuery[];
  d: DisjunctiveQuery[];
}

function typedPrefix(name: string, random: ReturnType<typeof createRandom>): string {
  const words = name.split(/\s+/).filter((w) => /^[a-z]/i.test(w));
  const count = 1 + random.int(Math.min(3, words.length));
  const start = random.int(words.length - count + 1);
  const chosen = words.slice(start, start + count);
  const last = chosen[chosen.length - 1];
  const cut = Math.min(last.length, 2 + random.int(Math.max(1, last.length - 1)));
  chosen[chosen.length - 1] = last.slice(0, cut);
  return chosen.join(' ').toLowerCase();
}

export function buildWorkload(products: Product[], count: number, seed = 7): Workload {
  const random = createRandom(seed);
  const pick = (): Product => products[random.int(products.length)];
  const a: TextQuery[] = [];
  const b: FilteredQuery[] = [];
  const c: CategoryQuery[] = [];
  const d: DisjunctiveQuery[] = [];
  for (let i = 0; i < count; i++) {
    a.push({ query: typedPrefix(pick().name, random) });
    const p = pick();
    const other = pick();
    const low = Math.floor(p.price * 0.5);
    b.push({ query: typedPrefix(p.name, random), brands: [p.brand, other.brand], priceMin: low, priceMax: Math.ceil(p.price * 2) });
    c.push({ category: pick().hierarchicalCategories.lvl1 });
    const q = pick();
    d.push({ query: typedPrefix(q.name, random), brands: [q.brand, pick().brand], color: q.color });
  }
  return { a, b, c, d };
}

/** The items in arrays of `size` (the last one shorter): a streamed catalogue in import-sized batches. */
export function* inBatches<T>(items: Iterable<T>, size: number): Generator<T[]> {
  let batch: T[] = [];
  for (const item of items) {
    batch.push(item);
    if (batch.length === size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/** The value at `share` (0.5, 0.99) of `values` (not modified), nearest rank below. */
export function percentile(values: readonly number[], share: number): number {
  return [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * share))];
}

/** A numeric command-line option of a benchmark (`--name value`), or `fallback`. */
export function numberOption(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] !== undefined ? Number(process.argv[at + 1]) : fallback;
}
