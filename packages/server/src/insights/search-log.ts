/**
 * The search log: the search routes call `record(entry)` after each search. Query aggregation comes first
 * (`query-sequences.ts`: a user typing "l", "la", "lam", "lamp" is one search, counted when the sequence closes);
 * each counted search is summed at once into the rollups waiting in memory (by rollup key: a popular query searched
 * 300 times before the next write is one upsert, and so is each of its top hits), and those are written in batches
 * (every `searchFlushIntervalMs` or `searchFlushBatch` searches, 10 s or 10,000 by default): one upsert per
 * distinct key, not per search. Summing at record time keeps memory bounded by the distinct keys and leaves only
 * the SQLite writes to the background writer, which runs on the event loop in chunks of at most `CHUNK_ROWS`
 * upserts or `CHUNK_MS`, one transaction and one turn of the event loop each: a busy second can hold tens of
 * thousands of distinct keys (each search's top hits), and writing them at once stalled every request for
 * 50–200 ms. Larger batches write fewer rows per search (keys repeat more within ten seconds than within one): a
 * quarter less event-loop time per search than batches of 1,000 (`bench/search-log.ts`, figures in
 * `docs/INSIGHTS.md`).
 *
 * A search is not an acknowledged write, so a crash may lose the last batch of analytics, never an event.
 * Searches made with `clickAnalytics` also get a `tracked` row, keyed by their queryID, so that later events find
 * them: those rows wait apart and are written first, by the next chunk or by an event commit (`writeTracked`),
 * so that attributing an event never waits for the rollups. Analytics reads `settle()` (the batch is written
 * in chunks while requests go on); `flush()` (model builds, imports, tests, shutdown) writes it at once.
 */
import type { SearchLogEntry } from '@vitrine/protocol';
import type { InsightsDb } from './db.ts';
import { setMeta } from './db.ts';
import { appliedFilters, dayOf, normalizeQuery, tagsKey } from './days.ts';
import { QuerySequences, type SearchSequence } from './query-sequences.ts';

/** How many of a search's first hits count in the top-hits analytics. */
export const TOP_HITS_COUNTED = 10;
const QUERY_ID = /^[0-9a-f]{32}$/;
const MAX_CONDITIONS_COUNTED = 50;
const MAX_USER_TOKEN_LENGTH = 129;
/**
 * Upserts per transaction (and per turn of the event loop) when batches are written in the background, and the
 * time one may take: every request in flight waits for a chunk, so chunks stay short (500 rows took 20–25 ms
 * under the HTTP benchmark, the slowest seconds' p99 rising with them).
 */
const CHUNK_ROWS = 500;
const CHUNK_MS = 4;

/** One rollup row waiting to be written: its primary key values and the counts to add. */
interface Pending<C> {
  key: Array<string | number>;
  counts: C;
}

/**
 * Sums per rollup key. `id` is the key's parts joined by NUL (a string is cheaper to build and hash than the
 * key's array, which is only built for a new row); parts containing NUL could alias another key, which at worst
 * merges the counts of such odd queries or objectIDs. `counts` must be a fresh object: a new row keeps it.
 */
class Sums<C extends Record<string, number>> {
  readonly rows = new Map<string, Pending<C>>();

  add(id: string, key: () => Array<string | number>, counts: C): void {
    const row = this.rows.get(id);
    if (row) for (const name in counts) (row.counts as Record<string, number>)[name] += counts[name];
    else this.rows.set(id, { key: key(), counts });
  }
}

/** A tracked search: queryID, index, day, tags, query. */
type TrackedRow = [string, string, number, string, string];

type QueryCounts = { searches: number; noResults: number; noResultsFiltered: number; tracked: number; trackedWithResults: number };

/** The rollups of the searches recorded since the last write. */
class Batch {
  searches = 0;
  readonly queries = new Sums<QueryCounts>();
  /** Latest nbHits of each query row (the `query_daily.nb_hits` shown by top searches), with its time. */
  readonly latest = new Map<string, { nbHits: number; ts: number }>();
  readonly hits = new Sums<{ count: number; tracked: number }>();
  readonly hitQueries = new Sums<{ count: number; tracked: number }>();
  readonly filters = new Sums<{ count: number }>();
  readonly combos = new Sums<{ count: number }>();
  readonly users = new Map<string, Array<string | number>>();
  readonly updated = new Map<string, number>();

  /** Sums one search (`query`: its normalised query). */
  add(entry: SearchLogEntry, ts: number, query: string): void {
    this.searches++;
    const day = dayOf(ts);
    const tags = tagsKey(entry.analyticsTags);
    const index = entry.index;
    const base = `${index}\u0000${day}\u0000${tags}`;
    const noResults = entry.nbHits === 0 ? 1 : 0;
    // A search's filters can hold thousands of conditions; the first ones tell what shoppers filter on.
    const conditions = appliedFilters(entry).slice(0, MAX_CONDITIONS_COUNTED);
    const tracked = isQueryId(entry.queryID) ? 1 : 0;
    const queryId = `${base}\u0000${query}`;
    this.queries.add(queryId, () => [index, day, tags, query], {
      searches: 1,
      noResults,
      noResultsFiltered: noResults && conditions.length > 0 ? 1 : 0,
      tracked,
      trackedWithResults: tracked && !noResults ? 1 : 0,
    });
    const latest = this.latest.get(queryId);
    if (!latest || ts >= latest.ts) this.latest.set(queryId, { nbHits: entry.nbHits, ts });
    const objectIDs = entry.objectIDs ?? [];
    for (let i = 0; i < objectIDs.length && i < TOP_HITS_COUNTED; i++) {
      const objectID = objectIDs[i];
      if (typeof objectID !== 'string') continue;
      this.hits.add(`${base}\u0000${objectID}`, () => [index, day, tags, objectID], { count: 1, tracked });
      this.hitQueries.add(`${queryId}\u0000${objectID}`, () => [index, day, tags, query, objectID], { count: 1, tracked });
    }
    for (const c of conditions) {
      this.filters.add(`${queryId}\u0000${c.attribute}\u0000${c.operator}\u0000${c.value}`, () => [index, day, tags, query, c.attribute, c.operator, c.value], { count: 1 });
    }
    if (noResults && conditions.length > 0) {
      const combo = JSON.stringify(conditions.map((c) => [c.attribute, c.operator, c.value]).sort());
      this.combos.add(`${queryId}\u0000${combo}`, () => [index, day, tags, query, combo], { count: 1 });
    }
    const user = userOf(entry);
    if (user) this.users.set(`${base}\u0000${user}`, [index, day, tags, user]);
    this.updated.set(index, Math.max(this.updated.get(index) ?? 0, ts));
  }
}

function isQueryId(value: unknown): value is string {
  return typeof value === 'string' && QUERY_ID.test(value);
}

/**
 * Who made a search: the user token, else the IP. The header's token is not validated by the search route: an
 * oversized one counts as the IP.
 */
function userOf(entry: SearchLogEntry): string | undefined {
  const token = entry.userToken !== undefined && entry.userToken.length <= MAX_USER_TOKEN_LENGTH ? entry.userToken : undefined;
  return token || entry.ip || undefined;
}

export class SearchLog {
  private pending = new Batch();
  /** Searches of users still typing (query aggregation): counted once their sequence closes. */
  private readonly sequences: QuerySequences;
  /** Counts a closed sequence's search and attributes every queryID of the sequence to it. */
  private readonly closeSequence = (sequence: SearchSequence): void => {
    const { entry, ts, query, queryIDs } = sequence;
    this.pending.add(entry, ts, query);
    if (queryIDs.length === 0) return;
    const day = dayOf(ts);
    const tags = tagsKey(entry.analyticsTags);
    for (const queryID of queryIDs) if (isQueryId(queryID)) this.trackedRows.push([queryID, entry.index, day, tags, query]);
  };
  /** Tracked searches not yet written (few: only clickAnalytics searches), apart from the rollups. */
  private trackedRows: TrackedRow[] = [];
  /** Callers of `settle()` waiting for the background writer to finish. */
  private settling: Array<() => void> = [];
  private timer: NodeJS.Timeout | undefined;
  /** Batches taken from `pending` and being written in chunks: each step of a generator is one upsert. */
  private writing: Array<Generator<void, void>> = [];
  private chunkScheduled = false;
  private readonly upsertQuery;
  private readonly upsertHit;
  private readonly upsertHitQuery;
  private readonly upsertFilter;
  private readonly upsertNoResultCombo;
  private readonly insertUser;
  private readonly insertTracked;

  /**
   * `aggregationWindowMs`: how long a user's search may be continued by the next (query aggregation,
   * `query-sequences.ts`); 0 counts every search.
   */
  constructor(
    private readonly db: InsightsDb,
    private readonly now: () => number,
    private readonly flushIntervalMs: number,
    private readonly flushBatch: number,
    aggregationWindowMs = 0,
  ) {
    this.sequences = new QuerySequences(aggregationWindowMs);
    this.upsertQuery = db.prepare(`
      INSERT INTO query_daily (index_name, day, tags, query, searches, no_results, no_results_filtered, nb_hits, nb_hits_ts, tracked, tracked_with_results)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (index_name, day, tags, query) DO UPDATE SET
        searches = searches + excluded.searches,
        no_results = no_results + excluded.no_results,
        no_results_filtered = no_results_filtered + excluded.no_results_filtered,
        nb_hits = CASE WHEN excluded.nb_hits_ts >= nb_hits_ts THEN excluded.nb_hits ELSE nb_hits END,
        nb_hits_ts = max(nb_hits_ts, excluded.nb_hits_ts),
        tracked = tracked + excluded.tracked,
        tracked_with_results = tracked_with_results + excluded.tracked_with_results`);
    this.upsertHit = db.prepare(`
      INSERT INTO hit_daily (index_name, day, tags, object_id, count, tracked) VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT (index_name, day, tags, object_id) DO UPDATE SET count = count + excluded.count, tracked = tracked + excluded.tracked`);
    this.upsertHitQuery = db.prepare(`
      INSERT INTO hit_query_daily (index_name, day, tags, query, object_id, count, tracked) VALUES (?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (index_name, day, tags, query, object_id) DO UPDATE SET count = count + excluded.count, tracked = tracked + excluded.tracked`);
    this.upsertFilter = db.prepare(`
      INSERT INTO filter_daily (index_name, day, tags, query, attribute, operator, value, count) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (index_name, day, tags, query, attribute, operator, value) DO UPDATE SET count = count + excluded.count`);
    this.upsertNoResultCombo = db.prepare(`
      INSERT INTO noresult_filters_daily (index_name, day, tags, query, combo, count) VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT (index_name, day, tags, query, combo) DO UPDATE SET count = count + excluded.count`);
    this.insertUser = db.prepare('INSERT OR IGNORE INTO user_daily (index_name, day, tags, user_token) VALUES (?, ?, ?, ?)');
    this.insertTracked = db.prepare('INSERT OR IGNORE INTO tracked (query_id, index_name, day, tags, query, flags) VALUES (?, ?, ?, ?, ?, 0)');
  }

  /** Searches counted and not yet handed to the writer. */
  get pendingCount(): number {
    return this.pending.searches;
  }

  /** Users whose latest search may still be continued (not counted yet). */
  get openSequences(): number {
    return this.sequences.openCount;
  }

  /**
   * Queues one search (`aggregate: false`: counted as it is, as for a history of searches already aggregated).
   * Malformed entries (a caller bug, not a user's) are dropped rather than thrown at a search.
   */
  record(entry: SearchLogEntry, aggregate = true): void {
    if (entry.analytics === false) return;
    if (typeof entry.index !== 'string' || entry.index === '' || typeof entry.query !== 'string' || !Number.isFinite(entry.nbHits)) return;
    const ts = entry.timestamp ?? this.now();
    this.sequences.offer(entry, ts, normalizeQuery(entry.query), aggregate ? userOf(entry) : undefined, this.closeSequence);
    if (this.pending.searches >= this.flushBatch) this.writeInBackground();
    else if (this.pending.searches > 0 || this.sequences.openCount > 0) this.armTimer();
  }

  /** Writes every recorded search now, in one transaction (model builds, imports and tests see exact counts after it). */
  flush(): void {
    this.sequences.closeAll(this.closeSequence);
    if (this.pending.searches === 0 && this.writing.length === 0 && this.trackedRows.length === 0) return;
    this.withoutFsync(() =>
      this.db.transaction(() => {
        this.takePending();
        this.writeTracked();
        for (const steps of this.writing) for (const _ of steps);
        this.writing = [];
      })(),
    );
    this.wakeSettled();
  }

  /**
   * Resolves once every search recorded before the call is written, written in chunks by the background writer
   * meanwhile (analytics reads: a batch of ten seconds at full load is ~100,000 upserts, too long to block on).
   */
  settle(): Promise<void> {
    // A read counts every search so far: the sequences of users still typing close with their latest search.
    this.sequences.closeAll(this.closeSequence);
    this.takePending();
    if (this.writing.length === 0 && this.trackedRows.length === 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.settling.push(resolve);
      this.scheduleChunk();
    });
  }

  /**
   * Writes the tracked searches waiting, inside the caller's transaction: the event log does before attributing
   * events to them. The rollups are not needed for that (events add to them with upserts of their own).
   */
  writeTracked(queryIDs: Iterable<string> = []): void {
    // An event about a search of a user still typing ends that sequence: the search is final.
    this.sequences.closeHolding(queryIDs, this.closeSequence);
    for (const row of this.trackedRows) this.insertTracked.run(...row);
    this.trackedRows = [];
  }

  close(): void {
    this.flush();
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Hands the counted searches to the chunked writer, after closing the sequences past their window. */
  private writeInBackground(): void {
    this.sequences.closeDue(this.now(), this.closeSequence);
    this.takePending();
    this.scheduleChunk();
    // Sequences still open are counted when they close: a later timer looks again.
    if (this.sequences.openCount > 0) this.armTimer();
  }

  private armTimer(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => this.writeInBackground(), this.flushIntervalMs);
    this.timer.unref();
  }

  private takePending(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.pending.searches === 0) return;
    this.writing.push(this.upserts(this.pending));
    this.pending = new Batch();
  }

  private scheduleChunk(): void {
    if (this.chunkScheduled || (this.writing.length === 0 && this.trackedRows.length === 0)) return;
    this.chunkScheduled = true;
    setImmediate(() => {
      this.chunkScheduled = false;
      this.writeChunk();
    });
  }

  /** Up to CHUNK_ROWS upserts (or CHUNK_MS of them) in one transaction, then the rest on a later turn. */
  private writeChunk(): void {
    if (this.writing.length === 0 && this.trackedRows.length === 0) return this.wakeSettled();
    this.withoutFsync(() =>
      this.db.transaction(() => {
        this.writeTracked();
        const started = performance.now();
        let budget = CHUNK_ROWS;
        while (budget > 0 && this.writing.length > 0) {
          if (this.writing[0].next().done) this.writing.shift();
          else if (--budget % 32 === 0 && performance.now() - started > CHUNK_MS) break;
        }
      })(),
    );
    if (this.writing.length === 0) this.wakeSettled();
    else this.scheduleChunk();
  }

  private wakeSettled(): void {
    if (this.writing.length > 0 || this.settling.length === 0) return;
    const waiting = this.settling;
    this.settling = [];
    for (const resolve of waiting) resolve();
  }

  /**
   * Search rollups commit without waiting for the disk: `synchronous = NORMAL` for these commits only (in WAL
   * mode the frames still reach the disk at the next fsync — the next event commit or checkpoint). An fsync per
   * commit would block the event loop for the disk's latency every time.
   */
  private withoutFsync(write: () => void): void {
    this.db.pragma('synchronous = NORMAL');
    try {
      write();
    } finally {
      this.db.pragma('synchronous = FULL');
    }
  }

  /**
   * The batch's upserts, one per step, each table's rows in key order. The rollup tables are B-trees on their
   * keys: written in arrival order, consecutive rows land on pages far apart, and each chunk's commit writes a
   * page per row to the WAL; in key order they share pages (a quarter of the time per row once the tables hold
   * hundreds of thousands of rows). The ids sort as the keys do (their parts in key order, joined by NUL).
   */
  private *upserts(batch: Batch): Generator<void, void> {
    for (const id of sortedKeys(batch.queries.rows)) {
      const { key, counts: c } = batch.queries.rows.get(id)!;
      const latest = batch.latest.get(id)!;
      this.upsertQuery.run(...key, c.searches, c.noResults, c.noResultsFiltered, latest.nbHits, latest.ts, c.tracked, c.trackedWithResults);
      yield;
    }
    for (const { key, counts: c } of inKeyOrder(batch.hits.rows)) {
      this.upsertHit.run(...key, c.count, c.tracked);
      yield;
    }
    for (const { key, counts: c } of inKeyOrder(batch.hitQueries.rows)) {
      this.upsertHitQuery.run(...key, c.count, c.tracked);
      yield;
    }
    for (const { key, counts: c } of inKeyOrder(batch.filters.rows)) {
      this.upsertFilter.run(...key, c.count);
      yield;
    }
    for (const { key, counts: c } of inKeyOrder(batch.combos.rows)) {
      this.upsertNoResultCombo.run(...key, c.count);
      yield;
    }
    for (const key of inKeyOrder(batch.users)) {
      this.insertUser.run(...key);
      yield;
    }
    const writtenAt = new Date(this.now()).toISOString();
    for (const index of batch.updated.keys()) setMeta(this.db, `updated:${index}`, writtenAt);
  }
}

function sortedKeys(rows: Map<string, unknown>): string[] {
  return [...rows.keys()].sort();
}

function* inKeyOrder<T>(rows: Map<string, T>): Generator<T, void> {
  for (const id of sortedKeys(rows)) yield rows.get(id)!;
}
