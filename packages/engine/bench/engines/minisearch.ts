/**
 * MiniSearch as its documentation recommends for as-you-type search: prefix on the last word, fuzzy matching
 * scaled by word length (Algolia's 1 typo from 4 letters, 2 from 8), AND of the words, `filter` for refinements.
 * It has no facets: counted by hand over the matching documents.
 */
import MiniSearch from 'minisearch';
import type { Product } from '@vitrine/protocol';
import type { BenchEngine } from './types.ts';
import { countByHand } from './facets-by-hand.ts';
import { FACETS } from '../workload.ts';

export function minisearchEngine(): BenchEngine {
  let index: MiniSearch<Product>;
  let byId: Product[] = [];
  const options = {
    prefix: (_term: string, i: number, terms: string[]) => i === terms.length - 1,
    fuzzy: (term: string) => (term.length >= 8 ? 2 : term.length >= 4 ? 1 : 0),
    combineWith: 'AND' as const,
  };
  const run = (query: string, filter?: (p: Product) => boolean): Product[] => {
    const results = index.search(query, filter ? { ...options, filter: (r) => filter(byId[r.id as number]) } : options);
    return results.map((r) => byId[r.id as number]);
  };
  return {
    name: 'minisearch',
    build(stream) {
      const products = [...stream];
      byId = products;
      index = new MiniSearch<Product>({
        fields: ['name', 'brand', 'categories', 'description'],
        idField: 'id',
        extractField: (doc, field) => (field === 'id' ? (doc as unknown as { id: number }).id : field === 'categories' ? doc.categories.join(' ') : (doc[field] as string)),
      });
      index.addAll(products.map((p, i) => ({ ...p, id: i }) as unknown as Product));
    },
    a(q) {
      return run(q.query).slice(0, 20).length;
    },
    b(q) {
      const brands = new Set(q.brands);
      const hits = run(q.query, (p) => brands.has(p.brand) && p.price >= q.priceMin && p.price <= q.priceMax);
      countByHand(hits, FACETS);
      return hits.length;
    },
    c(q) {
      // An empty query returns nothing in MiniSearch: its documented wildcard matches every document.
      const hits = index.search(MiniSearch.wildcard, { filter: (r) => byId[r.id as number].hierarchicalCategories.lvl1 === q.category }).map((r) => byId[r.id as number]);
      countByHand(hits, FACETS);
      return hits.length;
    },
    d(q) {
      const brands = new Set(q.brands);
      const all = run(q.query);
      const main = all.filter((p) => brands.has(p.brand) && p.color === q.color);
      countByHand(main, FACETS);
      countByHand(all.filter((p) => p.color === q.color), ['brand']);
      countByHand(all.filter((p) => brands.has(p.brand)), ['color']);
      return main.length;
    },
  };
}
