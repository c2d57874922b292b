/**
 * The search log: the search routes call `record(entry)` after each search; entries wait in memory and are
 * written in batches (every `searchFlushIntervalMs` or `searchFlushBatch` entries), one transaction each. A
 * search is not an acknowledged write, so a crash may lose the last second of analytics, never an event.
 *
 * A batch is first summed in memory by rollup key (a popular query searched 300 times in the batch is one
 * upsert), then upserted into the daily rollups. Searches made with `clickAnalytics` also get a `tracked` row,
 * keyed by their queryID, so that later events find them.
 */
import type { SearchLogEntry } from '@vitrine/protocol';
import type { InsightsDb } from './db.ts';
import { setMeta } from './db.ts';
import { appliedFilters, dayOf, normalizeQuery, tagsKey } from './days.ts';

/** How many of a search's first hits count in the top-hits analytics. */
const TOP_HITS_COUNTED = 10;
const QUERY_ID = /^[0-9a-f]{32}$/;

type Counters = Record<string, number>;

function bump(map: Map<string, { key: unknown[]; counters: Counters }>, key: unknown[], increments: Counters): void {
  const id = key.join('\u0000');
  let entry = map.get(id);
  if (!entry) {
    entry = { key, counters: {} };
    map.set(id, entry);
  }
  for (const [name, value] of Object.entries(increments)) entry.counters[name] = (entry.counters[name] ?? 0) + value;
}

export class SearchLog {
  private pending: SearchLogEntry[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly upsertQuery;
  private readonly upsertHit;
  private readonly upsertHitQuery;
  private readonly upsertFilter;
  private readonly upsertNoResultCombo;
  private readonly insertUser;
  private readonly insertTracked;

  constructor(
    private readonly db: InsightsDb,
    private readonly now: () => number,
    private readonly flushIntervalMs: number,
    private readonly flushBatch: number,
  ) {
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

  get pendingCount(): number {
    return this.pending.length;
  }

  /** Queues one search. Malformed entries (a caller bug, not a user's) are dropped rather than thrown at a search. */
  record(entry: SearchLogEntry): void {
    if (entry.analytics === false) return;
    if (typeof entry.index !== 'string' || entry.index === '' || typeof entry.query !== 'string' || !Number.isFinite(entry.nbHits)) return;
    this.pending.push(entry.timestamp === undefined ? { ...entry, timestamp: this.now() } : entry);
    if (this.pending.length >= this.flushBatch) this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), this.flushIntervalMs);
      this.timer.unref();
    }
  }

  /**
   * Writes every queued search in one transaction, without waiting for the disk: `synchronous = NORMAL` for
   * this commit only (in WAL mode the frames still reach the disk at the next fsync — the next event commit or
   * checkpoint). An fsync per batch would block the event loop for the disk's latency on every flush.
   */
  flush(): void {
    if (this.pending.length === 0) return;
    this.db.pragma('synchronous = NORMAL');
    try {
      this.db.transaction(() => this.writePending())();
    } finally {
      this.db.pragma('synchronous = FULL');
    }
  }

  /** Writes the queued searches inside the caller's transaction (the event log flushes them before attributing events). */
  writePending(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    this.write(batch);
  }

  close(): void {
    this.flush();
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private write(batch: SearchLogEntry[]): void {
    const queries = new Map<string, { key: unknown[]; counters: Counters }>();
    const hits = new Map<string, { key: unknown[]; counters: Counters }>();
    const hitQueries = new Map<string, { key: unknown[]; counters: Counters }>();
    const filters = new Map<string, { key: unknown[]; counters: Counters }>();
    const combos = new Map<string, { key: unknown[]; counters: Counters }>();
    const latestHits = new Map<string, { nbHits: number; ts: number }>();
    const updatedIndices = new Map<string, number>();

    for (const entry of batch) {
      const ts = entry.timestamp!;
      const day = dayOf(ts);
      const tags = tagsKey(entry.analyticsTags);
      const query = normalizeQuery(entry.query);
      const base = [entry.index, day, tags];
      const noResults = entry.nbHits === 0 ? 1 : 0;
      const conditions = appliedFilters(entry);
      const tracked = typeof entry.queryID === 'string' && QUERY_ID.test(entry.queryID) ? 1 : 0;
      const queryKey = [...base, query];
      bump(queries, queryKey, {
        searches: 1,
        noResults,
        noResultsFiltered: noResults && conditions.length > 0 ? 1 : 0,
        tracked,
        trackedWithResults: tracked && !noResults ? 1 : 0,
      });
      const queryId = queryKey.join('\u0000');
      const latest = latestHits.get(queryId);
      if (!latest || ts >= latest.ts) latestHits.set(queryId, { nbHits: entry.nbHits, ts });
      for (const objectID of (entry.objectIDs ?? []).slice(0, TOP_HITS_COUNTED)) {
        if (typeof objectID !== 'string') continue;
        bump(hits, [...base, objectID], { count: 1, tracked });
        bump(hitQueries, [...base, query, objectID], { count: 1, tracked });
      }
      for (const c of conditions) bump(filters, [...base, query, c.attribute, c.operator, c.value], { count: 1 });
      if (noResults && conditions.length > 0) {
        const combo = JSON.stringify(conditions.map((c) => [c.attribute, c.operator, c.value]).sort());
        bump(combos, [...base, query, combo], { count: 1 });
      }
      const user = entry.userToken ?? entry.ip;
      if (user) this.insertUser.run(entry.index, day, tags, user);
      if (tracked) this.insertTracked.run(entry.queryID, entry.index, day, tags, query);
      updatedIndices.set(entry.index, Math.max(updatedIndices.get(entry.index) ?? 0, ts));
    }

    for (const { key, counters: c } of queries.values()) {
      const latest = latestHits.get(key.join('\u0000'))!;
      this.upsertQuery.run(...key, c.searches, c.noResults, c.noResultsFiltered, latest.nbHits, latest.ts, c.tracked, c.trackedWithResults);
    }
    for (const { key, counters: c } of hits.values()) this.upsertHit.run(...key, c.count, c.tracked);
    for (const { key, counters: c } of hitQueries.values()) this.upsertHitQuery.run(...key, c.count, c.tracked);
    for (const { key, counters: c } of filters.values()) this.upsertFilter.run(...key, c.count);
    for (const { key, counters: c } of combos.values()) this.upsertNoResultCombo.run(...key, c.count);
    const writtenAt = new Date(this.now()).toISOString();
    for (const index of updatedIndices.keys()) setMeta(this.db, `updated:${index}`, writtenAt);
  }
}
