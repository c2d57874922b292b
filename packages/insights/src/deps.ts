/**
 * What insights needs from its host (`InsightsDeps`, wired by the server's app) and what can be tuned
 * (`InsightsOptions`, every field with its default). Insights never touches the host's store directly:
 * searches and record reads go through these functions, so it works the same over any index storage.
 */
import type { IndexRecord, IndexSettings, RecommendRule, SearchParams, SearchResponse } from '@vitrine/protocol';

type MaybePromise<T> = T | Promise<T>;

/**
 * The authenticated caller of a request, as the host sees it. Insights asks it only whether an index may be
 * read, and hands it back to `search` / `getObjects`, which apply what the host attaches to it (forced filters).
 */
export interface InsightsCaller {
  /** Throws the host's error (a 403) when the caller may not read `indexName`. */
  requireIndex(indexName: string): void;
  /** Equal for two callers that are shown the same records (the host's forced filter): part of cache keys. */
  readonly visibilityKey: string;
}

export interface InsightsDeps<C extends InsightsCaller = InsightsCaller> {
  /** Folder of `insights.sqlite` (created if missing). */
  dataDir: string;
  /**
   * Runs a search on an index as the search routes do, without analytics logging; throws the usual 404 for
   * unknown indices. `caller`, when given, is the request's: its forced filters and parameters must apply (the
   * recommendations a restricted key sees go through it). Internal searches pass none.
   */
  search(indexName: string, params: SearchParams, caller?: C | null): MaybePromise<SearchResponse>;
  /**
   * Records by objectID, in order; `null` for missing ones (and for all of them on an unknown index). `caller`,
   * when given, is the request's: records outside its forced filter are `null` too, as missing ones. Attributes
   * are not trimmed (the models read them; what a caller is shown goes through `search`).
   */
  getObjects(indexName: string, objectIDs: readonly string[], caller?: C | null): MaybePromise<Array<IndexRecord | null>>;
  /** Names of the existing indices (replicas included). */
  listIndices(): MaybePromise<string[]>;
  /**
   * The Recommend rules of an index and model (`recommend-rules.ts` applies them). Absent: no rules. The rules
   * are the host's and are not modified; the same objects may come back while unchanged (parsed filters are
   * cached by object).
   */
  recommendRules?(indexName: string, model: string): MaybePromise<readonly RecommendRule[]>;
  /** Replaces the records and settings of a query-suggestions index (creating it). Resolves once search sees them. */
  saveSuggestions(indexName: string, records: IndexRecord[], settings: IndexSettings): Promise<void>;
  /** Milliseconds since the epoch. Default `Date.now`. */
  now?: () => number;
  /** Where background failures (scheduled rebuilds) are reported. Default `console.error`. */
  logError?: (message: string, error: unknown) => void;
  options?: Partial<InsightsOptions>;
}

/** Attributes the content-based models read; each may be missing from a record (that signal is then skipped). */
export interface RecommendAttributes {
  name: string;
  brand: string;
  /** Hierarchical category levels, broadest first. */
  categories: string[];
  color: string;
  price: string;
}

export interface QuerySuggestionsSource {
  /** Index whose search analytics give the queries. */
  indexName: string;
  /** Facets counted on each suggestion's results (Algolia's `exact_matches`). Default the broadest category level. */
  facets: Array<{ attribute: string; amount: number }>;
  /** A query must have been searched at least this many times over the window. Default 3. */
  minHits: number;
  /**
   * …by at least this many distinct users (client addresses; a user token only where no address is known): one
   * client searching a query 40 times, with 40 user tokens, is one user. At most `MAX_USERS_COUNTED` (16). Default 3.
   */
  minUsers?: number;
  /** Queries shorter than this (in characters) are left out. Default 2. */
  minLetters: number;
}

export interface QuerySuggestionsConfig {
  /** The suggestions index written through `saveSuggestions`. */
  indexName: string;
  sources: QuerySuggestionsSource[];
  /**
   * The block list: a query holding one of these words or phrases (whole words, any case) is never suggested
   * ("chair" leaves out "oak chair", not "armchairs").
   */
  exclude: string[];
}

export interface InsightsOptions {
  /** Days of search analytics, events and tracked searches kept. Default 90. */
  retentionDays: number;
  /** Searches are written in batches at most this often (ms). Default 10,000. */
  searchFlushIntervalMs: number;
  /** …or as soon as this many are waiting. Default 10,000. */
  searchFlushBatch: number;
  /**
   * Query aggregation: a user's search continued within this window (ms) by a search of a continuing query
   * ("lam" → "lamp") is not counted, only the last of the sequence (`query-sequences.ts`). Default 30,000, as
   * Algolia; 0 counts every search.
   */
  searchAggregationMs: number;
  /**
   * The database's log is checkpointed this often (ms) by a thread of its own (`checkpointer.ts`); 0 leaves
   * checkpoints to SQLite, inside the main thread's commits. Default 1,000.
   */
  checkpointIntervalMs: number;
  /**
   * Events stored per index (events without an index count as one more): past it, each commit drops as many of
   * the index's oldest (first received). Default 1,000,000 (a month of a shop sending 33,000 events a day; the
   * models read 30 days).
   */
  maxEventsPerIndex: number;
  /** Events stored in all (events name any index, so the per-index budget alone bounds nothing). Default 2,000,000. */
  maxEvents: number;
  /** Accepted event timestamps: not older than this (ms). Default 30 days, as the Insights API. */
  maxEventAgeMs: number;
  /**
   * …and not further in the future than this (ms): a client's clock may run fast or in the wrong time zone.
   * Default 24 hours (Algolia publishes no limit; it accepts an event 19 hours ahead).
   */
  maxEventFutureMs: number;
  /** Models are rebuilt this often (ms); 0 disables the schedule. Default 10 minutes. */
  modelRebuildIntervalMs: number;
  /** Query suggestions are rebuilt this often (ms); 0 disables the schedule. Default 1 hour. */
  suggestionsRebuildIntervalMs: number;
  /** Days of events the co-click and co-purchase models read. Default 30. */
  modelWindowDays: number;
  /** Length of the recent window the trending models compare with the one before it (days). Default 7. */
  trendingWindowDays: number;
  /** A session ends after this long without an event from the user (ms), or at midnight UTC. Default 30 minutes. */
  sessionGapMs: number;
  /**
   * Items bought by one user within this span of a first purchase count as bought together (ms); a span ends at
   * midnight UTC. Default 1 day.
   */
  boughtTogetherSpanMs: number;
  attributes: RecommendAttributes;
  /** Query suggestions indices; default one `<index>_query_suggestions` per index with logged searches. */
  querySuggestions: QuerySuggestionsConfig[] | undefined;
  /** Days of search analytics the suggestions read. Default 30. */
  suggestionsWindowDays: number;
  /** The block list (`exclude`) of the default suggestions indices: words or phrases never suggested. Default none. */
  suggestionsExclude: string[];
}

export const DAY_MS = 24 * 3600 * 1000;

export const defaultInsightsOptions: InsightsOptions = {
  retentionDays: 90,
  searchFlushIntervalMs: 10_000,
  searchFlushBatch: 10_000,
  searchAggregationMs: 30_000,
  checkpointIntervalMs: 1000,
  maxEventsPerIndex: 1_000_000,
  maxEvents: 2_000_000,
  maxEventAgeMs: 30 * DAY_MS,
  maxEventFutureMs: DAY_MS,
  modelRebuildIntervalMs: 10 * 60 * 1000,
  suggestionsRebuildIntervalMs: 60 * 60 * 1000,
  modelWindowDays: 30,
  trendingWindowDays: 7,
  sessionGapMs: 30 * 60 * 1000,
  boughtTogetherSpanMs: DAY_MS,
  attributes: {
    name: 'name',
    brand: 'brand',
    categories: ['hierarchicalCategories.lvl0', 'hierarchicalCategories.lvl1', 'hierarchicalCategories.lvl2'],
    color: 'color',
    price: 'price',
  },
  querySuggestions: undefined,
  suggestionsWindowDays: 30,
  suggestionsExclude: [],
};

export function resolveInsightsOptions(options: Partial<InsightsOptions> | undefined): InsightsOptions {
  return { ...defaultInsightsOptions, ...(options ?? {}), attributes: { ...defaultInsightsOptions.attributes, ...(options?.attributes ?? {}) } };
}

/** Reads a dotted attribute path (`hierarchicalCategories.lvl0`) of a record. */
export function attributeValue(record: Record<string, unknown>, path: string): unknown {
  if (path in record) return record[path];
  let value: unknown = record;
  for (const part of path.split('.')) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}
