/** Vitrine's engine, configured with the demo settings, queried as the server and InstantSearch would. */
import type { Product, SearchParams } from '@vitrine/protocol';
import { demoSettings } from '@vitrine/demo';
import { SearchIndex } from '../../src/index.ts';
import { FACETS, inBatches } from '../workload.ts';
import type { BenchEngine } from './types.ts';

const quote = (value: string): string => JSON.stringify(value);

export function vitrineEngine(): BenchEngine {
  let index = new SearchIndex(demoSettings);
  return {
    name: 'vitrine',
    build(products: Iterable<Product>) {
      index = new SearchIndex(demoSettings);
      // No result cache: the peers have none, and the workload repeats queries (a category page, a query).
      index.setResultCacheBytes(0);
      for (const batch of inBatches(products, 1000)) index.saveObjects(batch);
      // Settle the structures built lazily on the first query after writes (as the server's first query would).
      index.search({ query: '', facets: FACETS });
    },
    a(q) {
      return index.search({ query: q.query, hitsPerPage: 20 }).nbHits;
    },
    b(q) {
      return index.search({
        query: q.query,
        hitsPerPage: 20,
        filters: `(brand:${quote(q.brands[0])} OR brand:${quote(q.brands[1])}) AND price:${q.priceMin} TO ${q.priceMax}`,
        facets: FACETS,
      }).nbHits;
    },
    c(q) {
      return index.search({ query: '', hitsPerPage: 20, facetFilters: [[`hierarchicalCategories.lvl1:${q.category}`]], facets: FACETS }).nbHits;
    },
    d(q) {
      const brand = q.brands.map((b) => `brand:${b}`);
      const color = [`color:${q.color}`];
      const helper: SearchParams = { attributesToRetrieve: [], attributesToHighlight: [], attributesToSnippet: [], hitsPerPage: 0, page: 0, analytics: false, clickAnalytics: false };
      const main = index.search({ query: q.query, hitsPerPage: 20, facetFilters: [brand, color], facets: FACETS });
      index.search({ ...helper, query: q.query, facetFilters: [color], facets: ['brand'] });
      index.search({ ...helper, query: q.query, facetFilters: [brand], facets: ['color'] });
      return main.nbHits;
    },
  };
}
