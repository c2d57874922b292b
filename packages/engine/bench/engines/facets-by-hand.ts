/** Facet counting for engines without it: one pass over the matching products. */
import type { Product } from '@vitrine/protocol';

export type FacetField = (product: Product) => string;

export const FACET_FIELDS: Record<string, FacetField> = {
  brand: (p) => p.brand,
  color: (p) => p.color,
  'hierarchicalCategories.lvl0': (p) => p.hierarchicalCategories.lvl0,
  free_shipping: (p) => String(p.free_shipping),
};

export function countByHand(products: Iterable<Product>, fields: string[]): Record<string, Map<string, number>> {
  const counts: Record<string, Map<string, number>> = {};
  const getters = fields.map((f) => FACET_FIELDS[f]);
  const maps = fields.map((f) => (counts[f] = new Map()));
  for (const product of products) {
    for (let i = 0; i < getters.length; i++) {
      const value = getters[i](product);
      maps[i].set(value, (maps[i].get(value) ?? 0) + 1);
    }
  }
  return counts;
}
