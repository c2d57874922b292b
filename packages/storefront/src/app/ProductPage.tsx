/**
 * `/p/<slug>-<objectID>`: the record loaded from the index by objectID, a view event, and 'Add to cart'
 * (a conversion event attributed to the search that led here, when there was one).
 */
import { useEffect, useRef, useState } from 'react';
import type { Product } from '@vitrine/protocol';
import { CategoryTrail } from '../components/product/CategoryTrail.tsx';
import { QuantityStepper } from '../components/product/QuantityStepper.tsx';
import { Stars } from '../components/product/Stars.tsx';
import { VariantPicker } from '../components/product/VariantPicker.tsx';
import { ProductRecommendations } from '../components/recommend/ProductRecommendations.tsx';
import { getProduct, productPath } from '../lib/catalog.ts';
import { cameFromInsideShop, handleLinkClick, navigate } from '../lib/navigation.ts';
import { pageTitles, productTitle, useDocumentTitle } from '../lib/page-titles.ts';
import { deliveryText, stockText } from '../lib/shipping.ts';
import { NotFoundPage } from './NotFoundPage.tsx';
import { takeInitialData, useAppLive, useServices } from '../lib/services.ts';
import { useFormat } from '../lib/format.ts';

type Load = { state: 'loading' } | { state: 'missing' } | { state: 'error'; message: string } | { state: 'ready'; product: Product };

/** The record the server rendered this page with, when it is this product: the page then starts ready. */
function initialLoad(prefetched: { objectID: string; record: Product | null } | undefined, objectID: string): Load {
  if (prefetched?.objectID !== objectID) return { state: 'loading' };
  return prefetched.record ? { state: 'ready', product: prefetched.record } : { state: 'missing' };
}

function loadTitle(load: Load): string {
  if (load.state === 'ready') return productTitle(load.product);
  return load.state === 'missing' ? pageTitles.missingProduct : pageTitles.loadingProduct;
}

export default function ProductPage({ objectID }: { objectID: string }) {
  const services = useServices();
  const { config, searchClient, insights, cart } = services;
  const format = useFormat();
  const live = useAppLive();
  const [load, setLoad] = useState<Load>(() => initialLoad(takeInitialData(services, 'product'), objectID));
  const prefetched = useRef(load.state !== 'loading');
  const [attempt, setAttempt] = useState(0);
  const [added, setAdded] = useState(0);
  const [quantity, setQuantity] = useState(1);

  useDocumentTitle(loadTitle(load));

  useEffect(() => {
    let cancelled = false;
    const shown = (product: Product) => {
      insights?.productViewed(product);
      // Keep the canonical slug in the address bar when the link had an old or missing one.
      const canonical = productPath(product);
      if (window.location.pathname !== canonical) window.history.replaceState(window.history.state, '', canonical);
    };
    // A server-rendered product is already there: no second request for it.
    if (prefetched.current && attempt === 0) {
      prefetched.current = false;
      if (load.state === 'ready') shown(load.product);
      return;
    }
    getProduct(searchClient, config.indexName, objectID).then(
      (product) => {
        if (cancelled) return;
        setLoad(product ? { state: 'ready', product } : { state: 'missing' });
        if (product) shown(product);
      },
      (error: unknown) => {
        if (!cancelled) setLoad({ state: 'error', message: error instanceof Error ? error.message : String(error) });
      },
    );
    return () => {
      cancelled = true;
    };
    // `load` is read once, for the server-rendered product; a change of it must not load the product again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [searchClient, config.indexName, objectID, insights, attempt]);

  if (load.state === 'loading') return <p className="vt-loading" role="status">Loading product…</p>;
  if (load.state === 'missing') return <NotFoundPage what="product" />;
  if (load.state === 'error') {
    return (
      <div className="vt-error" role="alert">
        <p>The product could not be loaded: {load.message}</p>
        <button type="button" onClick={() => { setLoad({ state: 'loading' }); setAttempt((n) => n + 1); }}>
          Retry
        </button>
      </div>
    );
  }

  const { product } = load;
  const stock = stockText(product);
  const addToCart = () => {
    const queryID = insights?.queryIDFor(product.objectID);
    cart.add(product, quantity, queryID);
    insights?.addedToCart({ objectID: product.objectID, price: product.price, quantity, queryID });
    setAdded(quantity);
  };

  return (
    <article className="vt-product">
      <div className="vt-product-top">
        <button type="button" className="vt-back" onClick={() => (cameFromInsideShop() ? window.history.back() : navigate('/'))}>
          ← Back to results
        </button>
        <CategoryTrail product={product} />
      </div>
      <div className="vt-product-body">
        <img className="vt-product-image" src={product.image} alt={product.name} width={480} height={480} />
        <div className="vt-product-info">
          <p className="vt-product-brand">{product.brand}</p>
          <h1 className="vt-product-name">{product.name}</h1>
          <Stars rating={product.rating} count={product.reviewCount} />
          <p className="vt-product-price">{format.price(product.price)}</p>
          {product.free_shipping && <p className="vt-badge">Free shipping</p>}
          <p className={stock.available ? 'vt-stock' : 'vt-stock vt-stock--out'}>
            <strong>{stock.text}</strong> · {deliveryText(product, format.price)}
          </p>
          <VariantPicker product={product} />
          <div className="vt-buy">
            <QuantityStepper label="Quantity" quantity={quantity} onChange={setQuantity} disabled={!live} />
            <button type="button" className="vt-primary" onClick={addToCart} disabled={!stock.available || !live}>
              Add to cart
            </button>
          </div>
          <p className="vt-product-description">{product.description}</p>
          <p className="vt-added" role="status">
            {added > 0 && (
              <>
                {added === 1 ? 'Added to your cart.' : `${added} added to your cart.`}{' '}
                <a href="/cart" onClick={(event) => handleLinkClick(event, '/cart')}>
                  View cart
                </a>
              </>
            )}
          </p>
        </div>
      </div>
      <ProductRecommendations objectID={product.objectID} />
    </article>
  );
}
