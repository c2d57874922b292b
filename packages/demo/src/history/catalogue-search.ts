/**
 * A small word index over the demo products, so the generated history carries plausible result counts and
 * result orders without a search engine: a query matches the products holding every one of its words (in the
 * name, brand, categories or colour), ordered by popularity as the demo index's custom ranking does.
 */
import type { Product } from '@vitrine/protocol';

function words(text: string): string[] {
  return text.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length > 0);
}

export class CatalogueSearch {
  private readonly postings = new Map<string, number[]>();

  constructor(readonly products: readonly Product[]) {
    products.forEach((product, i) => {
      const text = [product.name, product.brand, product.color, ...product.categories].join(' ');
      for (const word of new Set(words(text))) {
        const list = this.postings.get(word) ?? [];
        list.push(i);
        this.postings.set(word, list);
      }
    });
  }

  /** Indices of the matching products, most popular first, filtered by `keep` when given. */
  search(query: string, keep?: (product: Product) => boolean): number[] {
    const terms = words(query);
    if (terms.length === 0) return [];
    const lists = terms.map((t) => this.postings.get(t) ?? []).sort((a, b) => a.length - b.length);
    let result = lists[0];
    for (const list of lists.slice(1)) {
      const set = new Set(list);
      result = result.filter((i) => set.has(i));
    }
    if (keep) result = result.filter((i) => keep(this.products[i]));
    return [...result].sort((a, b) => this.products[b].popularity - this.products[a].popularity || a - b);
  }
}
