/**
 * The console's one seam to a search provider: every client it uses is created here, from the configuration
 * the host page hands it (`ConsoleConfig`: the storefront passes its `vitrine.config.json`). The provider is
 * chosen at run time, so the same console works against a Vitrine server (same origin) or hosted Algolia.
 */
import type { AbtestingClient, Algoliasearch, RecommendClient } from 'algoliasearch';
import { liteClient } from 'algoliasearch/lite';
import type { LiteClient } from 'algoliasearch/lite';
import { createMemoryCache, createNullCache } from '@algolia/client-common';

/** What the console needs to know of the shop; a storefront configuration has these fields and more. */
export interface ConsoleConfig {
  /** `vitrine`: the API is on the page's own origin. `algolia`: the hosted service for `appId`. */
  provider: 'vitrine' | 'algolia';
  appId: string;
  /** The shop's public search key (product names in the analytics tables). */
  searchApiKey: string;
  /** The index the console opens on. */
  indexName: string;
}

/** The parts of `window.location` the clients need. */
export interface PageOrigin {
  host: string;
  protocol: string;
  origin: string;
}

export type AdminClient = Algoliasearch;
export type ShopClient = LiteClient;

function sameOriginHost(page: PageOrigin) {
  const protocol = page.protocol.replace(':', '') === 'https' ? ('https' as const) : ('http' as const);
  return [{ url: page.host, protocol, accept: 'readWrite' as const }];
}

/**
 * The full client (admin methods) with the operator's key. Loaded on demand: the full client is three times the
 * lite one, and the console's sign-in form needs none of it.
 */
export async function createAdminClient(config: ConsoleConfig, page: PageOrigin, apiKey: string): Promise<AdminClient> {
  const { algoliasearch } = await import('algoliasearch');
  // A console must see its own writes: no cached answers. Host states stay in memory, not in localStorage.
  // The browser client's "connect" timeout runs until the answer's headers arrive, so it must cover uploading an
  // import batch of megabytes and the server's durable write: one second (the default) fails a busy server.
  const options = {
    // The key in headers, not in the query string (the browser client's default, which spares hosted Algolia a
    // CORS preflight): an address, unlike a header, ends up in proxies' access logs and the browser's history.
    authMode: 'WithinHeaders' as const,
    responsesCache: createNullCache(),
    requestsCache: createNullCache(),
    hostsCache: createMemoryCache(),
    timeouts: { connect: 30_000, read: 30_000, write: 120_000 },
  };
  if (config.provider === 'algolia') return algoliasearch(config.appId, apiKey, options);
  return algoliasearch(config.appId, apiKey, { ...options, hosts: sameOriginHost(page) });
}

/**
 * The recommend client of a console session (Recommend rules): the same application, key, hosts, caches and
 * timeouts as `client`, so it answers from the same server and never from a cache.
 */
export function adminRecommendClient(client: AdminClient): RecommendClient {
  const { hosts, timeouts, requestsCache, responsesCache, hostsCache } = client.transporter;
  return client.initRecommend({ options: { authMode: 'WithinHeaders', hosts, timeouts, requestsCache, responsesCache, hostsCache } });
}

/**
 * The abtesting client of a console session (`/2/abtests`): Vitrine answers it on its own origin, with the
 * session's hosts, key, caches and timeouts; hosted Algolia on its analytics host (the US region, as
 * `analyticsHost`).
 */
export function adminAbtestingClient(client: AdminClient, config: ConsoleConfig): AbtestingClient {
  const { hosts, timeouts, requestsCache, responsesCache, hostsCache } = client.transporter;
  const options = { authMode: 'WithinHeaders' as const, timeouts, requestsCache, responsesCache, hostsCache };
  return config.provider === 'vitrine' ? client.initAbtesting({ options: { ...options, hosts } }) : client.initAbtesting({ region: 'us', options });
}

/** A client with the shop's public search key, as shoppers search (product names for the analytics tables). */
export function createShopClient(config: ConsoleConfig, page: PageOrigin): ShopClient {
  if (config.provider === 'algolia') return liteClient(config.appId, config.searchApiKey);
  return liteClient(config.appId, config.searchApiKey, { hosts: sameOriginHost(page) });
}

/**
 * Where the Analytics API (`/2/...`) is: Vitrine's own origin, or hosted Algolia's analytics host (the US region;
 * a shop in another region points a Vitrine proxy at it instead).
 */
export function analyticsHost(config: ConsoleConfig, page: PageOrigin): string {
  return config.provider === 'vitrine' ? page.origin : 'https://analytics.algolia.com';
}
