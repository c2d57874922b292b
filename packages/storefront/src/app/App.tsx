import { lazy, Suspense } from 'react';
import { Footer } from '../components/layout/Footer.tsx';
import { Header } from '../components/layout/Header.tsx';
import { HeaderSearch } from '../components/layout/HeaderSearch.tsx';
import { PageLoadBoundary } from '../components/layout/PageLoadBoundary.tsx';
import { usePage } from '../lib/navigation.ts';
import { NotFoundPage } from './NotFoundPage.tsx';
import { SearchPage } from './SearchPage.tsx';
import { useServices } from '../lib/services.ts';

// Product, cart, checkout and analytics pages are separate chunks: the search page's JS budget pays only for search.
const ProductPage = lazy(() => import('./ProductPage.tsx'));
const CartPage = lazy(() => import('./CartPage.tsx'));
const CheckoutPage = lazy(() => import('./CheckoutPage.tsx'));
const HelpPage = lazy(() => import('./HelpPage.tsx'));
// The merchant console (@vitrine/console): its own layout, never part of a shopper's page.
const ConsoleApp = lazy(() => import('@vitrine/console'));

export function App() {
  const { categories, config } = useServices();
  const page = usePage(categories);
  if (page.kind === 'console') {
    return (
      <Suspense fallback={<p className="vt-loading">Loading the console…</p>}>
        <ConsoleApp config={config} />
      </Suspense>
    );
  }
  return (
    <>
      <a className="vt-skip" href="#main">
        Skip to main content
      </a>
      {page.kind === 'search' ? (
        <SearchPage />
      ) : (
        <>
          <Header>
            <HeaderSearch />
          </Header>
          <main id="main" className="vt-page">
            {/* Keyed by page: moving to another page clears an earlier failure. */}
            <PageLoadBoundary key={page.kind === 'product' ? `product:${page.objectID}` : page.kind}>
              <Suspense fallback={<p className="vt-loading">Loading…</p>}>
                {page.kind === 'product' && <ProductPage key={page.objectID} objectID={page.objectID} />}
                {page.kind === 'cart' && <CartPage />}
                {page.kind === 'checkout' && <CheckoutPage />}
                {page.kind === 'help' && <HelpPage />}
                {page.kind === 'notFound' && <NotFoundPage />}
              </Suspense>
            </PageLoadBoundary>
          </main>
        </>
      )}
      <Footer />
    </>
  );
}
