/**
 * @vitrine/insights: the shop's own activity, kept beside the search server. Events (the Insights API's
 * `POST /1/events`, `DELETE /1/usertokens/{userToken}`), the search log and search analytics (`GET /2/...`),
 * recommendations (`POST /1/indexes/*\/recommendations`) and query suggestions, over a SQLite database of its own
 * (`insights.sqlite`) with its checkpoint thread.
 *
 * `openInsights(deps)` opens the database, starts the schedules (model and suggestions rebuilds, retention) and
 * returns the handle. It knows nothing of HTTP: the host's routes parse requests, check keys and call the
 * handle; errors a caller can cause are `InsightsError`s carrying their status (`errors.ts`). What the host
 * must provide is `InsightsDeps` (searches, record reads, index names, saving a suggestions index).
 */
import type { DeleteUserProfileResponse, InsightsHistory, RecommendationsResult, SearchLogEntry } from '@vitrine/protocol';
import { join } from 'node:path';
import { AbTests } from './abtests/abtests.ts';
import { Analytics } from './analytics.ts';
import { Checkpointer } from './checkpointer.ts';
import { openInsightsDb } from './db.ts';
import type { InsightsCaller, InsightsDeps, InsightsOptions } from './deps.ts';
import { DAY_MS, resolveInsightsOptions } from './deps.ts';
import { invalidEvents } from './errors.ts';
import { EventIntake } from './event-intake.ts';
import type { EventAdmission } from './event-intake.ts';
import { EventLog } from './event-log.ts';
import type { RecordedEvent } from './event-log.ts';
import { ModelBuilder } from './model-builder.ts';
import type { BuildResult } from './model-builder.ts';
import { advanceModelsFrom, beginModelBuild, boundChangeSteps, clearChangeSteps, endModelBuild } from './model-changes.ts';
import { MODELS_FILE, ModelStore } from './model-store.ts';
import type { Models } from './models.ts';
import { buildModels, emptyModels, modelsView } from './models.ts';
import { Recommender } from './recommend.ts';
import { Personalization } from './personalization/profiles.ts';
import type { ProfilesReport } from './personalization/profiles.ts';
import { PROFILES_FILE } from './personalization/profile-store.ts';
import { purgeSteps } from './retention.ts';
import { SearchLog } from './search-log.ts';
import type { SuggestionsReport } from './suggestions.ts';
import { buildQuerySuggestions } from './suggestions.ts';
import { validateEvents } from './validate.ts';
import { buildReRanking } from './reranking/build.ts';
import { ReRankingModel } from './reranking/model.ts';
import { readEngagement } from './categorization/engagement.ts';
import { QueryCategories } from './categorization/model.ts';
import type { ReRankingInput } from '@vitrine/engine';
import type { QueryCategorization } from '@vitrine/protocol';

export type { InsightsCaller, InsightsDeps, InsightsOptions, QuerySuggestionsConfig, QuerySuggestionsSource, RecommendAttributes } from './deps.ts';
export { defaultInsightsOptions } from './deps.ts';
export type { SuggestionsReport } from './suggestions.ts';
export type { RecordedEvent } from './event-log.ts';
export type { EventAdmission } from './event-intake.ts';
export type { Analytics, AnalyticsQuery, OrderBy } from './analytics.ts';
export type { AbTestDefinition, AbTestRoute, AbTests, ListAbTestsQuery } from './abtests/abtests.ts';
export { dayOf, normalizeQuery, parseDay, tagsClause } from './days.ts';
export { sampleSizePerVariant } from './abtests/significance.ts';
export { InsightsError } from './errors.ts';
export { MAX_EVENTS_BODY_BYTES } from './validate.ts';
export type { Personalization, ProfilesReport } from './personalization/profiles.ts';
export { searchLogEntry, TOP_HITS_COUNTED } from './search-summary.ts';
export type { SearchSummary } from './search-summary.ts';

const USER_TOKEN = /^[a-zA-Z0-9_=/+-]{1,129}$/;
/** Events or searches per step of a history import (at most the 1,000 events `validateEvents` takes): 10–40 ms each. */
const IMPORT_STEP = 250;

export interface ModelsSummary {
  builtAt: string;
  /** Events the models count (those of the window). */
  eventsRead: number;
  /** Whether the build rebuilt the aggregates from scratch, rather than from the events since the last one. */
  full: boolean;
  /** Event rows the build read from the log. */
  eventsScanned: number;
  /** The build's own time in its thread (aggregates updated, models derived), in milliseconds. */
  buildMs: number;
  /** Items with at least one bought-together / co-interest partner, and trending items, summed over indices. */
  boughtTogetherItems: number;
  relatedItems: number;
  trendingItems: number;
  /** The user profiles built after the models (`personalization/`): how many, their time, facet values fetched. */
  personalization: ProfilesReport;
}

export interface Insights<C extends InsightsCaller = InsightsCaller> {
  /** Logs one search (never throws; `analytics: false` searches are skipped). Call after answering each search. */
  recordSearch(entry: SearchLogEntry): void;
  /** Writes the searches waiting in memory. */
  flushSearches(): void;
  /**
   * Rebuilds the models from the events committed so far, in the model thread: the aggregates take the events
   * since the last build (`full`: all of them again), the models are derived from them. One build at a time, a
   * call during a build gets the next one.
   */
  rebuildModels(request?: { full?: boolean }): Promise<ModelsSummary>;
  buildQuerySuggestions(): Promise<SuggestionsReport[]>;
  /** Loads a past activity (the demo history) as if it had happened, models built at once; returns what was stored. */
  importHistory(history: InsightsHistory): { searches: number; events: number };
  /**
   * Imports the history only when no search or event was ever stored; true when it did. In short steps, a turn
   * of the event loop apart: requests are answered meanwhile.
   */
  seedIfEmpty(history: InsightsHistory | (() => InsightsHistory | Promise<InsightsHistory>)): Promise<boolean>;
  /** Drops analytics, tracked searches and events older than the retention, in steps while requests go on. */
  purge(): Promise<void>;
  readonly options: InsightsOptions;
  /** Committed events, oldest first, in the Insights API's shape. */
  listEvents(options?: { limit?: number; afterId?: number }): RecordedEvent[];
  /**
   * `POST /1/events`: validates the whole batch (nothing is stored if one event is invalid), lets `admit` refuse
   * it, then commits it; resolves once committed. Batches wait in line and go through in steps (`event-intake.ts`).
   */
  recordEvents(body: unknown, admit?: EventAdmission): Promise<void>;
  /** Events stored, all indices together. */
  storedEvents(): number;
  /** `DELETE /1/usertokens/{userToken}`: forgets the user's events of every index, and their profile at once. */
  deleteUserEvents(userToken: string): DeleteUserProfileResponse;
  /** Personalization: the strategy, user profiles (built after each model build), a search's affinities. */
  readonly personalization: Personalization;
  /**
   * Dynamic re-ranking: the boosts the last model build learned for a search's query (normalised as analytics
   * does), to hand to the engine with the search; undefined: none. A map lookup.
   */
  reRankingFor(indexName: string, query: unknown): ReRankingInput | undefined;
  /** What the last build's re-ranking model holds: queries with boosts, boosts, pairs scored, click curves. */
  reRankingStats(): ReturnType<ReRankingModel['stats']>;
  /** Query categorization: the categories a query leads to (`{}`: none known), from the last build's events. */
  queryCategorization(indexName: string, query: unknown): QueryCategorization;
  /** `POST /1/indexes/*\/recommendations`, as `caller` may see them (null: an internal call, nothing forced). */
  recommend(body: unknown, caller: C | null): Promise<{ results: RecommendationsResult[] }>;
  /** The Analytics API's reads (`GET /2/...`); `settleSearches()` first for answers that count every search. */
  readonly analytics: Analytics;
  /** Writes the searches waiting in memory, in chunks while requests go on. */
  settleSearches(): Promise<void>;
  /** A/B tests (`/2/abtests`): definitions, the routing of searches, each variant's figures. */
  readonly abTests: AbTests;
  /** The insights clock (`InsightsDeps.now`). */
  now(): number;
  /** Commits and closes at once. */
  close(): void;
  /** Stops the schedules and the checkpoint thread, then commits and closes: what the host runs when it shuts down. */
  stop(): Promise<void>;
}

export function openInsights<C extends InsightsCaller>(deps: InsightsDeps<C>): Insights<C> {
  const options = resolveInsightsOptions(deps.options);
  const now = deps.now ?? Date.now;
  const logError = deps.logError ?? ((message: string, error: unknown) => console.error(message, error));
  const db = openInsightsDb(deps.dataDir);
  const checkpointer = options.checkpointIntervalMs > 0 ? new Checkpointer(db, options.checkpointIntervalMs, logError) : null;
  const searchLog = new SearchLog(db, now, options.searchFlushIntervalMs, options.searchFlushBatch, options.searchAggregationMs);
  const eventLog = new EventLog(db, searchLog, options);
  const abTests = new AbTests(db, now, options.searchFlushIntervalMs);
  searchLog.onCounted = (entry, queryIDs) => abTests.tally.counted(entry, queryIDs);
  eventLog.attribution = abTests.tally;
  const intake = new EventIntake(eventLog);
  const analytics = new Analytics(db);
  const modelsFile = join(deps.dataDir, MODELS_FILE);
  const builder = new ModelBuilder(db, modelsFile, options);
  let models: Models = emptyModels();
  let lastBuild: BuildResult['report'] = { full: false, eventsScanned: 0, readTo: 0, changesTo: 0, ms: 0 };
  const recommender = new Recommender<C>(deps, options, () => models);
  const reRanking = new ReRankingModel();
  const categories = new QueryCategories();
  const personalization = new Personalization(db, { modelsFile, profilesFile: join(deps.dataDir, PROFILES_FILE) }, options, {
    getObjects: (indexName, objectIDs) => deps.getObjects(indexName, objectIDs, null),
    now,
  });
  const timers: NodeJS.Timeout[] = [];
  let closed = false;
  /** Set as `stop()` or `close()` begins: builds and purges cut short from then on are no failures. */
  let closing = false;

  const summary = (): ModelsSummary => ({
    builtAt: new Date(models.builtAt).toISOString(), eventsRead: models.eventsRead, full: lastBuild.full, eventsScanned: lastBuild.eventsScanned, buildMs: lastBuild.ms, ...models.counts,
    personalization: personalization.report,
  });
  /**
   * The protocol of `model-changes.ts` around a build, on the main thread or in the model thread: deletions all
   * logged while builds run; past them, those of events the aggregates never read are not, and the changes the
   * aggregates took are cleared in steps.
   */
  let buildsRunning = 0;
  let readTo = 0;
  let clearing: Promise<void> | undefined;
  const beforeBuild = (): void => {
    beginModelBuild(db, now(), options);
    buildsRunning++;
  };
  /** After a build (`result`) or its failure (none). */
  const afterBuild = (result?: BuildResult): ModelsSummary => {
    buildsRunning--;
    if (closed || !result) return summary();
    models = modelsView(result.packed);
    reRanking.replace(result.reRanking);
    categories.refresh(result.engagement, deps.getObjects, options.attributes.categories).catch((error: unknown) => {
      if (!closing) logError('insights: query categorization failed', error);
    });
    lastBuild = result.report;
    readTo = Math.max(readTo, result.report.readTo);
    if (buildsRunning === 0) endModelBuild(db, readTo);
    const changesTo = result.report.changesTo;
    clearing = (clearing ?? Promise.resolve()).then(async () => {
      const steps = clearChangeSteps(db, changesTo);
      while (!closing && !steps.next().done) await new Promise((resolve) => setImmediate(resolve));
    }).catch((error: unknown) => {
      // The changes stay for the next build's clearing (the aggregates know which they took).
      if (!closing) logError('insights: clearing the models\' change log failed', error);
    });
    return summary();
  };
  const buildInThread = async (full: boolean): Promise<ModelsSummary> => {
    const startedAt = now();
    beforeBuild();
    let result: BuildResult;
    try {
      result = await builder.build(startedAt, full);
    } catch (error) {
      afterBuild();
      throw error;
    }
    afterBuild(result);
    // The profiles follow from the aggregates just updated; their failure leaves the last ones, not the models.
    if (!closing) await personalization.build(startedAt).catch((error: unknown) => closing || logError('insights: profile build failed', error));
    return summary();
  };
  let building: Promise<ModelsSummary> | undefined;
  let nextBuild: Promise<ModelsSummary> | undefined;
  let nextFull = false;
  const rebuildModels = (request: { full?: boolean } = {}): Promise<ModelsSummary> => {
    if (!building) {
      building = buildInThread(request.full === true).finally(() => (building = undefined));
      return building;
    }
    // Events committed during the build under way may be missing from it: the caller gets the next build.
    nextFull ||= request.full === true;
    nextBuild ??= building.catch(() => undefined).then(() => {
      const full = nextFull;
      nextBuild = undefined;
      nextFull = false;
      return closing ? summary() : rebuildModels({ full });
    });
    return nextBuild;
  };
  let purging: Promise<void> | undefined;
  const purge = (): Promise<void> => {
    purging ??= (async () => {
      const at = now();
      // Deletions of days the models' window left behind are not logged for them (`model-changes.ts`).
      advanceModelsFrom(db, at, options);
      for (const steps of [purgeSteps(db, eventLog, at, options.retentionDays), boundChangeSteps(db, options.maxEvents)]) {
        while (!closing && !steps.next().done) await new Promise((resolve) => setImmediate(resolve));
      }
    })().finally(() => (purging = undefined));
    return purging;
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
        eventLog.commit([{ events, receivedAt: window.now }]);
      } finally {
        if (!last) db.pragma('synchronous = FULL');
      }
      stored += events.length;
      yield;
    }
    return { searches: history.searches.length, events: stored };
  }
  const importHistory = (history: InsightsHistory) => {
    const steps = importSteps(history);
    for (;;) {
      const step = steps.next();
      if (step.done) {
        // Built here, at once: whoever imports a history this way asks for recommendations next.
        beforeBuild();
        const store = new ModelStore(modelsFile);
        let result: BuildResult;
        try {
          const learned = { reRanking: buildReRanking(db, now(), options.modelWindowDays), engagement: readEngagement(db, now(), options.modelWindowDays) };
          result = { ...buildModels(db, store, now(), options), ...learned };
        } catch (error) {
          afterBuild();
          throw error;
        } finally {
          store.close();
        }
        afterBuild(result);
        return step.value;
      }
    }
  };

  const insights: Insights<C> = {
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
      await rebuildModels();
      return true;
    },
    purge,
    listEvents: (listOptions) => eventLog.list(listOptions),
    recordEvents: async (body, admit) => intake.push(body, { now: now(), maxAgeMs: options.maxEventAgeMs, maxFutureMs: options.maxEventFutureMs }, admit),
    storedEvents: () => eventLog.stored,
    deleteUserEvents(userToken) {
      if (!USER_TOKEN.test(userToken)) throw invalidEvents('userToken must be 1 to 129 characters among letters, digits and _ = / + -');
      eventLog.deleteUser(userToken);
      return personalization.forget(userToken);
    },
    personalization,
    recommend: (body, caller) => recommender.recommend(body, caller, now),
    reRankingFor: (indexName, query) => reRanking.boostsFor(indexName, query),
    reRankingStats: () => reRanking.stats(),
    queryCategorization: (indexName, query) => categories.lookup(indexName, query),
    analytics,
    settleSearches: () => searchLog.settle(),
    abTests,
    now,
    async stop() {
      closing = true;
      clearImmediate(first);
      // The other threads' connections closed first: the main one, the last, then checkpoints and removes the log.
      await builder.stop();
      await personalization.stop();
      await checkpointer?.stop();
      insights.close();
    },
    close() {
      if (closed) return;
      closed = closing = true;
      for (const timer of timers) clearInterval(timer);
      // Batches in line are stored, as they would have been: their clients are waiting for the acknowledgement.
      intake.drain();
      searchLog.close();
      abTests.close();
      void builder.stop();
      personalization.close();
      void checkpointer?.stop();
      db.close();
    },
  };

  const schedule = (intervalMs: number, task: () => unknown, what: string) => {
    if (intervalMs <= 0) return;
    const timer = setInterval(async () => {
      try {
        await task();
      } catch (error) {
        // A build cut short by the shutdown is no failure.
        if (!closing) logError(`insights: scheduled ${what} failed`, error);
      }
    }, intervalMs);
    timer.unref();
    timers.push(timer);
  };
  schedule(options.modelRebuildIntervalMs, rebuildModels, 'model rebuild');
  schedule(options.suggestionsRebuildIntervalMs, buildSuggestions, 'query suggestions build');
  schedule(DAY_MS, purge, 'retention purge');
  // First models right away (from the events of previous runs), after the purge, off the registration path.
  const first = setImmediate(() => {
    purge()
      .then(() => (closing ? undefined : rebuildModels()))
      .catch((error: unknown) => {
        if (!closing) logError('insights: initial model build failed', error);
      });
  });
  return insights;
}
