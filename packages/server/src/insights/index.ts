/**
 * Vitrine's insights: the Insights API (`POST /1/events`, `DELETE /1/usertokens/{userToken}`), the search log and
 * search analytics (`GET /2/...`), recommendations (`POST /1/indexes/*\/recommendations`) and query suggestions,
 * from the shop's own searches and events. `registerInsights(api, deps)` adds the routes to the scope it is given
 * (the API scope: body parser and authentication apply; each route declares its ACL) and returns the handle the
 * search routes log searches through.
 *
 * Extension routes (admin key): `POST /1/vitrine/recommend/build` rebuilds the models now,
 * `POST /1/vitrine/query-suggestions/build` rebuilds the suggestions indices now.
 */
import type { SearchSummary } from '../search/queries.ts';
import type { FastifyInstance } from 'fastify';
import type { InsightsHistory, SearchLogEntry, SearchParams, SearchResponse } from '@vitrine/protocol';
import { Analytics } from './analytics.ts';
import { Checkpointer } from './checkpointer.ts';
import { analyticsRoutes } from './analytics-routes.ts';
import type { InsightsDb } from './db.ts';
import { DAILY_TABLES, openInsightsDb } from './db.ts';
import type { InsightsDeps, InsightsOptions } from './deps.ts';
import { DAY_MS, resolveInsightsOptions } from './deps.ts';
import { dayOf } from './days.ts';
import { requireAllIndexes } from '../auth/authenticate.ts';
import { createError } from '../errors.ts';
import { invalidEvents } from './errors.ts';
import { EventLog } from './event-log.ts';
import type { RecordedEvent } from './event-log.ts';
import type { Models } from './models.ts';
import { buildModels, emptyModels } from './models.ts';
import { Recommender } from './recommend.ts';
import { SearchLog, TOP_HITS_COUNTED } from './search-log.ts';
import type { SuggestionsReport } from './suggestions.ts';
import { buildQuerySuggestions } from './suggestions.ts';
import { MAX_EVENTS_BODY_BYTES, validateEvents } from './validate.ts';

export type { InsightsDeps, InsightsOptions, QuerySuggestionsConfig, QuerySuggestionsSource, RecommendAttributes } from './deps.ts';
export { defaultInsightsOptions } from './deps.ts';
export type { SuggestionsReport } from './suggestions.ts';
export type { RecordedEvent } from './event-log.ts';

const USER_TOKEN = /^[a-zA-Z0-9_=/+-]{1,129}$/;
/** Events or searches per step of a history import (at most the 1,000 events `validateEvents` takes): 10–40 ms each. */
const IMPORT_STEP = 250;

export interface ModelsSummary {
  builtAt: string;
  eventsRead: number;
  /** Items with at least one bought-together / co-interest partner, and trending items, summed over indices. */
  boughtTogetherItems: number;
  relatedItems: number;
  trendingItems: number;
}

export interface Insights {
  /** Logs one search (never throws; `analytics: false` searches are skipped). Call after answering each search. */
  recordSearch(entry: SearchLogEntry): void;
  /** Writes the searches waiting in memory. */
  flushSearches(): void;
  rebuildModels(): ModelsSummary;
  buildQuerySuggestions(): Promise<SuggestionsReport[]>;
  /** Loads a past activity (the demo history) as if it had happened; returns what was stored. */
  importHistory(history: InsightsHistory): { searches: number; events: number };
  /**
   * Imports the history only when no search or event was ever stored; true when it did. In short steps, a turn
   * of the event loop apart: requests are answered meanwhile.
   */
  seedIfEmpty(history: InsightsHistory | (() => InsightsHistory | Promise<InsightsHistory>)): Promise<boolean>;
  /** Drops analytics, tracked searches and events older than the retention. */
  purge(): void;
  readonly options: InsightsOptions;
  /** Committed events, oldest first, in the Insights API's shape. */
  listEvents(options?: { limit?: number; afterId?: number }): RecordedEvent[];
  /** Commits and closes; also done when the app closes. */
  close(): void;
}

/** The search-log entry of a search, from its parameters and response (a convenience for the search routes). */
export function searchLogEntry(indexName: string, params: SearchParams, response: Pick<SearchResponse, 'nbHits' | 'queryID' | 'hits'> | SearchSummary, extra: { userToken?: string; ip?: string; timestamp?: number } = {}): SearchLogEntry {
  return {
    index: indexName,
    query: typeof params.query === 'string' ? params.query : '',
    nbHits: response.nbHits,
    queryID: response.queryID,
    userToken: typeof params.userToken === 'string' ? params.userToken : extra.userToken,
    ip: extra.ip,
    filters: typeof params.filters === 'string' ? params.filters : undefined,
    facetFilters: params.facetFilters,
    numericFilters: params.numericFilters,
    // Only the first hits count in analytics; a 1,000-hit page need not be copied.
    objectIDs: response.hits.slice(0, TOP_HITS_COUNTED).map((hit) => hit.objectID),
    analytics: params.analytics !== false && (params.analytics as unknown) !== 'false',
    analyticsTags: Array.isArray(params.analyticsTags) ? params.analyticsTags : undefined,
    timestamp: extra.timestamp,
  };
}

function purge(db: InsightsDb, now: number, retentionDays: number): void {
  const cutoffDay = dayOf(now) - retentionDays;
  db.transaction(() => {
    for (const table of DAILY_TABLES) db.prepare(`DELETE FROM ${table} WHERE day < ?`).run(cutoffDay);
    db.prepare('DELETE FROM tracked WHERE day < ?').run(cutoffDay);
    db.prepare('DELETE FROM events WHERE ts < ?').run(cutoffDay * DAY_MS);
  })();
}

export function registerInsights(app: FastifyInstance, deps: InsightsDeps): Insights {
  const options = resolveInsightsOptions(deps.options);
  const now = deps.now ?? Date.now;
  const logError = deps.logError ?? ((message: string, error: unknown) => console.error(message, error));
  const db = openInsightsDb(deps.dataDir);
  const checkpointer = options.checkpointIntervalMs > 0 ? new Checkpointer(db, options.checkpointIntervalMs, logError) : null;
  const searchLog = new SearchLog(db, now, options.searchFlushIntervalMs, options.searchFlushBatch, options.searchAggregationMs);
  const eventLog = new EventLog(db, searchLog);
  const analytics = new Analytics(db);
  let models: Models = emptyModels();
  const recommender = new Recommender(deps, options, () => models);
  const timers: NodeJS.Timeout[] = [];
  let closed = false;

  const rebuildModels = (): ModelsSummary => {
    searchLog.flush();
    models = buildModels(db, now(), options);
    const sum = (map: Map<string, Map<string, unknown>>) => [...map.values()].reduce((n, m) => n + m.size, 0);
    return {
      builtAt: new Date(models.builtAt).toISOString(),
      eventsRead: models.eventsRead,
      boughtTogetherItems: sum(models.boughtTogether),
      relatedItems: sum(models.coInterest),
      trendingItems: [...models.trending.values()].reduce((n, list) => n + list.length, 0),
    };
  };
  const buildSuggestions = async () => {
    await searchLog.settle();
    return buildQuerySuggestions(db, deps, options, now());
  };

  /**
   * An import of a past activity, in steps of a chunk of events or searches each (tens of milliseconds for the
   * demo's month): run at once (`importHistory`), or one per turn of the event loop (`seedIfEmpty`, while the
   * server answers requests).
   */
  function* importSteps(history: InsightsHistory): Generator<void, { searches: number; events: number }> {
    // Every event is validated before anything is stored: an invalid history imports nothing.
    const window = { now: now(), maxAgeMs: Number.MAX_SAFE_INTEGER, maxFutureMs: 0 };
    const chunks = [];
    for (let i = 0; i < history.events.length; i += IMPORT_STEP) {
      chunks.push(validateEvents({ events: history.events.slice(i, i + IMPORT_STEP) }, window));
      yield;
    }
    // A history holds the searches to count: query aggregation already happened.
    for (let i = 0; i < history.searches.length; i += IMPORT_STEP) {
      for (const search of history.searches.slice(i, i + IMPORT_STEP)) searchLog.record(search, false);
      searchLog.flush();
      yield;
    }
    // One fsync, with the last step's commit (which flushes the log frames of the others): one per step held the
    // event loop for the disk's latency each time, seconds in all on a busy disk.
    let stored = 0;
    for (const [i, events] of chunks.entries()) {
      const last = i === chunks.length - 1;
      if (!last) db.pragma('synchronous = NORMAL');
      try {
        eventLog.appendNow(events, window.now);
      } finally {
        if (!last) db.pragma('synchronous = FULL');
      }
      stored += events.length;
      yield;
    }
    rebuildModels();
    return { searches: history.searches.length, events: stored };
  }
  const importHistory = (history: InsightsHistory) => {
    const steps = importSteps(history);
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
    }
  };

  const insights: Insights = {
    options,
    recordSearch(entry) {
      try {
        searchLog.record(entry);
      } catch (error) {
        logError('insights: could not log a search', error);
      }
    },
    flushSearches: () => searchLog.flush(),
    rebuildModels,
    buildQuerySuggestions: buildSuggestions,
    importHistory,
    async seedIfEmpty(history) {
      const empty = !db.prepare('SELECT 1 FROM events LIMIT 1').get() && !db.prepare('SELECT 1 FROM query_daily LIMIT 1').get();
      if (!empty) return false;
      const steps = importSteps(typeof history === 'function' ? await history() : history);
      while (!steps.next().done) await new Promise((resolve) => setImmediate(resolve));
      return true;
    },
    purge: () => purge(db, now(), options.retentionDays),
    listEvents: (listOptions) => eventLog.list(listOptions),
    close() {
      if (closed) return;
      closed = true;
      for (const timer of timers) clearInterval(timer);
      eventLog.commit();
      searchLog.close();
      void checkpointer?.stop();
      db.close();
    },
  };

  app.post('/1/events', { config: { acl: 'search', largeBody: true }, bodyLimit: MAX_EVENTS_BODY_BYTES }, async (request) => {
    const received = now();
    const events = validateEvents(request.body, { now: received, maxAgeMs: options.maxEventAgeMs, maxFutureMs: options.maxEventFutureMs });
    await eventLog.append(events, received);
    return { status: 200, message: 'OK' };
  });

  app.delete<{ Params: { userToken: string } }>('/1/usertokens/:userToken', { config: { acl: 'deleteObject' } }, async (request, reply) => {
    // The user's events of every index go: only a key that may touch every index may ask.
    requireAllIndexes(request.auth!);
    if (!USER_TOKEN.test(request.params.userToken)) throw invalidEvents('userToken must be 1 to 129 characters among letters, digits and _ = / + -');
    eventLog.commit();
    eventLog.deleteUser(request.params.userToken);
    return reply.code(204).send();
  });

  app.post<{ Params: { indexName: string } }>('/1/indexes/:indexName/recommendations', { config: { acl: 'search' } }, async (request) => {
    // Like the multi-query route: only `*` (the indices are in the requests); a named index is no route.
    if (request.params.indexName !== '*') throw createError('ROUTE_NOT_FOUND', 'POST', request.url.split('?')[0]);
    return recommender.recommend(request.body, request.auth ?? null, now);
  });

  app.post('/1/vitrine/recommend/build', async () => rebuildModels());
  app.post('/1/vitrine/query-suggestions/build', async () => ({ indices: await buildSuggestions() }));

  analyticsRoutes(app, analytics, now, () => searchLog.settle());

  const schedule = (intervalMs: number, task: () => unknown, what: string) => {
    if (intervalMs <= 0) return;
    const timer = setInterval(async () => {
      try {
        await task();
      } catch (error) {
        logError(`insights: scheduled ${what} failed`, error);
      }
    }, intervalMs);
    timer.unref();
    timers.push(timer);
  };
  schedule(options.modelRebuildIntervalMs, rebuildModels, 'model rebuild');
  schedule(options.suggestionsRebuildIntervalMs, buildSuggestions, 'query suggestions build');
  schedule(DAY_MS, insights.purge, 'retention purge');
  // First models right away (from the events of previous runs), off the registration path.
  const first = setImmediate(() => {
    if (closed) return;
    try {
      insights.purge();
      rebuildModels();
    } catch (error) {
      logError('insights: initial model build failed', error);
    }
  });
  app.addHook('onClose', async () => {
    clearImmediate(first);
    // The checkpoint thread's connection closed first: the main one, the last, then checkpoints and removes the log.
    await checkpointer?.stop();
    insights.close();
  });
  return insights;
}
