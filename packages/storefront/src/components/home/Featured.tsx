import { useEffect, useState } from 'react';
import type { Product } from '@vitrine/protocol';
import { useServices } from '../../app/services.ts';
import { ProductCard } from './ProductCard.tsx';

/** How many featured products: one row on a wide screen. */
const featuredCount = 4;

/**
 * "Featured": the best-rated products in the index's own ranking (4 stars and up), one request of its own
 * without analytics, so it neither counts as a shopper's search nor touches the results' status.
 */
export function Featured() {
  const { searchClient, config } = useServices();
  const [products, setProducts] = useState<Product[]>([]);
  useEffect(() => {
    let current = true;
    searchClient
      .search({ requests: [{ indexName: config.indexName, query: '', numericFilters: ['rating>=4'], hitsPerPage: featuredCount, analytics: false, clickAnalytics: false }] })
      .then(({ results }) => {
        const first = results[0];
        if (current && first && 'hits' in first) setProducts(first.hits as unknown as Product[]);
      })
      .catch(() => {
        // Featured products are decoration: without them the home page still has search and categories.
      });
    return () => {
      current = false;
    };
  }, [searchClient, config.indexName]);
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
