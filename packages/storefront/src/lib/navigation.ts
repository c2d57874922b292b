/**
 * A tiny page router: the storefront has six kinds of page (search, product, cart, checkout, help, the
 * merchant console under `/admin`), told apart by the path alone. Search URLs (`/`, `/c/…`) are written by InstantSearch's history router; this module only moves
 * between kinds of page and tells React when the kind changes (links, back/forward).
 */
import { createContext, useContext, useSyncExternalStore } from 'react';
import type { MouseEvent as ReactMouseEvent } from 'react';
import { parseProductPath, slugsToCategory } from './catalog.ts';
import type { CategoryNode } from './catalog.ts';
import { saveScrollPosition } from './scroll-memory.ts';

export type Page =
  | { kind: 'search' }
  | { kind: 'product'; objectID: string }
  | { kind: 'cart' }
  | { kind: 'checkout' }
  | { kind: 'help' }
  | { kind: 'console' }
  | { kind: 'notFound' };

const navigateEvent = 'vitrine:navigate';

/** The category slugs of a `/c/…` path, or undefined for another path (or one that does not decode). */
export function categoryPathSlugs(pathname: string): string[] | undefined {
  const match = /^\/c\/(.+?)\/?$/.exec(pathname);
  if (!match) return undefined;
  try {
    return match[1].split('/').map(decodeURIComponent);
  } catch {
    return [];
  }
}

/**
 * The kind of page a path shows. With the category tree, a `/c/…` path that names no category is "not found"
 * (without it, as when the tree could not be loaded, such a path shows the whole catalogue).
 */
export function pageFor(pathname: string, categories: CategoryNode[] = []): Page {
  if (pathname === '/' || pathname === '/search' || pathname === '/search/' || pathname === '/index.html') return { kind: 'search' };
  const slugs = categoryPathSlugs(pathname);
  if (slugs !== undefined) {
    const known = categories.length === 0 || (slugs.length > 0 && slugsToCategory(categories, slugs) !== undefined);
    return known ? { kind: 'search' } : { kind: 'notFound' };
  }
  if (pathname === '/cart' || pathname === '/cart/') return { kind: 'cart' };
  if (pathname === '/checkout' || pathname === '/checkout/') return { kind: 'checkout' };
  if (pathname === '/help' || pathname === '/help/') return { kind: 'help' };
  // Everything under /admin is the merchant console's (@vitrine/console routes its own screens).
  if (pathname === '/admin' || pathname.startsWith('/admin/')) return { kind: 'console' };
  const objectID = parseProductPath(pathname);
  if (objectID !== undefined) return { kind: 'product', objectID };
  return { kind: 'notFound' };
}

/**
 * The address being rendered on the server (there is no `window` there). In the browser it is absent: the page
 * is `window.location`, and the first render of a hydrating page reads the same address the server did.
 */
export const ServerUrlContext = createContext<URL | null>(null);

/** A string that changes only when the kind of page (or the product) changes, so search URL updates don't re-render the app. */
function pageKey(pathname: string, categories: CategoryNode[]): string {
  const page = pageFor(pathname, categories);
  if (page.kind === 'product') return `product:${page.objectID}`;
  return page.kind;
}

function subscribe(listener: () => void): () => void {
  window.addEventListener('popstate', listener);
  window.addEventListener(navigateEvent, listener);
  return () => {
    window.removeEventListener('popstate', listener);
    window.removeEventListener(navigateEvent, listener);
  };
}

/** The current page; re-renders the caller when the shopper moves to another page. */
export function usePage(categories: CategoryNode[]): Page {
  const serverUrl = useContext(ServerUrlContext);
  const key = useSyncExternalStore(
    subscribe,
    () => pageKey(window.location.pathname, categories),
    () => pageKey(serverUrl ? serverUrl.pathname : window.location.pathname, categories),
  );
  if (key.startsWith('product:')) return { kind: 'product', objectID: key.slice('product:'.length) };
  return { kind: key } as Page;
}

/** History entries pushed here are marked, so a page can tell "the shopper came from inside the shop". */
const inAppMarker = { vitrine: true };

const beforeNavigate = new Set<() => void>();

/** Runs `callback` before each in-app navigation (the search page flushes its pending URL write). */
export function onBeforeNavigate(callback: () => void): () => void {
  beforeNavigate.add(callback);
  return () => beforeNavigate.delete(callback);
}

let arrivedByHistory = false;
if (typeof window !== 'undefined') {
  // The shop puts pages back itself once their content is there; the browser's own restoration would jump
  // before the results are rendered.
  window.history.scrollRestoration = 'manual';
  window.addEventListener('popstate', () => {
    arrivedByHistory = true;
  });
}

/** True when the current page was reached by Back or Forward (its saved scroll position then applies). */
export function cameByHistory(): boolean {
  return arrivedByHistory;
}

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  for (const callback of beforeNavigate) callback();
  saveScrollPosition(currentUrl(), window.scrollY);
  arrivedByHistory = false;
  if (options.replace) window.history.replaceState(inAppMarker, '', to);
  else window.history.pushState(inAppMarker, '', to);
  window.scrollTo(0, 0);
  window.dispatchEvent(new Event(navigateEvent));
}

/** The current address without origin, as scroll positions are keyed. */
export function currentUrl(): string {
  return `${window.location.pathname}${window.location.search}`;
}

/** Click handler for in-app links: plain left clicks navigate in place, modified clicks keep the browser's behaviour. */
export function handleLinkClick(event: ReactMouseEvent<HTMLAnchorElement>, to: string): void {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  navigate(to);
}

/** True when the current history entry was reached by a link inside the shop (so Back stays in the shop). */
export function cameFromInsideShop(): boolean {
  const state: unknown = window.history.state;
  return typeof state === 'object' && state !== null && (state as { vitrine?: unknown }).vitrine === true;
}
