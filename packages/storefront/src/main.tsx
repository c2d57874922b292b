/**
 * Startup: read the runtime config, create the search client (the one seam), load the category tree that
 * category URLs are read against, set up insights, then render. A failure here shows a message, not a blank page.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import 'instantsearch.css/themes/satellite-min.css';
import './styles/app.css';
import './styles/pages.css';
import { App } from './app/App.tsx';
import { ServicesContext } from './app/services.ts';
import type { Services } from './app/services.ts';
import { loadCategoryTree } from './lib/catalog.ts';
import { CartStore } from './lib/cart.ts';
import { createInsights } from './lib/insights.ts';
import { createSearchClient, insightsHost, loadConfig } from './lib/search-client.ts';

async function boot(): Promise<Services> {
  const config = await loadConfig();
  const searchClient = createSearchClient(config, window.location);
  const [categories, insights] = await Promise.all([
    // Without the tree, category paths can't be read; the shop still works, only `/c/…` links fall back to all products.
    loadCategoryTree(searchClient, config.indexName).catch(() => []),
    createInsights(config, insightsHost(config, window.location)),
  ]);
  return { config, searchClient, insights, categories, cart: new CartStore(window.localStorage) };
}

const root = createRoot(document.getElementById('root')!);
boot().then(
  (services) => {
    root.render(
      <StrictMode>
        <ServicesContext.Provider value={services}>
          <App />
        </ServicesContext.Provider>
      </StrictMode>,
    );
  },
  (error: unknown) => {
    root.render(
      <div className="vt-boot" role="alert">
        <h1>The shop could not start</h1>
        <p>{error instanceof Error ? error.message : String(error)}</p>
        <button type="button" onClick={() => window.location.reload()}>
          Reload
        </button>
      </div>,
    );
  },
);
