/**
 * Orama with its own filters (`where`: enum `in`/`eq`, number `between`) and facets, AND of the words
 * (`threshold: 0`), its default prefix matching and `tolerance: 1` for typos.
 */
import { create, insertMultiple, search, type AnyOrama } from '@orama/orama';
import type { Product } from '@vitrine/protocol';
import type { BenchEngine } from './types.ts';

const facets = { brand: {}, color: {}, 'hierarchicalCategories.lvl0': {}, free_shipping: { true: true, false: true } };

export function oramaEngine(): BenchEngine {
  let db: AnyOrama;
  const properties = ['name', 'brand_text', 'categories', 'description'];
  const run = (params: Record<string, unknown>): number => {
    const result = search(db, { properties, threshold: 0, tolerance: 1, ...params } as never) as unknown as { count: number };
    return result.count;
  };
  return {
    name: 'orama',
    async build(stream: Iterable<Product>) {
      const products = [...stream];
      db = create({
        schema: {
          name: 'string',
          brand_text: 'string',
          categories: 'string[]',
          description: 'string',
          brand: 'enum',
          color: 'enum',
          price: 'number',
          free_shipping: 'boolean',
          hierarchicalCategories: { lvl0: 'enum', lvl1: 'enum' },
        },
      });
      const docs = products.map((p) => ({
        id: p.objectID,
        name: p.name,
        brand_text: p.brand,
        categories: p.categories,
        description: p.description,
        brand: p.brand,
        color: p.color,
        price: p.price,
        free_shipping: p.free_shipping,
        hierarchicalCategories: { lvl0: p.hierarchicalCategories.lvl0, lvl1: p.hierarchicalCategories.lvl1 },
      }));
      await insertMultiple(db, docs as never, 5000);
    },
    a(q) {
      return run({ term: q.query, limit: 20 });
    },
    b(q) {
      return run({ term: q.query, limit: 20, where: { brand: { in: q.brands }, price: { between: [q.priceMin, q.priceMax] } }, facets });
    },
    c(q) {
      return run({ term: '', limit: 20, where: { 'hierarchicalCategories.lvl1': { eq: q.category } }, facets });
    },
    d(q) {
      const main = run({ term: q.query, limit: 20, where: { brand: { in: q.brands }, color: { eq: q.color } }, facets });
      run({ term: q.query, limit: 0, where: { color: { eq: q.color } }, facets: { brand: {} } });
      run({ term: q.query, limit: 0, where: { brand: { in: q.brands } }, facets: { color: {} } });
      return main;
    },
  };
}
