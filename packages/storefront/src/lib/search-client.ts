/**
 * The one seam between the storefront and its search provider: nothing else creates a search client.
 * The provider is chosen at runtime by `vitrine.config.json`, so the same build runs against a Vitrine server
 * (same origin) or hosted Algolia.
 */
import { liteClient } from 'algoliasearch/lite';
import type { LiteClient } from 'algoliasearch/lite';
import type { Algoliasearch, RecommendClient } from 'algoliasearch';
// Already part of the lite client's bundle: importing it here costs the search page nothing.
import { createMemoryCache, createNullCache } from '@algolia/client-common';
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
  if (config.provider === 'algolia') return liteClient(config.appId, config.searchApiKey);
  const protocol = page.protocol.replace(':', '') === 'https' ? 'https' : 'http';
  return liteClient(config.appId, config.searchApiKey, {
    hosts: [{ url: page.host, protocol, accept: 'readWrite' }],
  });
}

export type AdminClient = Algoliasearch;

/**
 * The full client (admin methods) for the merchant console, with the operator's key. Loaded on demand: the full
 * client is three times the lite one, and shoppers never need it. Same hosts as the search client.
 */
export async function createAdminClient(config: StorefrontConfig, page: PageOrigin, apiKey: string): Promise<AdminClient> {
  const { algoliasearch } = await import('algoliasearch');
  // A console must see its own writes: no cached answers. Host states stay in memory, not in localStorage.
  // The browser client's "connect" timeout runs until the answer's headers arrive, so it must cover uploading an
  // import batch of megabytes and the server's durable write: one second (the default) fails a busy server.
  const caches = {
    // The key in headers, not in the query string (the browser client's default, which spares hosted Algolia a
    // CORS preflight): an address, unlike a header, ends up in proxies' access logs and the browser's history.
    authMode: 'WithinHeaders' as const,
    responsesCache: createNullCache(),
    requestsCache: createNullCache(),
    hostsCache: createMemoryCache(),
    timeouts: { connect: 30_000, read: 30_000, write: 120_000 },
  };
  if (config.provider === 'algolia') return algoliasearch(config.appId, apiKey, caches);
  const protocol = page.protocol.replace(':', '') === 'https' ? 'https' : 'http';
  return algoliasearch(config.appId, apiKey, {
    ...caches,
    hosts: [{ url: page.host, protocol, accept: 'readWrite' }],
  });
}

/**
 * The recommend client of a console session (Recommend rules): the same application, key, hosts, caches and
 * timeouts as `client`, so it answers from the same server and never from a cache.
 */
export function adminRecommendClient(client: AdminClient): RecommendClient {
  const { hosts, timeouts, requestsCache, responsesCache, hostsCache } = client.transporter;
  return client.initRecommend({ options: { authMode: 'WithinHeaders', hosts, timeouts, requestsCache, responsesCache, hostsCache } });
}

/** Where insights events go: Vitrine's `/1/events` on the same origin, or Algolia's default endpoint. */
export function insightsHost(config: StorefrontConfig, page: PageOrigin): string | undefined {
  return config.provider === 'vitrine' ? page.origin : undefined;
}

/**
 * Where the Analytics API (`/2/...`) is: Vitrine's own origin, or hosted Algolia's analytics host (the US region;
 * a shop in another region points a Vitrine proxy at it instead).
 */
export function analyticsHost(config: StorefrontConfig, page: PageOrigin): string {
  return config.provider === 'vitrine' ? page.origin : 'https://analytics.algolia.com';
}
