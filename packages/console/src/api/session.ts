/**
 * The operator's API key for this tab: kept in sessionStorage only (never localStorage, never a URL, never
 * logged), so it is gone when the tab closes and "Sign out" forgets it at once. The console and the analytics
 * dashboard share it, and re-render when it changes.
 */
import { useSyncExternalStore } from 'react';

export const keyStorageKey = 'vitrine.admin.apiKey';

const listeners = new Set<() => void>();
// Without sessionStorage (a locked-down browser) the key lives in memory for this page only.
let memoryKey = '';

export function readKey(): string {
  try {
    return sessionStorage.getItem(keyStorageKey) ?? '';
  } catch {
    return memoryKey;
  }
}

/** Stores the key (or forgets it with `undefined`) and tells every subscriber. */
export function storeKey(key: string | undefined): void {
  memoryKey = key ?? '';
  try {
    if (key) sessionStorage.setItem(keyStorageKey, key);
    else sessionStorage.removeItem(keyStorageKey);
  } catch {
    // Kept in memoryKey only.
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useApiKey(): string {
  return useSyncExternalStore(subscribe, readKey, () => '');
}
