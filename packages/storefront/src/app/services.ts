/**
 * What every page needs, created once at startup (see main.tsx) and handed down through React context.
 */
import { createContext, useContext, useSyncExternalStore } from 'react';
import type { CategoryNode } from '../lib/catalog.ts';
import type { CartLine, CartStore } from '../lib/cart.ts';
import type { StorefrontConfig } from '../lib/config.ts';
import type { Insights } from '../lib/insights.ts';
import type { SearchClient } from '../lib/search-client.ts';

export interface Services {
  config: StorefrontConfig;
  searchClient: SearchClient;
  insights: Insights | undefined;
  categories: CategoryNode[];
  cart: CartStore;
}

export const ServicesContext = createContext<Services | null>(null);

export function useServices(): Services {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('useServices() needs <ServicesContext.Provider> (see main.tsx)');
  return services;
}

export function useCartLines(): CartLine[] {
  const { cart } = useServices();
  return useSyncExternalStore(cart.subscribe, cart.getLines, cart.getLines);
}
