/**
 * What every page needs, created once at startup (see main.tsx) and handed down through React context.
 */
import { createContext, useContext, useSyncExternalStore } from 'react';
import type { CategoryNode } from './catalog.ts';
import type { CartLine, CartStore } from './cart.ts';
import type { StorefrontConfig } from './config.ts';
import type { Insights } from './insights.ts';
import type { PageState } from './page-state.ts';
import type { SearchClient } from './search-client.ts';

export interface Services {
  config: StorefrontConfig;
  searchClient: SearchClient;
  insights: Insights | undefined;
  categories: CategoryNode[];
  cart: CartStore;
  /**
   * What the server rendered the first page with (search results, the product record and its variants). Each part is taken
   * once, by the page that hydrates: a page shown later must not start from the first page's data.
   */
  initialData: Pick<PageState, 'search' | 'product' | 'featured' | 'variants'>;
}

/** Takes (and forgets) one part of the data the page was server-rendered with. */
export function takeInitialData<K extends keyof Services['initialData']>(services: Services, key: K): Services['initialData'][K] {
  const value = services.initialData[key];
  delete services.initialData[key];
  return value;
}

export const ServicesContext = createContext<Services | null>(null);

export function useServices(): Services {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('useServices() needs <ServicesContext.Provider> (see main.tsx)');
  return services;
}

const noLines: CartLine[] = [];
const subscribeToNothing = () => () => {};

/**
 * False on the server and while a server-rendered page hydrates, true once the app is live (at once on a page
 * rendered in the browser). Buttons that only the script can handle start disabled, so a click before then is
 * not silently lost.
 */
export function useAppLive(): boolean {
  return useSyncExternalStore(subscribeToNothing, () => true, () => false);
}

/** The cart's lines; empty while a server-rendered page hydrates (the server knows no cart), then the browser's. */
export function useCartLines(): CartLine[] {
  const { cart } = useServices();
  return useSyncExternalStore(cart.subscribe, cart.getLines, () => noLines);
}
