/** What every console screen gets from the shell: the admin client, what the key may do, the chosen index. */
import { createContext, useContext } from 'react';
import type { AdminClient } from '../lib/search-client.ts';
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

export function useConsole(): ConsoleContextValue {
  const value = useContext(ConsoleContext);
  if (!value) throw new Error('useConsole() needs <ConsoleContext.Provider> (see ConsolePage.tsx)');
  return value;
}
