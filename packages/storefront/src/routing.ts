/**
 * URL ↔ search state. The URL is the shopper's state: categories are readable paths (`/c/computers/laptops`),
 * everything else readable parameters (`?q=lamp&brand=Acme&color=red&price=10:200`), and defaults are left out
 * so a plain search stays at `/`. InstantSearch's history router writes the URL 400 ms after the last change
 * (one history entry per pause, not per keystroke) and restores the state on back/forward.
 */
import { history } from 'instantsearch.js/es/lib/routers';
import type { UiState } from 'instantsearch.js';
import { categoryAttributes, categoryToSlugs, slugsToCategory } from './lib/catalog.ts';
import type { CategoryNode } from './lib/catalog.ts';
import type { SortOption } from './lib/config.ts';
import { maxQueryLength } from './lib/search-state.ts';
import type { StorefrontIndexUiState, ViewMode } from './lib/search-state.ts';

/** The search state as the URL carries it; every field is optional and absent means "the default". */
export interface RouteState {
  query?: string;
  /** Category path, top level first, as names ("Computers", "Laptops"). */
  category?: string[];
  brand?: string[];
  color?: string[];
  price?: { min?: number; max?: number };
  /** Minimum rating (1–5): "4 & up". */
  rating?: number;
  freeShipping?: boolean;
  /** A sort key other than relevance (`price_asc`, …). */
  sort?: string;
  /** 1-based; absent for the first page. */
  page?: number;
  hitsPerPage?: number;
  view?: ViewMode;
}

export interface RoutingContext {
  indexName: string;
  sortOptions: SortOption[];
  categories: CategoryNode[];
  /** Allowed page sizes; the first is the default and stays out of URLs. */
  hitsPerPageOptions: number[];
}

const maxPage = 1000;

const lvl0 = categoryAttributes[0];

function nonEmpty<T>(values: T[] | undefined): T[] | undefined {
  return values && values.length > 0 ? values : undefined;
}

function parseRange(value: string | undefined): { min?: number; max?: number } | undefined {
  if (!value) return undefined;
  const [minText = '', maxText = ''] = value.split(':');
  const min = minText === '' ? undefined : Number(minText);
  const max = maxText === '' ? undefined : Number(maxText);
  const range: { min?: number; max?: number } = {};
  if (min !== undefined && Number.isFinite(min)) range.min = min;
  if (max !== undefined && Number.isFinite(max)) range.max = max;
  return range.min === undefined && range.max === undefined ? undefined : range;
}

function formatRange(range: { min?: number; max?: number }): string {
  return `${range.min ?? ''}:${range.max ?? ''}`;
}

/** InstantSearch UI state (of the primary index) → route state. */
export function stateToRoute(uiState: UiState, context: RoutingContext): RouteState {
  const state = (uiState[context.indexName] ?? {}) as StorefrontIndexUiState;
  const route: RouteState = {};
  if (state.query) route.query = state.query;
  const category = nonEmpty(state.hierarchicalMenu?.[lvl0]);
  if (category) route.category = category;
  const brand = nonEmpty(state.refinementList?.brand);
  if (brand) route.brand = brand;
  const color = nonEmpty(state.refinementList?.color);
  if (color) route.color = color;
  const price = parseRange(state.range?.price);
  if (price) route.price = price;
  const rating = parseRange(state.range?.rating)?.min;
  if (rating !== undefined) route.rating = rating;
  if (state.toggle?.free_shipping) route.freeShipping = true;
  const sort = context.sortOptions.find((option) => option.value === state.sortBy);
  if (sort && sort.value !== context.indexName) route.sort = sort.key;
  if (state.page && state.page > 1) route.page = state.page;
  if (state.hitsPerPage && state.hitsPerPage !== context.hitsPerPageOptions[0]) route.hitsPerPage = state.hitsPerPage;
  if (state.view === 'infinite') route.view = 'infinite';
  return route;
}

/** Route state → InstantSearch UI state (of the primary index). */
export function routeToState(route: RouteState, context: RoutingContext): UiState {
  const state: StorefrontIndexUiState = {};
  if (route.query) state.query = route.query;
  if (route.category?.length) state.hierarchicalMenu = { [lvl0]: route.category };
  if (route.brand?.length || route.color?.length) {
    state.refinementList = {};
    if (route.brand?.length) state.refinementList.brand = route.brand;
    if (route.color?.length) state.refinementList.color = route.color;
  }
  if (route.price || route.rating !== undefined) {
    state.range = {};
    if (route.price) state.range.price = formatRange(route.price);
    if (route.rating !== undefined) state.range.rating = `${route.rating}:`;
  }
  if (route.freeShipping) state.toggle = { free_shipping: true };
  const sort = context.sortOptions.find((option) => option.key === route.sort);
  if (sort) state.sortBy = sort.value;
  if (route.page) state.page = route.page;
  if (route.hitsPerPage) state.hitsPerPage = route.hitsPerPage;
  if (route.view) state.view = route.view;
  return { [context.indexName]: state };
}

/** Route state → path and query string (`/c/home-kitchen/lighting?q=lamp`). */
export function routeToPath(route: RouteState, context: RoutingContext): string {
  const params = new URLSearchParams();
  if (route.query) params.set('q', route.query);
  for (const brand of route.brand ?? []) params.append('brand', brand);
  for (const color of route.color ?? []) params.append('color', color);
  if (route.price) params.set('price', formatRange(route.price));
  if (route.rating !== undefined) params.set('rating', String(route.rating));
  if (route.freeShipping) params.set('free_shipping', 'true');
  if (route.sort) params.set('sort', route.sort);
  if (route.hitsPerPage) params.set('per_page', String(route.hitsPerPage));
  if (route.page) params.set('page', String(route.page));
  if (route.view) params.set('view', route.view);
  const slugs = route.category?.length ? categoryToSlugs(context.categories, route.category) : [];
  const pathname = slugs.length ? `/c/${slugs.map(encodeURIComponent).join('/')}` : '/';
  // URLSearchParams writes spaces as '+', which reads better than %20 in a shared link.
  const search = params.toString();
  return search ? `${pathname}?${search}` : pathname;
}

function positiveInteger(value: string | null, max: number): number | undefined {
  if (value === null || !/^\d{1,7}$/.test(value)) return undefined;
  const number = Number(value);
  return number >= 1 && number <= max ? number : undefined;
}

/** Path and query string → route state; anything malformed or unknown is dropped, never an error. */
export function pathToRoute(pathname: string, search: string, context: RoutingContext): RouteState {
  const params = new URLSearchParams(search);
  const route: RouteState = {};
  const query = params.get('q');
  if (query) route.query = query.slice(0, maxQueryLength);
  const categoryMatch = /^\/c\/(.+?)\/?$/.exec(pathname);
  if (categoryMatch) {
    let slugs: string[];
    try {
      slugs = categoryMatch[1].split('/').map(decodeURIComponent);
    } catch {
      slugs = [];
    }
    const category = slugs.length ? slugsToCategory(context.categories, slugs) : undefined;
    if (category?.length) route.category = category;
  }
  const brand = nonEmpty(params.getAll('brand').filter(Boolean));
  if (brand) route.brand = brand;
  const color = nonEmpty(params.getAll('color').filter(Boolean));
  if (color) route.color = color;
  const price = parseRange(params.get('price') ?? undefined);
  if (price) route.price = price;
  const rating = positiveInteger(params.get('rating'), 5);
  if (rating !== undefined) route.rating = rating;
  if (params.get('free_shipping') === 'true') route.freeShipping = true;
  const sort = params.get('sort');
  if (sort && sort !== 'relevance' && context.sortOptions.some((option) => option.key === sort)) route.sort = sort;
  const hitsPerPage = positiveInteger(params.get('per_page'), 1000);
  if (hitsPerPage !== undefined && context.hitsPerPageOptions.includes(hitsPerPage)) {
    if (hitsPerPage !== context.hitsPerPageOptions[0]) route.hitsPerPage = hitsPerPage;
  }
  const page = positiveInteger(params.get('page'), maxPage);
  if (page !== undefined && page > 1) route.page = page;
  if (params.get('view') === 'infinite') route.view = 'infinite';
  return route;
}

/** The document title for a search: query and category lead, the shop name follows. */
export function routeTitle(route: RouteState, shopName = 'Vitrine'): string {
  const category = route.category?.[route.category.length - 1];
  if (route.query && category) return `“${route.query}” in ${category} – ${shopName}`;
  if (route.query) return `“${route.query}” – ${shopName}`;
  if (category) return `${category} – ${shopName}`;
  return `${shopName} – search the catalogue`;
}

export interface StorefrontRouting {
  /** The `routing` prop of `<InstantSearch>`: history router with a 400 ms write delay plus the mapping above. */
  routing: {
    router: ReturnType<typeof history<RouteState>>;
    stateMapping: { stateToRoute(uiState: UiState): RouteState; routeToState(route: RouteState): UiState };
  };
  /**
   * Writes a pending URL change now. Leaving the search page within 400 ms of the last change (a quick click
   * on a hit) would otherwise drop it, and Back would return to the search before that change.
   */
  flush(): void;
  /**
   * Stops (or resumes) URL writes: the search page detaches its router when it unmounts. Its widgets unmount
   * before InstantSearch disposes of the router, and each removal is a state change the router would write
   * 400 ms later, over the page the shopper went to (a stray `/` in the history and a search title).
   */
  setAttached(attached: boolean): void;
}

/** `serverUrl`: the address rendered on the server, where there is no `window.location` to read. */
export function createRouting(context: RoutingContext, serverUrl?: URL | null): StorefrontRouting {
  const router = history<RouteState>({
    getLocation: () => (typeof window === 'undefined' && serverUrl ? (serverUrl as unknown as Location) : window.location),
    writeDelay: 400,
    // Leaving the search page for a product page must not rewrite the URL the shopper is navigating to.
    cleanUrlOnDispose: false,
    windowTitle: (route) => routeTitle(route),
    createURL: ({ routeState, location }) => `${location.protocol}//${location.host}${routeToPath(routeState, context)}`,
    parseURL: ({ location }) => pathToRoute(location.pathname, location.search, context),
  });
  // The router keeps its timer private; `write` is wrapped to remember what a pending timer would write.
  const timed = router as unknown as { writeTimer?: ReturnType<typeof setTimeout> };
  let lastRoute: RouteState | undefined;
  let attached = true;
  const write = router.write.bind(router);
  router.write = (route: RouteState) => {
    if (!attached) return;
    lastRoute = route;
    write(route);
  };
  return {
    routing: {
      router,
      stateMapping: {
        stateToRoute: (uiState: UiState) => stateToRoute(uiState, context),
        routeToState: (route: RouteState) => routeToState(route, context),
      },
    },
    setAttached(value: boolean) {
      attached = value;
      if (!value && timed.writeTimer !== undefined) {
        clearTimeout(timed.writeTimer);
        timed.writeTimer = undefined;
      }
    },
    flush() {
      if (timed.writeTimer === undefined || !lastRoute) return;
      clearTimeout(timed.writeTimer);
      timed.writeTimer = undefined;
      const path = routeToPath(lastRoute, context);
      if (path !== `${window.location.pathname}${window.location.search}`) {
        window.history.pushState(lastRoute, '', path);
        document.title = routeTitle(lastRoute);
      }
    },
  };
}
