/**
 * Server configuration and limits. Limits bound what one caller can make the server do; each is configurable
 * through `ServerConfig.limits` and documented with its default.
 */
import type { FastifyInstance } from 'fastify';
import type { InsightsOptions } from '@vitrine/insights';
import type { SearchSummary } from '@vitrine/insights/search-summary';
import { MAX_JSON_DEPTH, MAX_RECORD_BYTES } from '@vitrine/protocol';
import type { ABTestAssignment, SearchParams } from '@vitrine/protocol';

export interface ServerLimits {
  /** Maximum `query` length in bytes (UTF-8). Default 512, as Algolia. */
  maxQueryBytes: number;
  /** Maximum `hitsPerPage` (and `length`). Default 1000. */
  maxHitsPerPage: number;
  /** Hard cap on `page * hitsPerPage + hitsPerPage` (`paginationLimitedTo` may lower it). Default 1000. */
  paginationLimitedTo: number;
  /** Maximum `maxValuesPerFacet`. Default 1000. */
  maxValuesPerFacet: number;
  /** Maximum size of one record, JSON-encoded, in bytes. Default 100 KB (102,400), as Algolia's plans (`MAX_RECORD_BYTES` of @vitrine/protocol, which the importers check too). */
  maxRecordBytes: number;
  /** Body cap of write routes (batch, objects, settings…), before and after gzip. Default 50 MB. */
  maxWriteBodyBytes: number;
  /** Body cap of every other route (search, keys, events). Default 1 MB. */
  maxSearchBodyBytes: number;
  /** Maximum nesting of JSON arrays/objects in a body. Default 64 (`MAX_JSON_DEPTH` of @vitrine/protocol, which the importers check too). */
  maxJsonDepth: number;
  /** Requests in one multi-query. Default 100. */
  maxQueriesPerMultiQuery: number;
  /**
   * Maximum size of a search call's response (a multi-query's whole `{"results": [...]}`), in bytes of JSON.
   * Counted as the response is built: past it the call answers 400 at once, with no more work spent on it.
   * Default 10 MB (10,485,760): a storefront's multi-query is tens of KB, a 1,000-hit page of demo products
   * about 1 MB.
   */
  maxResponseBytes: number;
  /** Maximum length in bytes (UTF-8) of `highlightPreTag`, `highlightPostTag` and `snippetEllipsisText`. Default 256. */
  maxHighlightTagBytes: number;
  /**
   * Parameters in one search request: its JSON fields and the entries of its `params` string together (or a
   * GET's query string, or a secured key's). Default 200, about twice as many as Algolia has search parameters:
   * 30,000 unknown ones cost a search 200–360 ms, each parsed, copied and carried to the search thread.
   */
  maxSearchParameters: number;
  /**
   * Entries of one list parameter (`attributesToHighlight`, `attributesToRetrieve`, `facets`, `optionalWords`,
   * `facetFilters`' filters…). Default 1,000: a 60,000-entry `attributesToHighlight` cost 520 ms, each hit
   * matching every entry against its attributes.
   */
  maxListEntries: number;
  /** Write tasks accepted but not yet visible to search; past it writes answer 429. Default 1000. */
  maxPendingTasks: number;
  /** Failed authentications per client IP per hour answered 403; past them, its failures get 429 (keys that authenticate never do). Default 100. */
  maxFailedAuthPerIPPerHour: number;
  /**
   * Events (`POST /1/events`) accepted per minute from one client IP, past which a batch answers 429 whole
   * (`auth/event-limits.ts`). Default 6,000: a hundred shoppers behind one address (an office, a mobile
   * carrier's NAT) each sending an event a second. The admin key is not limited; 0: no limit.
   */
  maxEventsPerIPPerMinute: number;
  /**
   * Events accepted per minute for one API key (a secured key counts as its parent), every client together.
   * Default 120,000: 2,000 a second, a busy shop's peak of some thousands of shoppers. 0: no limit.
   */
  maxEventsPerKeyPerMinute: number;
  /**
   * Events accepted per minute for one `userToken`. Default 1,000: one full batch (the Insights API's most), far
   * more than a shopper sends (a few a page). 0: no limit.
   */
  maxEventsPerUserTokenPerMinute: number;
  /** Operations in the log after which a snapshot is taken (and the log compacted). Default 20,000. */
  snapshotEveryOps: number;
  /**
   * Records in the log (as replaying them costs: a copy or a rebuild counts the index's records) after which a
   * snapshot is taken. With `snapshotEveryBytes`, bounds the replay after a crash whatever the catalogue's size:
   * past twice either, writes wait for the snapshot being written (docs/RELIABILITY.md). Default 25,000.
   */
  snapshotEveryRecords: number;
  /** Bytes of operations (JSON) in the log after which a snapshot is taken. Default 16 MB (16,777,216). */
  snapshotEveryBytes: number;
  /**
   * After a start that replayed the log, how long (ms) the snapshot that replay made due waits: the first
   * searches after a crash are then not answered during a snapshot (at a million products they took 50–270 ms
   * instead of 10–50 during one). Writes past the log's cap wait meanwhile. Default 5,000.
   */
  snapshotAfterStartMs: number;
  /**
   * After a start, how long (ms) the indexes keep the records they loaded in memory before reading them from the
   * snapshot's files instead (`storage/snapshot-records.ts`): the first searches go first (at a million products,
   * reading them back as the thread becomes ready about doubles the first search's time). Default 5,000.
   */
  recordsFromFilesAfterStartMs: number;
  /**
   * Minimum time between two applies of logged writes to the engines (ms). 0 (default) applies at once; a
   * few hundred ms batches a stream of small writes into fewer applies, which keeps searches fast while writes
   * arrive, at the cost of that much more time before a write is visible (`published`).
   */
  applyIntervalMs: number;
  /**
   * While searches are being answered (one in the last second), the share of its time each apply loop (the main
   * thread's, each search thread's) may spend applying writes; it rests the rest (`storage/indexing-share.ts`).
   * Default 0.2: the highest share that kept a shopper's p99 under 50 ms during a 100 MB import, which then takes
   * two to three times as long (docs/PERFORMANCE.md, *Figures behind the code*). 1: never rests.
   */
  indexingShareWhileSearching: number;
  /**
   * Logged writes (bytes of their JSON) waiting to be applied beyond which new writes wait before they are
   * logged (their callers wait for the answer): an import sending faster than the indexes take it is slowed
   * down rather than piling up in memory. Default 8 MB.
   */
  applyBacklogBytes: number;
  /** Requests the API logs keep (`GET /1/logs`), newest first. Default 1,000, as Algolia; 0 keeps none. */
  apiLogEntries: number;
  /**
   * A `rest` embedder called for a search's query text: how long one call may take (ms) and how many calls are
   * made before the search answers 503. Defaults 1,500 and 2: within the official clients' 5 s read timeout. A
   * local model (`huggingFace`) has the same time for a query, once.
   */
  embedderQueryTimeoutMs: number;
  embedderQueryAttempts: number;
  /**
   * A `rest` embedder called for records' texts (after their write is logged): how long one call may take (ms).
   * Default 30,000. Also a local model's time to load, and to embed a batch of records' texts.
   */
  embedderDocumentTimeoutMs: number;
  /** After a failed round of records' embeddings, the longest wait before the next (it doubles from 1 s). Default 60,000. */
  embedderRetryMaxMs: number;
}

export const defaultLimits: ServerLimits = {
  maxQueryBytes: 512,
  maxHitsPerPage: 1000,
  paginationLimitedTo: 1000,
  maxValuesPerFacet: 1000,
  maxRecordBytes: MAX_RECORD_BYTES,
  maxWriteBodyBytes: 50 * 1024 * 1024,
  maxSearchBodyBytes: 1024 * 1024,
  maxJsonDepth: MAX_JSON_DEPTH,
  maxQueriesPerMultiQuery: 100,
  maxResponseBytes: 10 * 1024 * 1024,
  maxHighlightTagBytes: 256,
  maxSearchParameters: 200,
  maxListEntries: 1000,
  maxPendingTasks: 1000,
  maxFailedAuthPerIPPerHour: 100,
  maxEventsPerIPPerMinute: 6000,
  maxEventsPerKeyPerMinute: 120_000,
  maxEventsPerUserTokenPerMinute: 1000,
  snapshotEveryOps: 20_000,
  snapshotEveryRecords: 25_000,
  snapshotEveryBytes: 16 * 1024 * 1024,
  snapshotAfterStartMs: 5_000,
  recordsFromFilesAfterStartMs: 5_000,
  applyIntervalMs: 0,
  indexingShareWhileSearching: 0.2,
  applyBacklogBytes: 8 * 1024 * 1024,
  apiLogEntries: 1000,
  embedderQueryTimeoutMs: 1500,
  embedderQueryAttempts: 2,
  embedderDocumentTimeoutMs: 30_000,
  embedderRetryMaxMs: 60_000,
};

export function resolveLimits(limits: Partial<ServerLimits> | undefined): ServerLimits {
  return { ...defaultLimits, ...(limits ?? {}) };
}

/** Levels of the request log, most severe first (pino's; `silent` writes nothing). */
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/** A hook to add routes (e.g. `GET /images/*`) before the server starts listening. Runs outside the API's auth. */
export type RouteExtension = (app: FastifyInstance) => void | Promise<void>;

/**
 * A plugin of the Algolia API scope (e.g. insights, analytics, recommend): its routes get the body parser,
 * CORS and authentication, and declare their ACL with `config: { acl }` (no `acl` = admin key only).
 */
export type ApiExtension = (api: FastifyInstance) => void | Promise<void>;

/** Told about every search answered by the query routes (for search analytics). Must not throw; errors are ignored. */
export type SearchObserver = (search: {
  indexName: string;
  params: SearchParams;
  /** What the search found: nbHits, queryID and the first hits' objectIDs (not the whole response). */
  response: SearchSummary;
  /** The key's userToken or the request's `x-algolia-usertoken` header, when any. */
  userToken?: string;
  ip: string;
  /** The searcher's country, when a trusted proxy tells it (`http/country.ts`). */
  country?: string;
  /** The A/B test that sent the search to its variant (`search/learning.ts`). */
  abTest?: ABTestAssignment;
}) => void;

export interface ServerConfig {
  /** Folder holding the database, snapshots and generated keys; created if missing. */
  dataDir: string;
  appId: string;
  adminApiKey: string;
  searchApiKey: string;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0 (an ephemeral port: read `RunningServer.port`). */
  port?: number;
  /**
   * When set: this folder (the built storefront) is served at `/`, with `index.html` for unknown GET paths of
   * clients that accept HTML outside `/1/`, `/2/` and `/assets/` (a missing file is a 404); `/assets/` files are
   * cached as immutable (content-hashed names), everything else revalidated (`http/static.ts`).
   */
  staticRoot?: string;
  /** When set: served at `GET /vitrine.config.json`. */
  storefrontConfig?: Record<string, unknown>;
  /**
   * With `staticRoot` and `storefrontConfig`: the storefront's server renderer (its SSR bundle,
   * `dist-server/entry-server.js`), a module exporting `PageRenderer` (@vitrine/protocol). Shoppers' pages are
   * then server-rendered with real status codes, and `sitemap.xml` and `robots.txt` are served
   * (`pages/page-routes.ts`). Without it, every page request gets the app shell.
   */
  storefrontRenderer?: string;
  limits?: Partial<ServerLimits>;
  /**
   * Request logging through Fastify's logger: one JSON line per request with its id, route pattern, status and
   * time, never keys, query strings or bodies (`observability/logging.ts`). Default false.
   */
  log?: boolean;
  /** With `log`: the least severe level written (pino's). Default `info`, which writes every request's line. */
  logLevel?: LogLevel;
  /** With `log`: where the JSON lines go. Default stdout. */
  logStream?: { write(line: string): unknown };
  /**
   * Behind a reverse proxy: trust its `X-Forwarded-For` so per-IP limits (failed authentications,
   * `maxQueriesPerIPPerHour`, `restrictSources`) see client addresses. `true` or the proxy's addresses / CIDR
   * ranges (Fastify's `trustProxy`). Default false: the socket address.
   */
  trustProxy?: boolean | string | string[];
  /**
   * The shop's public URL (`https://shop.example.com`), or several: the origins its absolute URLs (canonical and
   * Open Graph URLs, sitemap, robots.txt) may take, the one the request's host names, else the first. Without it,
   * the host a trusted proxy forwarded (`trustProxy`), a loopback Host header, else `http://localhost`: a Host
   * header a client made up is never written into a page (`pages/public-origin.ts`).
   */
  publicUrl?: string | readonly string[];
  /** Extra routes, registered before listening. */
  extend?: RouteExtension[];
  /** Plugins of the API scope, registered after the core routes. */
  apiExtensions?: ApiExtension[];
  /** Called after every search, besides the search log of analytics. */
  onSearch?: SearchObserver;
  /**
   * False: `/1/isalive` answers 503 until `RunningServer.setReady(true)`, for a server whose catalogue is still
   * being loaded (the CLI's demo on a first start); every other route answers meanwhile. Default true.
   */
  ready?: boolean;
  /**
   * The folder of local embedding models: a `huggingFace` embedder's `model` names a folder inside it. Default
   * `<dataDir>/models`. Vitrine never downloads a model (README: *Search by meaning*).
   */
  modelsDir?: string;
  /**
   * Worker threads that answer searches, each with a replica of the indexes (memory grows with each one).
   * Default 0: searches run on the main thread. `vitrine start` uses 1 when the machine has 2 cores or more.
   */
  searchThreads?: number;
  /** Called once the server listens, before the indexes are loaded (`startServer` resolves after). */
  onListening?: (url: string) => void;
  /**
   * Awaited once a backup's copy is written, before it is marked complete and takes its target's place
   * (`routes/backup.ts`); `signal` aborts when the backup is stopped. Tests interrupt a backup there.
   */
  onBackupStep?: (step: 'copied', signal: AbortSignal) => Promise<void>;
  /** Tuning of insights, analytics, recommendations and query suggestions (`@vitrine/insights`, `src/deps.ts`). */
  insights?: Partial<InsightsOptions>;
  /**
   * The clock of insights (event age window, analytics days, trending windows), in ms since the epoch. Default
   * `Date.now`; tests and history replays pass a fixed one.
   */
  now?: () => number;
}
