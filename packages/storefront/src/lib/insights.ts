/**
 * Click, conversion and view events. search-insights is bundled (loaded lazily, so a shop that turns insights off
 * never downloads it) and pointed at the Vitrine server's `/1/events` on the same origin; a config with
 * `insights.useCdn` lets InstantSearch load it from its CDN instead, for hosted Algolia setups that want that.
 *
 * The shopper is identified by an anonymous token kept in localStorage, so events from one browser join up across
 * visits without any personal data. A first-party cookie (`userTokenCookie`) repeats it for the shop's own server,
 * so a server-rendered page is searched as this browser's searches are (A/B test variant, personalization).
 */
import type { InsightsClient } from 'search-insights';
import { userTokenCookie, type Product } from '@vitrine/protocol';
import type { StorefrontConfig } from './config.ts';

/** The part of InstantSearch's insights event this module reads. */
interface InstantSearchInsightsEvent {
  insightsMethod?: string;
  payload: unknown;
  eventModifier?: string;
}

export const userTokenStorageKey = 'vitrine.userToken';
const queryIDStorageKey = 'vitrine.queryIDs';
const userTokenPattern = /^[a-zA-Z0-9_-]{1,64}$/;

/** Our own token format; Algolia accepts `[a-zA-Z0-9_=/+-]{1,129}`, we keep to a stricter, URL-safe subset. */
export function isValidUserToken(token: unknown): token is string {
  return typeof token === 'string' && userTokenPattern.test(token);
}

/** `anon-` and 24 random hex digits (96 bits: collisions between shoppers are not a concern). */
export function createUserToken(randomBytes: (bytes: Uint8Array) => Uint8Array = (b) => crypto.getRandomValues(b)): string {
  const bytes = randomBytes(new Uint8Array(12));
  return `anon-${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

/** The persisted token, or a new one stored for next time; storage failures (private mode) give a session token. */
export function getOrCreateUserToken(storage: Pick<Storage, 'getItem' | 'setItem'> | undefined): string {
  try {
    const existing = storage?.getItem(userTokenStorageKey);
    if (isValidUserToken(existing)) return existing;
  } catch {
    // Storage can throw when disabled; a fresh token still works for this visit.
  }
  const token = createUserToken();
  try {
    storage?.setItem(userTokenStorageKey, token);
  } catch {
    // Same as above: not persisted, still usable.
  }
  return token;
}

/**
 * Repeats the token in a first-party cookie for the shop's server (pages it renders), a year long. Failures
 * (cookies disabled) only cost the rendered page its personalization.
 */
export function shareUserTokenWithServer(token: string, doc: Pick<Document, 'cookie'> | undefined, secure: boolean): void {
  try {
    if (doc) doc.cookie = `${userTokenCookie}=${encodeURIComponent(token)}; Path=/; Max-Age=31536000; SameSite=Lax${secure ? '; Secure' : ''}`;
  } catch {
    // As for storage: the token still works for this browser's own searches.
  }
}

/** One product of an order or cart line, for conversion events. */
export interface ConvertedItem {
  objectID: string;
  price: number;
  quantity: number;
  /** The search that led to the product, when there was one. */
  queryID?: string;
}

export interface Insights {
  userToken: string;
  /** The `insights` prop of `<InstantSearch>` (the middleware sends clicks with queryID and position). */
  middleware: {
    insightsClient?: InsightsClient;
    insightsInitParams: Record<string, unknown>;
    onEvent: (event: InstantSearchInsightsEvent) => void;
  };
  rememberQueryID(objectID: string, queryID: string | undefined): void;
  queryIDFor(objectID: string): string | undefined;
  productViewed(product: Pick<Product, 'objectID'>): void;
  /** A click on a recommended item: after-search when the recommendations carried a queryID, plain otherwise. */
  recommendationClicked(click: { objectID: string; position: number; queryID?: string; eventName: string }): void;
  addedToCart(item: ConvertedItem): void;
  purchased(items: ConvertedItem[]): void;
}

type UsageEvent = { eventType?: unknown };

/**
 * The insights middleware also posts InstantSearch usage reports (`eventType: "instantsearch"`) through the
 * client. They are not shopper events, the Vitrine server rightly rejects them, and the shop has no reason to
 * send them anywhere: drop them here and pass everything else through.
 */
function withoutUsageReports(client: InsightsClient): InsightsClient {
  const wrapped = ((method: string, ...args: unknown[]) => {
    if (method === 'sendEvents' && Array.isArray(args[0]) && (args[0] as UsageEvent[]).some((event) => event.eventType === 'instantsearch')) {
      return undefined;
    }
    return (client as (method: string, ...args: unknown[]) => unknown)(method, ...args);
  }) as InsightsClient;
  wrapped.version = client.version;
  return wrapped;
}

/**
 * The hits of a server-rendered page carry no queryID (the server renders for no one in particular and logs no
 * search), yet InstantSearch sends a click on one as a click after a search, with its position: an event both
 * the Vitrine server and hosted Algolia refuse (422). It goes as what it is, a click on the product.
 */
function withoutMissingSearch(method: string, payload: Record<string, unknown>): [string, Record<string, unknown>] {
  if ((method === 'clickedObjectIDsAfterSearch' || method === 'convertedObjectIDsAfterSearch') && !payload.queryID) {
    const { queryID: _queryID, positions: _positions, ...rest } = payload;
    return [method.slice(0, -'AfterSearch'.length), rest];
  }
  return [method, payload];
}

const cdnVersion = '2.17.3';

/**
 * The standard loader snippet, written out: a queueing `window.aa` now, the CDN script replaying the queue when
 * it arrives. Only used with `insights.useCdn`.
 */
function installCdnSnippet(): InsightsClient {
  const target = globalThis as unknown as { aa?: InsightsClient; AlgoliaAnalyticsObject?: string };
  if (!target.aa) {
    const queue: unknown[][] = [];
    const stub = ((...args: unknown[]) => {
      queue.push(args);
    }) as InsightsClient & { queue: unknown[][] };
    stub.queue = queue;
    stub.version = cdnVersion;
    target.AlgoliaAnalyticsObject = 'aa';
    target.aa = stub;
    const script = document.createElement('script');
    script.async = true;
    script.src = `https://cdn.jsdelivr.net/npm/search-insights@${cdnVersion}/dist/search-insights.min.js`;
    document.head.appendChild(script);
  }
  return target.aa;
}

function readQueryIDs(): Record<string, string> {
  try {
    const parsed: unknown = JSON.parse(sessionStorage.getItem(queryIDStorageKey) ?? '{}');
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, string>) : {};
  } catch {
    return {};
  }
}

/**
 * Sets up insights for the storefront, or returns undefined when the config turns them off. `host` is the
 * events endpoint origin (Vitrine: the page's origin; hosted Algolia: undefined for the default).
 */
export async function createInsights(config: StorefrontConfig, host: string | undefined): Promise<Insights | undefined> {
  if (!config.insights.enabled) return undefined;
  const userToken = getOrCreateUserToken(globalThis.localStorage);
  shareUserTokenWithServer(userToken, globalThis.document, globalThis.location?.protocol === 'https:');
  const client = config.insights.useCdn
    ? installCdnSnippet()
    : withoutUsageReports((await import('search-insights')).default);
  const initParams = { userToken, useCookie: false, ...(host ? { host } : {}) };
  // Initialised here, not only by the InstantSearch middleware: product, cart and checkout pages send events
  // without any InstantSearch on the page.
  client('init', { appId: config.appId, apiKey: config.searchApiKey, ...initParams });
  const send = (method: string, payload: Record<string, unknown>) => {
    try {
      (client as (method: string, payload: unknown) => unknown)(method, payload);
    } catch (error) {
      // Analytics must never break shopping (an add to cart or an order goes on without its event).
      console.warn('insights event not sent:', error);
    }
  };
  const index = config.indexName;
  const total = (items: ConvertedItem[]) => Math.round(items.reduce((sum, item) => sum + item.price * item.quantity, 0) * 100) / 100;
  const objectData = (items: ConvertedItem[]) =>
    items.map((item) => ({ price: item.price, quantity: item.quantity, ...(item.queryID ? { queryID: item.queryID } : {}) }));

  return {
    userToken,
    middleware: {
      insightsClient: client,
      insightsInitParams: initParams,
      onEvent(event) {
        // InstantSearch's automatic ('internal') events are a view of every result set and a click on every
        // filter: one event per keystroke, each a durable write on the Vitrine server. The shop sends the events
        // that mean something (product clicks, product views, conversions) and skips those.
        if (event.eventModifier === 'internal' || !event.insightsMethod) return;
        send(...withoutMissingSearch(event.insightsMethod, event.payload as Record<string, unknown>));
      },
    },
    rememberQueryID(objectID, queryID) {
      if (!queryID) return;
      try {
        const ids = readQueryIDs();
        ids[objectID] = queryID;
        sessionStorage.setItem(queryIDStorageKey, JSON.stringify(ids));
      } catch {
        // Without storage the conversion is sent without a queryID: still counted, just not attributed.
      }
    },
    queryIDFor(objectID) {
      const queryID = readQueryIDs()[objectID];
      return typeof queryID === 'string' && /^[a-f0-9]{32}$/i.test(queryID) ? queryID : undefined;
    },
    productViewed(product) {
      send('viewedObjectIDs', { eventName: 'Product Viewed', index, objectIDs: [product.objectID] });
    },
    recommendationClicked({ objectID, position, queryID, eventName }) {
      if (queryID) send('clickedObjectIDsAfterSearch', { eventName, index, queryID, objectIDs: [objectID], positions: [position] });
      else send('clickedObjectIDs', { eventName, index, objectIDs: [objectID] });
    },
    addedToCart(item) {
      const base = {
        eventName: 'Product Added To Cart',
        index,
        objectIDs: [item.objectID],
        objectData: objectData([item]),
        value: total([item]),
        currency: config.currency,
      };
      if (item.queryID) send('addedToCartObjectIDsAfterSearch', { ...base, queryID: item.queryID });
      else send('addedToCartObjectIDs', base);
    },
    purchased(items) {
      if (items.length === 0) return;
      // The events API takes at most 20 objectIDs per event: a large order is sent in slices.
      for (let start = 0; start < items.length; start += 20) {
        const slice = items.slice(start, start + 20);
        const payload = {
          eventName: 'Order Placed',
          index,
          objectIDs: slice.map((item) => item.objectID),
          objectData: objectData(slice),
          value: total(slice),
          currency: config.currency,
        };
        send(slice.some((item) => item.queryID) ? 'purchasedObjectIDsAfterSearch' : 'purchasedObjectIDs', payload);
      }
    },
  };
}
