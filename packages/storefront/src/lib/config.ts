/**
 * The storefront's runtime configuration, read at startup from `GET /vitrine.config.json`. The Vitrine server
 * generates that file; a static host can serve the same shape with `"provider": "algolia"` to run the
 * storefront against hosted Algolia without rebuilding.
 */

export type SearchProvider = 'vitrine' | 'algolia';

/** Sort orders the storefront offers besides relevance, each backed by a replica index. */
export interface ReplicaNames {
  /** Standard replica ranked by ascending price. */
  priceAsc?: string;
  /** Standard replica ranked by descending price. */
  priceDesc?: string;
  /** Virtual replica: relevant sort by ascending price ("Best matches, lowest price first"). */
  relevantPriceAsc?: string;
}

export interface StorefrontConfig {
  /** `vitrine`: the API is on the page's own origin. `algolia`: the hosted service for `appId`. */
  provider: SearchProvider;
  appId: string;
  /** A search-only key: it is public, it ships to every browser. */
  searchApiKey: string;
  /** Primary index of products. Default `products`. */
  indexName: string;
  replicas: ReplicaNames;
  insights: {
    /** Send click, conversion and view events. Default true. */
    enabled: boolean;
    /** Load search-insights from a CDN instead of the bundled copy. Default false (Vitrine never needs it). */
    useCdn: boolean;
  };
  /** ISO 4217 code for prices and conversion events. Default `USD`. */
  currency: string;
  /** BCP 47 locale for prices and counts (`Intl.NumberFormat`). Default `en-US`. */
  locale: string;
  display: {
    /** Results as numbered pages or one growing list. Default `pages`. */
    resultsView: 'pages' | 'infinite';
    /** Show the search time ("found in 3ms") after the result count: for the shop's developers. Default false. */
    searchTime: boolean;
  };
  /** Recommendation carousels (product page: related, bought together; home: trending). Default on. */
  recommend: { enabled: boolean };
  querySuggestions: {
    /** Suggestions under the search box. Default on; recent searches are shown either way. */
    enabled: boolean;
    /** Index of query suggestions. Default `<indexName>_query_suggestions`, as the server builds it. */
    indexName: string;
  };
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function requiredString(source: Record<string, unknown>, key: string): string {
  const value = source[key];
  if (typeof value !== 'string' || value.length === 0) {
    throw new ConfigError(`vitrine.config.json: "${key}" must be a non-empty string`);
  }
  return value;
}

function optionalString(source: Record<string, unknown>, key: string, where: string): string | undefined {
  const value = source[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value.length === 0) {
    throw new ConfigError(`vitrine.config.json: "${where}${key}" must be a non-empty string when set`);
  }
  return value;
}

function optionalBoolean(source: Record<string, unknown>, key: string, fallback: boolean, where = 'insights.'): boolean {
  const value = source[key];
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw new ConfigError(`vitrine.config.json: "${where}${key}" must be a boolean`);
  return value;
}

function optionalObject(source: Record<string, unknown>, key: string): Record<string, unknown> {
  const value = source[key] ?? {};
  if (!isObject(value)) throw new ConfigError(`vitrine.config.json: "${key}" must be an object`);
  return value;
}

/** Validates the JSON of `vitrine.config.json` and fills defaults; a mistake names the offending field. */
export function parseStorefrontConfig(json: unknown): StorefrontConfig {
  if (!isObject(json)) throw new ConfigError('vitrine.config.json: expected a JSON object');
  const provider = json.provider ?? 'vitrine';
  if (provider !== 'vitrine' && provider !== 'algolia') {
    throw new ConfigError(`vitrine.config.json: "provider" must be "vitrine" or "algolia", got ${JSON.stringify(provider)}`);
  }
  const replicasIn = json.replicas ?? {};
  if (!isObject(replicasIn)) throw new ConfigError('vitrine.config.json: "replicas" must be an object');
  const insightsIn = json.insights ?? {};
  if (!isObject(insightsIn)) throw new ConfigError('vitrine.config.json: "insights" must be an object');
  const currency = optionalString(json, 'currency', '') ?? 'USD';
  if (!/^[A-Z]{3}$/.test(currency)) throw new ConfigError('vitrine.config.json: "currency" must be an ISO 4217 code like "USD"');
  const indexName = optionalString(json, 'indexName', '') ?? 'products';
  const locale = optionalString(json, 'locale', '') ?? 'en-US';
  try {
    new Intl.NumberFormat(locale);
  } catch {
    throw new ConfigError(`vitrine.config.json: "locale" must be a BCP 47 language tag like "en-US", got ${JSON.stringify(locale)}`);
  }
  const displayIn = optionalObject(json, 'display');
  const resultsView = displayIn.resultsView ?? 'pages';
  if (resultsView !== 'pages' && resultsView !== 'infinite') {
    throw new ConfigError('vitrine.config.json: "display.resultsView" must be "pages" or "infinite"');
  }
  const recommendIn = optionalObject(json, 'recommend');
  const suggestionsIn = optionalObject(json, 'querySuggestions');
  return {
    provider,
    appId: requiredString(json, 'appId'),
    searchApiKey: requiredString(json, 'searchApiKey'),
    indexName,
    replicas: {
      priceAsc: optionalString(replicasIn, 'priceAsc', 'replicas.'),
      priceDesc: optionalString(replicasIn, 'priceDesc', 'replicas.'),
      relevantPriceAsc: optionalString(replicasIn, 'relevantPriceAsc', 'replicas.'),
    },
    insights: {
      enabled: optionalBoolean(insightsIn, 'enabled', true),
      useCdn: optionalBoolean(insightsIn, 'useCdn', false),
    },
    currency,
    locale,
    display: { resultsView, searchTime: optionalBoolean(displayIn, 'searchTime', false, 'display.') },
    recommend: { enabled: optionalBoolean(recommendIn, 'enabled', true, 'recommend.') },
    querySuggestions: {
      enabled: optionalBoolean(suggestionsIn, 'enabled', true, 'querySuggestions.'),
      indexName: optionalString(suggestionsIn, 'indexName', 'querySuggestions.') ?? `${indexName}_query_suggestions`,
    },
  };
}

/** A sort the shopper can pick: `key` is what the URL shows (`?sort=price_asc`), `value` the index name. */
export interface SortOption {
  key: string;
  label: string;
  value: string;
}

/** Relevance first (the primary index, left out of URLs), then every replica the config names. */
export function sortOptions(config: StorefrontConfig): SortOption[] {
  const options: SortOption[] = [{ key: 'relevance', label: 'Most relevant', value: config.indexName }];
  const { priceAsc, priceDesc, relevantPriceAsc } = config.replicas;
  if (priceAsc) options.push({ key: 'price_asc', label: 'Price: low to high', value: priceAsc });
  if (priceDesc) options.push({ key: 'price_desc', label: 'Price: high to low', value: priceDesc });
  // A relevant sort keeps only the best matches, then sorts them: named for what the shopper gets.
  if (relevantPriceAsc) options.push({ key: 'relevant_price_asc', label: 'Best matches, lowest price first', value: relevantPriceAsc });
  return options;
}
