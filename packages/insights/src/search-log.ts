/**
 * The search log: the search routes call `record(entry)` after each search. Query aggregation comes first
 * (`query-sequences.ts`: a user typing "l", "la", "lam", "lamp" is one search, counted when the sequence closes);
 * each counted search is summed at once into the rollups waiting in memory (`search-batch.ts`: a query searched
 * 300 times before the next write is one upsert), and those are written in batches (every `searchFlushIntervalMs`
 * or `searchFlushBatch` searches, 10 s or 10,000 by default): one upsert per distinct key, not per search.
 * Summing at record time keeps memory bounded by the distinct keys and leaves only the SQLite writes to the
 * background writer, which runs on the event loop in chunks of at most `CHUNK_ROWS` upserts or `CHUNK_MS`, one
 * transaction and one turn of the event loop each, resting between chunks as long as the last one took: written
 * at once, a busy second's keys stalled every request. Batch sizes and their costs: docs/PERFORMANCE.md and
 * docs/INSIGHTS.md (`bench/search-log.ts`).
 *
 * A search is not an acknowledged write, so a crash may lose the last batch of analytics, never an event.
 * Searches made with `clickAnalytics` also get a `tracked` row, keyed by their queryID, so that later events find
 * them: those rows wait apart and are written first, by the next chunk or by an event commit (`writeTracked`),
 * so that attributing an event never waits for the rollups. Analytics reads `settle()` (the batch is written
 * in chunks while requests go on); `flush()` (imports, tests, shutdown) writes it at once.
 */
import type { SearchLogEntry } from '@vitrine/protocol';
import type { InsightsDb } from './db.ts';
import { setMeta } from './db.ts';
import { dayOf, normalizeQuery, tagsKey } from './days.ts';
import { QuerySequences, type SearchSequence } from './query-sequences.ts';
import { Batch, isQueryId, MAX_USERS_COUNTED, userOf } from './search-batch.ts';
import type { BaseRow, QueryRow, TrackedRow } from './search-batch.ts';
import { compare, stepsInOrder } from './ordered-steps.ts';
import { shownKey, UPSERT_SHOWN } from './reranking/impressions.ts';

/**
 * Upserts per transaction (and per turn of the event loop) when batches are written in the background, and the
 * time one may take: every request in flight waits for a chunk, so chunks stay short (docs/PERFORMANCE.md).
 */
const CHUNK_ROWS = 500;
const CHUNK_MS = 4;

export class SearchLog {
  private pending = new Batch();
  /** Searches of users still typing (query aggregation): counted once their sequence closes. */
  private readonly sequences: QuerySequences;
  /** Counts a closed sequence's search and attributes every queryID of the sequence to it. */
  private readonly closeSequence = (sequence: SearchSequence): void => {
    const { entry, ts, query, queryIDs } = sequence;
    this.pending.add(entry, ts, query);
    this.onCounted?.(entry, queryIDs);
    if (queryIDs.length === 0) return;
    const day = dayOf(ts);
    const tags = tagsKey(entry.analyticsTags);
    for (const queryID of queryIDs) if (isQueryId(queryID)) this.trackedRows.push([queryID, entry.index, day, tags, query]);
  };
  /** Told each search as it is counted, with the queryIDs of its sequence (A/B tests' figures: `abtests/tally.ts`). */
  onCounted?: (entry: SearchLogEntry, queryIDs: readonly string[]) => void;
  /** Tracked searches not yet written (few: only clickAnalytics searches), apart from the rollups. */
  private trackedRows: TrackedRow[] = [];
  /** Callers of `settle()` waiting for the background writer to finish. */
  private settling: Array<() => void> = [];
  private timer: NodeJS.Timeout | undefined;
  /** Batches taken from `pending` and being written in chunks: each step of a generator is one upsert. */
  private writing: Array<Generator<void, void>> = [];
  private chunkScheduled = false;
  /** Closed with the insights database: a search finishing after shutdown began is not logged. */
  private closed = false;
  private readonly upsertQuery;
  private readonly upsertHit;
  private readonly upsertHitQuery;
  private readonly upsertFilter;
  private readonly upsertNoResultCombo;
  private readonly insertUser;
  private readonly insertQueryUser;
  private readonly insertTracked;
  private readonly upsertCountry;
  private readonly upsertShown;

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
    // Up to MAX_USERS_COUNTED users per query and day (their rows are found by the key's prefix).
    this.insertQueryUser = db.prepare(`
      INSERT OR IGNORE INTO query_user_daily (index_name, query, day, user) SELECT @index, @query, @day, @user
      WHERE (SELECT COUNT(*) FROM query_user_daily WHERE index_name = @index AND query = @query AND day = @day) < ${MAX_USERS_COUNTED}`);
    this.insertTracked = db.prepare('INSERT OR IGNORE INTO tracked (query_id, index_name, day, tags, query, flags) VALUES (?, ?, ?, ?, ?, 0)');
    this.upsertShown = db.prepare(UPSERT_SHOWN);
    this.upsertCountry = db.prepare(`
      INSERT INTO country_daily (index_name, day, tags, country, count) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT (index_name, day, tags, country) DO UPDATE SET count = count + excluded.count`);
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
    if (this.closed || entry.analytics === false) return;
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
    if (this.closed) return;
    this.flush();
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    // Searches still under way when the server stops finish after this: their timers and chunks would write
    // to a closed database, an exception with no caller to catch it.
    this.closed = true;
  }

  /** Hands the counted searches to the chunked writer, after closing the sequences past their window. */
  private writeInBackground(): void {
    if (this.closed) return;
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

  /** The next chunk on a later turn of the event loop, after `restMs` (see `writeChunk`). */
  private scheduleChunk(restMs = 0): void {
    if (this.chunkScheduled || (this.writing.length === 0 && this.trackedRows.length === 0)) return;
    this.chunkScheduled = true;
    const next = () => {
      this.chunkScheduled = false;
      if (!this.closed) this.writeChunk();
    };
    if (restMs > 0) setTimeout(next, restMs);
    else setImmediate(next);
  }

  /**
   * Up to CHUNK_ROWS upserts (or CHUNK_MS of them) in one transaction, then the rest on a later turn, after a
   * rest as long as this chunk took: written back to back, a batch kept the main thread busy for a second or
   * two, its requests queueing behind the chunks; resting, the writer takes at most half of it. No rest while
   * an analytics read waits (`settle`) or batches pile up (more than one being written).
   */
  private writeChunk(): void {
    if (this.writing.length === 0 && this.trackedRows.length === 0) return this.wakeSettled();
    const chunkStarted = performance.now();
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
    else this.scheduleChunk(this.settling.length > 0 || this.writing.length > 1 ? 0 : performance.now() - chunkStarted);
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
   * hundreds of thousands of rows). Keys are (index, day, tags, …), so each table is written base by base.
   */
  private *upserts(batch: Batch): Generator<void, void> {
    const bases = [...batch.bases.values()].sort((a, b) => compare(a.index, b.index) || a.day - b.day || compare(a.tags, b.tags));
    const base = (b: BaseRow) => [b.index, b.day, b.tags] as const;
    // Each base's query rows in order, put in order by the first pass and read again by the later ones.
    const queriesInOrder = new Map<BaseRow, QueryRow[]>();
    for (const b of bases) {
      const ordered: QueryRow[] = [];
      queriesInOrder.set(b, ordered);
      yield* stepsInOrder(b.queries.keys(), (query) => {
        const row = b.queries.get(query)!;
        ordered.push(row);
        const c = row.counts;
        this.upsertQuery.run(...base(b), query, c.searches, c.noResults, c.noResultsFiltered, row.nbHits, row.nbHitsTs, c.tracked, c.trackedWithResults);
      });
    }
    for (const b of bases) {
      const { counts, tracked } = b.hits;
      yield* stepsInOrder(counts.keys(), (objectID) => this.upsertHit.run(...base(b), objectID, counts.get(objectID)!, tracked.get(objectID) ?? 0));
    }
    for (const b of bases) {
      for (const row of queriesInOrder.get(b)!) {
        const { counts, tracked } = row.hits;
        yield* stepsInOrder(counts.keys(), (objectID) => this.upsertHitQuery.run(...base(b), row.query, objectID, counts.get(objectID)!, tracked.get(objectID) ?? 0));
      }
    }
    for (const b of bases) {
      for (const row of queriesInOrder.get(b)!) {
        yield* stepsInOrder(row.filters.keys(), (id) => {
          const f = row.filters.get(id)!;
          this.upsertFilter.run(...base(b), row.query, f.attribute, f.operator, f.value, f.count);
        });
      }
    }
    for (const b of bases) {
      for (const row of queriesInOrder.get(b)!) {
        yield* stepsInOrder(row.combos.keys(), (combo) => this.upsertNoResultCombo.run(...base(b), row.query, combo, row.combos.get(combo)!));
      }
    }
    for (const b of bases) yield* stepsInOrder(b.users.values(), (user) => this.insertUser.run(...base(b), user));
    for (const b of bases) {
      for (const row of queriesInOrder.get(b)!) {
        yield* stepsInOrder(row.users.values(), (user) => this.insertQueryUser.run({ index: b.index, query: row.query, day: b.day, user }));
      }
    }
    for (const b of bases) {
      for (const row of queriesInOrder.get(b)!) {
        yield* stepsInOrder(row.shown.keys(), (key) => this.upsertShown.run(b.index, b.day, row.query, ...shownKey(key), row.shown.get(key)!));
      }
    }
    for (const b of bases) yield* stepsInOrder(b.countries.keys(), (country) => this.upsertCountry.run(...base(b), country, b.countries.get(country)!));
    const writtenAt = new Date(this.now()).toISOString();
    for (const index of batch.updated.keys()) setMeta(this.db, `updated:${index}`, writtenAt);
  }
}
