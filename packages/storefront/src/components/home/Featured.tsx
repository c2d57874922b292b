import { useEffect, useState } from 'react';
import type { Product } from '@vitrine/protocol';
import { takeInitialData, useServices } from '../../lib/services.ts';
import type { SearchClient } from '../../lib/search-client.ts';
import { ProductCard } from './ProductCard.tsx';

/** How many featured products: one row on a wide screen. */
const featuredCount = 4;

/** The featured products' search (the server renderer asks it too, so the home page arrives with them). */
export async function fetchFeatured(searchClient: SearchClient, indexName: string): Promise<Product[]> {
  const { results } = await searchClient.search({
    requests: [{ indexName, query: '', numericFilters: ['rating>=4'], hitsPerPage: featuredCount, analytics: false, clickAnalytics: false }],
  });
  const first = results[0];
  return first && 'hits' in first ? (first.hits as unknown as Product[]) : [];
}

/**
 * "Featured": the best-rated products in the index's own ranking (4 stars and up), one request of its own
 * without analytics, so it neither counts as a shopper's search nor touches the results' status.
 */
export function Featured() {
  const services = useServices();
  const { searchClient, config } = services;
  // A server-rendered home page comes with them: shown at once, nothing moves when the app takes over.
  const [initial] = useState(() => takeInitialData(services, 'featured'));
  const [products, setProducts] = useState<Product[]>(initial ?? []);
  useEffect(() => {
    if (initial) return;
    let current = true;
    fetchFeatured(searchClient, config.indexName)
      .then((hits) => {
        if (current) setProducts(hits);
      })
      .catch(() => {
        // Featured products are decoration: without them the home page still has search and categories.
      });
    return () => {
      current = false;
    };
  }, [searchClient, config.indexName, initial]);
  if (products.length === 0) return null;
  return (
    <section className="vt-home-section vt-featured" aria-labelledby="vt-featured-title">
      <h2 id="vt-featured-title">Featured</h2>
      <div className="vt-card-grid">
        {products.map((product) => (
          <ProductCard key={product.objectID} product={product} />
        ))}
      </div>
    </section>
  );
}
