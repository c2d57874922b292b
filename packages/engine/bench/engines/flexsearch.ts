/**
 * FlexSearch's Document index with `tokenize: "forward"` (prefix matching), tags for single-value refinements
 * (category, colour), as its documentation recommends. It has no numeric filters, OR-refinements or facets:
 * those are applied and counted by hand over all matches (which therefore have to be retrieved).
 */
import FlexSearch from 'flexsearch';
import type { Product } from '@vitrine/protocol';
import type { BenchEngine } from './types.ts';
import { countByHand } from './facets-by-hand.ts';
import { FACETS } from '../workload.ts';

const ALL = 10_000_000;

export function flexsearchEngine(): BenchEngine {
  let index: InstanceType<typeof FlexSearch.Document>;
  let byId: Product[] = [];
  const ids = (results: unknown): number[] => (results as Array<{ id: number }>).map((r) => r.id);
  const run = (query: string, limit: number, tag?: Record<string, string>): Product[] =>
    ids(index.search({ query, limit, merge: true, ...(tag ? { tag } : {}) } as never)).map((id) => byId[id]);
  return {
    name: 'flexsearch',
    build(stream) {
      const products = [...stream];
      byId = products;
      index = new FlexSearch.Document({
        tokenize: 'forward',
        document: { id: 'id', index: ['name', 'brand', 'categories', 'description'], tag: ['color', 'lvl1'] },
      } as never);
      products.forEach((p, id) => index.add({ id, name: p.name, brand: p.brand, categories: p.categories.join(' '), description: p.description, color: p.color, lvl1: p.hierarchicalCategories.lvl1 } as never));
    },
    a(q) {
      return run(q.query, 20).length;
    },
    b(q) {
      const brands = new Set(q.brands);
      const hits = run(q.query, ALL).filter((p) => brands.has(p.brand) && p.price >= q.priceMin && p.price <= q.priceMax);
      countByHand(hits, FACETS);
      return hits.length;
    },
    c(q) {
      const result = index.search({ tag: { lvl1: q.category }, limit: ALL } as never) as unknown as Array<{ result: number[] }>;
      const hits = (result[0]?.result ?? []).map((id) => byId[id]);
      countByHand(hits, FACETS);
      return hits.length;
    },
    d(q) {
      const brands = new Set(q.brands);
      const coloured = run(q.query, ALL, { color: q.color });
      const main = coloured.filter((p) => brands.has(p.brand));
      countByHand(main, FACETS);
      countByHand(coloured, ['brand']);
      countByHand(run(q.query, ALL).filter((p) => brands.has(p.brand)), ['color']);
      return main.length;
    },
  };
}
