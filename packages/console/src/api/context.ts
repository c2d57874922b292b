/**
 * What every console screen gets from the shell: the shop's configuration (always), and once signed in, the
 * admin client, what the key may do and the chosen index.
 */
import { createContext, useContext } from 'react';
import type { AdminClient, ConsoleConfig, ShopClient } from './client.ts';
import type { Access } from './access.ts';

export interface ConsoleContextValue {
  client: AdminClient;
  access: Access;
  /** The index the screens work on (records, import, configuration, synonyms, rules). */
  indexName: string;
  setIndexName(name: string): void;
  /** Index names the key may see, for pickers; refreshed after creating or deleting one. */
  indexNames: string[];
  reloadIndexNames(): void;
}

export const ConsoleContext = createContext<ConsoleContextValue | null>(null);

/** The signed-in session; screens are only rendered inside one (the analytics screen also outside, see ConsoleApp). */
export function useConsole(): ConsoleContextValue {
  const value = useContext(ConsoleContext);
  if (!value) throw new Error('useConsole() needs <ConsoleContext.Provider> (see ConsoleApp.tsx)');
  return value;
}

/** The signed-in session if there is one. */
export function useOptionalConsole(): ConsoleContextValue | undefined {
  return useContext(ConsoleContext) ?? undefined;
}

export interface ConsoleSetup {
  config: ConsoleConfig;
  /** The shop's own search client (public key). */
  shop: ShopClient;
}

export const SetupContext = createContext<ConsoleSetup | null>(null);

export function useSetup(): ConsoleSetup {
  const value = useContext(SetupContext);
  if (!value) throw new Error('useSetup() needs <SetupContext.Provider> (see ConsoleApp.tsx)');
  return value;
}
