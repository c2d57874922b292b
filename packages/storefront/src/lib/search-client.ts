/**
 * The one seam between the storefront and its search provider: nothing else creates a search client.
 * The provider is chosen at runtime by `vitrine.config.json`, so the same build runs against a Vitrine server
 * (same origin) or hosted Algolia.
 */
import { createMemoryCache } from '@algolia/client-common';
import { liteClient } from 'algoliasearch/lite';
import type { LiteClient } from 'algoliasearch/lite';
import { ConfigError, parseStorefrontConfig } from './config.ts';
import type { StorefrontConfig } from './config.ts';

export type SearchClient = LiteClient;

/** The parts of `window.location` the client needs (a parameter so tests and non-browser callers can pass one). */
export interface PageOrigin {
  host: string;
  protocol: string;
  origin: string;
}

/** Fetches and validates `/vitrine.config.json`; any failure is a `ConfigError` the boot screen can show. */
export async function loadConfig(fetchImpl: typeof fetch = fetch): Promise<StorefrontConfig> {
  let response: Response;
  try {
    response = await fetchImpl('/vitrine.config.json', { headers: { accept: 'application/json' } });
  } catch (cause) {
    throw new ConfigError(`vitrine.config.json could not be fetched: ${String(cause)}`);
  }
  if (!response.ok) throw new ConfigError(`vitrine.config.json could not be fetched: HTTP ${response.status}`);
  let json: unknown;
  try {
    json = await response.json();
  } catch {
    throw new ConfigError('vitrine.config.json is not valid JSON');
  }
  return parseStorefrontConfig(json);
}

/**
 * Creates the search client. For `vitrine` the only host is the page's own origin, so the storefront needs no
 * CORS and works behind any reverse proxy; for `algolia` the client's default hosts for the app id are used.
 */
export function createSearchClient(config: StorefrontConfig, page: PageOrigin): SearchClient {
  // The hosts' state in memory, not the client's default localStorage cache: that one reads the state after a
  // `setTimeout(0)` on every search, so each keystroke's request waited behind whatever the page had queued
  // (the rendering of the search that had just started: 19-22 ms, bench:keystroke). What it adds, remembering
  // a host that failed across page loads, matters to hosted Algolia's several hosts only, within a page. Not
  // serialised: the client keeps a failed host's state as an object with methods.
  const hostsCache = createMemoryCache({ serializable: false });
  if (config.provider === 'algolia') return liteClient(config.appId, config.searchApiKey, { hostsCache });
  const protocol = page.protocol.replace(':', '') === 'https' ? 'https' : 'http';
  return liteClient(config.appId, config.searchApiKey, {
    hosts: [{ url: page.host, protocol, accept: 'readWrite' }],
    hostsCache,
  });
}

/** Where insights events go: Vitrine's `/1/events` on the same origin, or Algolia's default endpoint. */
export function insightsHost(config: StorefrontConfig, page: PageOrigin): string | undefined {
  return config.provider === 'vitrine' ? page.origin : undefined;
}
