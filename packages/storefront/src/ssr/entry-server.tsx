/**
 * The storefront's server renderer (built by `vite build --ssr` into `dist-server/entry-server.js`), the
 * `PageRenderer` the Vitrine server loads. Search and category pages go through react-instantsearch's
 * `getServerState` and are rendered with their results; product pages with their record; unknown addresses
 * as a 404 page; the help page whole. Cart and checkout are the app shell with their title (nothing there for
 * a search engine, and the cart lives in the browser). The page's state goes in as inert JSON for the browser
 * to hydrate from.
 */
import { renderToString } from 'react-dom/server';
import { prerenderToNodeStream } from 'react-dom/static';
import type { ReactNode } from 'react';
import { getServerState } from 'react-instantsearch';
import type { PageBackend, PageRenderer, PageRequest, Product, RenderedPage } from '@vitrine/protocol';
import { Root } from '../app/Root.tsx';
import type { Services } from '../lib/services.ts';
import { hitsPerPageOptions } from '../app/SearchPage.tsx';
import { CollectAllFacetsContext } from '../components/facets/Filters.tsx';
import { CartStore } from '../lib/cart.ts';
import { loadCategoryTree, productPath } from '../lib/catalog.ts';
import type { CategoryNode } from '../lib/catalog.ts';
import { parseStorefrontConfig, sortOptions } from '../lib/config.ts';
import type { StorefrontConfig } from '../lib/config.ts';
import { pageFor } from '../lib/navigation.ts';
import { pageTitles } from '../lib/page-titles.ts';
import type { SearchClient } from '../lib/search-client.ts';
import { pathToRoute, routeToState } from '../routing.ts';
import { isHomeState } from '../lib/recommend.ts';
import { fetchFeatured } from '../components/home/Featured.tsx';
import { fetchVariants, variantGroup } from '../components/product/VariantPicker.tsx';
import { backendSearchClient } from './backend-client.ts';
import { fillShell, headTags } from './head.tsx';
import { clientPageMeta, notFoundMeta, productPageMeta, searchPageMeta } from './page-meta.ts';
import type { PageMeta } from './page-meta.ts';
import { pageStateScript } from '../lib/page-state.ts';
import type { PageState } from '../lib/page-state.ts';

/** Markup of the whole tree once everything in it is ready (lazy page chunks included), as one string. */
async function renderComplete(element: ReactNode): Promise<string> {
  const { prelude } = await prerenderToNodeStream(element);
  const chunks: Buffer[] = [];
  for await (const chunk of prelude) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

function services(config: StorefrontConfig, searchClient: SearchClient, categories: CategoryNode[], initialData: Services['initialData']): Services {
  // The server knows no shopper: no insights, an empty cart (the browser's shows once hydrated).
  return { config, searchClient, insights: undefined, categories, cart: new CartStore(undefined), initialData };
}

interface Rendered {
  status: number;
  meta: PageMeta;
  body: string;
  state?: PageState;
}

async function renderSearch(request: PageRequest, url: URL, client: SearchClient, config: StorefrontConfig, categories: CategoryNode[]): Promise<Rendered> {
  const context = { indexName: config.indexName, sortOptions: sortOptions(config), categories, hitsPerPageOptions };
  const route = pathToRoute(url.pathname, url.search, context);
  const home = isHomeState(routeToState(route, context)[config.indexName] ?? {}, config.indexName);
  // Every filter mounted at once: one render and one search collect the page's queries (see Filters.tsx).
  const [search, featured] = await Promise.all([
    getServerState(
      <CollectAllFacetsContext.Provider value>
        <Root services={services(config, client, categories, {})} serverUrl={url} />
      </CollectAllFacetsContext.Provider>,
      { renderToString },
    ),
    // The home page's featured products, in the page: nothing appears above the results once it is live.
    home ? fetchFeatured(client, config.indexName) : undefined,
  ]);
  const initialData = { search, ...(featured ? { featured } : {}) };
  const body = await renderComplete(<Root services={services(config, client, categories, { ...initialData })} serverUrl={url} />);
  const primary = search.initialResults[config.indexName]?.results?.[0] as { nbHits?: number } | undefined;
  const meta = searchPageMeta({ origin: request.origin, route, categories, nbHits: primary?.nbHits ?? 0, format: config });
  return { status: 200, meta, body, state: { config: request.config, categories, ...initialData } };
}

async function renderProduct(request: PageRequest, url: URL, client: SearchClient, backend: PageBackend, config: StorefrontConfig, categories: CategoryNode[], objectID: string): Promise<Rendered> {
  const [found] = await backend.getObjects(config.indexName, [objectID]);
  const record = (found ?? null) as Product | null;
  const product = { objectID, record };
  // Its variants too, so the picker is in the page and the buttons below it do not move once it is live.
  const groupID = record ? variantGroup(record) : undefined;
  const variants = groupID ? { groupID, hits: await fetchVariants(client, config.indexName, groupID).catch(() => []) } : undefined;
  const initialData = { product, ...(variants ? { variants } : {}) };
  const body = await renderComplete(<Root services={services(config, client, categories, { ...initialData })} serverUrl={url} />);
  const meta = record ? productPageMeta({ origin: request.origin, product: record, categories, format: config }) : notFoundMeta(pageTitles.missingProduct);
  return { status: record ? 200 : 404, meta, body, state: { config: request.config, categories, ...initialData } };
}

export async function render(request: PageRequest, backend: PageBackend): Promise<RenderedPage> {
  const config = parseStorefrontConfig(request.config);
  const url = new URL(request.url, request.origin);
  const client = backendSearchClient(backend);
  const categories = await loadCategoryTree(client, config.indexName);
  const page = pageFor(url.pathname, categories);
  let rendered: Rendered;
  if (page.kind === 'search') rendered = await renderSearch(request, url, client, config, categories);
  else if (page.kind === 'product') rendered = await renderProduct(request, url, client, backend, config, categories, page.objectID);
  else if (page.kind === 'notFound' || page.kind === 'help') {
    // Pages with nothing of the shopper's in them: rendered whole, so nothing moves when the app takes over.
    const body = await renderComplete(<Root services={services(config, client, categories, {})} serverUrl={url} />);
    const found = page.kind === 'help';
    rendered = { status: found ? 200 : 404, meta: found ? clientPageMeta(pageTitles.help) : notFoundMeta(), body, state: { config: request.config, categories } };
  } else {
    // The cart and checkout live in the browser (localStorage); the console needs a key the server never sees.
    const title = page.kind === 'console' ? pageTitles.console : pageTitles[page.kind];
    return { status: 200, html: fillShell(request.shell, headTags(clientPageMeta(title)), '<p class="vt-boot">Loading the shop…</p>', '') };
  }
  const state = rendered.state ? pageStateScript(rendered.state) : '';
  return { status: rendered.status, html: fillShell(request.shell, headTags(rendered.meta), rendered.body, state) };
}

/** Home, every category at every level, every product: the shop's indexable addresses. */
export async function sitemapPaths(rawConfig: Record<string, unknown>, backend: PageBackend): Promise<string[]> {
  const config = parseStorefrontConfig(rawConfig);
  const categories = await loadCategoryTree(backendSearchClient(backend), config.indexName);
  const paths = ['/'];
  const walk = (nodes: CategoryNode[], prefix: string) => {
    for (const node of nodes) {
      const path = `${prefix}/${encodeURIComponent(node.slug)}`;
      paths.push(path);
      walk(node.children, path);
    }
  };
  walk(categories, '/c');
  for await (const record of backend.records(config.indexName, ['objectID', 'slug'])) {
    paths.push(productPath(record as Pick<Product, 'objectID' | 'slug'>));
  }
  return paths;
}

// Type check: this module is the renderer the server expects.
export const renderer: PageRenderer = { render, sitemapPaths };
