/**
 * Document titles of the pages that are not searches (the search page's come from `routeTitle` in routing.ts).
 * The server writes them into the rendered page; `useDocumentTitle` keeps them right after in-app navigation.
 */
import { useEffect } from 'react';

export const shopName = 'Vitrine';

export const pageTitles = {
  cart: `Your cart – ${shopName}`,
  checkout: `Checkout – ${shopName}`,
  help: `Help – ${shopName}`,
  notFound: `Page not found – ${shopName}`,
  console: `Merchant console – ${shopName}`,
  loadingProduct: `Product – ${shopName}`,
  missingProduct: `Product not found – ${shopName}`,
} as const;

export function productTitle(product: { name: string }): string {
  return `${product.name} – ${shopName}`;
}

/** Sets the document title while the calling page is shown. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = title;
  }, [title]);
}
