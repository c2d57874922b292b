/**
 * Startup: read the runtime config, create the search client (the one seam), load the category tree that
 * category URLs are read against, set up insights, then render. A failure here shows a message, not a blank page.
 *
 * A server-rendered page carries its config, category tree and first results (`lib/page-state.ts`): the app
 * then hydrates the markup it came with, asking the network for nothing before the shopper acts.
 */
import { createRoot, hydrateRoot } from 'react-dom/client';
import 'instantsearch.css/themes/satellite-min.css';
import './styles/app.css';
import './styles/pages.css';
import { Root } from './app/Root.tsx';
import type { Services } from './lib/services.ts';
import { loadCategoryTree } from './lib/catalog.ts';
import { CartStore } from './lib/cart.ts';
import { parseStorefrontConfig } from './lib/config.ts';
import { createInsights } from './lib/insights.ts';
import { createSearchClient, insightsHost, loadConfig } from './lib/search-client.ts';
import { readPageState } from './lib/page-state.ts';
import type { PageState } from './lib/page-state.ts';

async function boot(state: PageState | undefined): Promise<Services> {
  const config = state ? parseStorefrontConfig(state.config) : await loadConfig();
  const searchClient = createSearchClient(config, window.location);
  const [categories, insights] = await Promise.all([
    // Without the tree, category paths can't be read; the shop still works, only `/c/…` links fall back to all products.
    state ? state.categories : loadCategoryTree(searchClient, config.indexName).catch(() => []),
    createInsights(config, insightsHost(config, window.location)),
  ]);
  const initialData = {
    ...(state?.search ? { search: state.search } : {}),
    ...(state?.product ? { product: state.product } : {}),
    ...(state?.featured ? { featured: state.featured } : {}),
    ...(state?.variants ? { variants: state.variants } : {}),
  };
  return { config, searchClient, insights, categories, cart: new CartStore(window.localStorage), initialData };
}

const container = document.getElementById('root')!;
const state = readPageState(document);
boot(state).then(
  (services) => {
    if (state) hydrateRoot(container, <Root services={services} />);
    else createRoot(container).render(<Root services={services} />);
  },
  (error: unknown) => {
    createRoot(container).render(
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
