/**
 * The insights database: its own SQLite file (`insights.sqlite`) beside the core store, in WAL mode with
 * `synchronous = FULL`, so an acknowledged event is on disk (the WAL fsync'ed at commit).
 *
 * Tables:
 * - `events`: every accepted event (the models read it), with the user and time indexes retention and
 *   `DELETE /1/usertokens` need, and the index-name index the per-index budget trims by (`event-log.ts`).
 * - `event_counts`: events stored per index (`''` for those without one), kept exact by triggers whatever
 *   deletes them (budget, retention, a user's deletion), so a commit learns whether it went past a budget
 *   without counting a million rows.
 * - `tracked`: searches made with `clickAnalytics`, by queryID, so later events are attributed to them; `flags`
 *   records which kinds of event the search already got (a search counts once in a rate).
 * - `*_daily`: rollups by index, UTC day and analytics-tags set, written as searches and events arrive. The
 *   analytics endpoints read only these, so their cost follows the number of distinct queries per day, not the
 *   number of searches: a million logged searches of a few thousand queries stay a few thousand rows a day.
 * - `model_changes`: events the models' aggregates already counted that were deleted since (budget, retention,
 *   a user's deletion), and events numbered below what they read, written by triggers whatever changes them,
 *   for the next model build to read those users' days again (`model-update.ts`, `model-changes.ts`).
 */
import Database from 'better-sqlite3';
import type { Database as SqliteDatabase } from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

export type InsightsDb = SqliteDatabase;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS events (
  id INTEGER PRIMARY KEY,
  ts INTEGER NOT NULL,
  received_at INTEGER NOT NULL,
  index_name TEXT,
  type TEXT NOT NULL,
  subtype TEXT,
  name TEXT NOT NULL,
  user_token TEXT NOT NULL,
  auth_token TEXT,
  query_id TEXT,
  object_ids TEXT,
  positions TEXT,
  filters TEXT,
  object_data TEXT,
  value REAL,
  currency TEXT
);
CREATE INDEX IF NOT EXISTS events_ts ON events (ts);
CREATE INDEX IF NOT EXISTS events_user ON events (user_token);
CREATE INDEX IF NOT EXISTS events_auth ON events (auth_token) WHERE auth_token IS NOT NULL;
CREATE INDEX IF NOT EXISTS events_index ON events (index_name);
CREATE TABLE IF NOT EXISTS event_counts (index_name TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;
CREATE TRIGGER IF NOT EXISTS events_counted AFTER INSERT ON events BEGIN
  INSERT INTO event_counts (index_name, n) VALUES (coalesce(new.index_name, ''), 1)
    ON CONFLICT (index_name) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER IF NOT EXISTS events_uncounted AFTER DELETE ON events BEGIN
  UPDATE event_counts SET n = n - 1 WHERE index_name = coalesce(old.index_name, '');
END;
CREATE TABLE IF NOT EXISTS model_changes (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id INTEGER NOT NULL,
  index_name TEXT NOT NULL,
  user TEXT NOT NULL,
  ts INTEGER NOT NULL
);
CREATE TRIGGER IF NOT EXISTS events_uncounted_by_models AFTER DELETE ON events
  WHEN old.index_name IS NOT NULL AND old.type != 'instantsearch'
    AND old.id <= (SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'models_read_to')
    AND old.ts >= (SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'models_from')
BEGIN
  INSERT INTO model_changes (id, index_name, user, ts) VALUES (old.id, old.index_name, coalesce(old.auth_token, old.user_token), old.ts);
END;
CREATE TRIGGER IF NOT EXISTS events_numbered_again AFTER INSERT ON events
  WHEN new.index_name IS NOT NULL AND new.type != 'instantsearch'
    AND new.id < (SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'events_next_id')
BEGIN
  INSERT INTO model_changes (id, index_name, user, ts) VALUES (new.id, new.index_name, coalesce(new.auth_token, new.user_token), new.ts);
END;
CREATE TABLE IF NOT EXISTS tracked (
  query_id TEXT PRIMARY KEY,
  index_name TEXT NOT NULL,
  day INTEGER NOT NULL,
  tags TEXT NOT NULL,
  query TEXT NOT NULL,
  flags INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS tracked_day ON tracked (day);
CREATE TABLE IF NOT EXISTS query_daily (
  index_name TEXT NOT NULL, day INTEGER NOT NULL, tags TEXT NOT NULL, query TEXT NOT NULL,
  searches INTEGER NOT NULL DEFAULT 0,
  no_results INTEGER NOT NULL DEFAULT 0,
  no_results_filtered INTEGER NOT NULL DEFAULT 0,
  nb_hits INTEGER NOT NULL DEFAULT 0,
  nb_hits_ts INTEGER NOT NULL DEFAULT 0,
  tracked INTEGER NOT NULL DEFAULT 0,
  tracked_with_results INTEGER NOT NULL DEFAULT 0,
  clicked INTEGER NOT NULL DEFAULT 0,
  clicks INTEGER NOT NULL DEFAULT 0,
  position_sum INTEGER NOT NULL DEFAULT 0,
  positioned INTEGER NOT NULL DEFAULT 0,
  converted INTEGER NOT NULL DEFAULT 0,
  conversions INTEGER NOT NULL DEFAULT 0,
  carted INTEGER NOT NULL DEFAULT 0,
  carts INTEGER NOT NULL DEFAULT 0,
  purchased INTEGER NOT NULL DEFAULT 0,
  purchases INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (index_name, day, tags, query)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS position_daily (
  index_name TEXT NOT NULL, day INTEGER NOT NULL, tags TEXT NOT NULL, query TEXT NOT NULL, bucket INTEGER NOT NULL,
  clicks INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (index_name, day, tags, query, bucket)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS revenue_daily (
  index_name TEXT NOT NULL, day INTEGER NOT NULL, tags TEXT NOT NULL, query TEXT NOT NULL, currency TEXT NOT NULL,
  revenue REAL NOT NULL DEFAULT 0,
  PRIMARY KEY (index_name, day, tags, query, currency)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS hit_daily (
  index_name TEXT NOT NULL, day INTEGER NOT NULL, tags TEXT NOT NULL, object_id TEXT NOT NULL,
  count INTEGER NOT NULL DEFAULT 0, tracked INTEGER NOT NULL DEFAULT 0, clicks INTEGER NOT NULL DEFAULT 0,
  conversions INTEGER NOT NULL DEFAULT 0, carts INTEGER NOT NULL DEFAULT 0, purchases INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (index_name, day, tags, object_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS hit_query_daily (
  index_name TEXT NOT NULL, day INTEGER NOT NULL, tags TEXT NOT NULL, query TEXT NOT NULL, object_id TEXT NOT NULL,
  count INTEGER NOT NULL DEFAULT 0, tracked INTEGER NOT NULL DEFAULT 0, clicks INTEGER NOT NULL DEFAULT 0,
  conversions INTEGER NOT NULL DEFAULT 0, carts INTEGER NOT NULL DEFAULT 0, purchases INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (index_name, day, tags, query, object_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS hit_revenue_daily (
  index_name TEXT NOT NULL, day INTEGER NOT NULL, tags TEXT NOT NULL, query TEXT NOT NULL, object_id TEXT NOT NULL,
  currency TEXT NOT NULL, revenue REAL NOT NULL DEFAULT 0,
  PRIMARY KEY (index_name, day, tags, query, object_id, currency)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS filter_daily (
  index_name TEXT NOT NULL, day INTEGER NOT NULL, tags TEXT NOT NULL, query TEXT NOT NULL,
  attribute TEXT NOT NULL, operator TEXT NOT NULL, value TEXT NOT NULL,
  count INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (index_name, day, tags, query, attribute, operator, value)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS noresult_filters_daily (
  index_name TEXT NOT NULL, day INTEGER NOT NULL, tags TEXT NOT NULL, query TEXT NOT NULL, combo TEXT NOT NULL,
  count INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (index_name, day, tags, query, combo)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS query_user_daily (
  index_name TEXT NOT NULL, query TEXT NOT NULL, day INTEGER NOT NULL, user TEXT NOT NULL,
  PRIMARY KEY (index_name, query, day, user)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS user_daily (
  index_name TEXT NOT NULL, day INTEGER NOT NULL, tags TEXT NOT NULL, user_token TEXT NOT NULL,
  PRIMARY KEY (index_name, day, tags, user_token)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS position_shown_daily (
  index_name TEXT NOT NULL, day INTEGER NOT NULL, query TEXT NOT NULL, object_id TEXT NOT NULL, position INTEGER NOT NULL,
  shown INTEGER NOT NULL DEFAULT 0, clicks INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (index_name, day, query, object_id, position)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS country_daily (
  index_name TEXT NOT NULL, day INTEGER NOT NULL, tags TEXT NOT NULL, country TEXT NOT NULL,
  count INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (index_name, day, tags, country)
) WITHOUT ROWID;
`;

/** Tables keyed by (index_name, day, …): what retention trims. */
export const DAILY_TABLES = [
  'query_daily', 'position_daily', 'revenue_daily', 'hit_daily', 'hit_query_daily', 'hit_revenue_daily',
  'filter_daily', 'noresult_filters_daily', 'user_daily', 'country_daily', 'query_user_daily', 'position_shown_daily',
] as const;

/**
 * The log file is cut back to this size whenever SQLite starts it over (after a complete checkpoint): without
 * it, the log keeps the largest size it ever reached (gigabytes after a burst of writes while a long read held
 * its checkpoints back).
 */
const LOG_SIZE_LIMIT = 64 * 1024 * 1024;

export function openInsightsDb(dataDir: string): InsightsDb {
  mkdirSync(dataDir, { recursive: true });
  const db = new Database(join(dataDir, 'insights.sqlite'));
  // Only a new file takes it (it must precede the first table): its freed pages can then be given back to the
  // file system (`PRAGMA incremental_vacuum`, after the retention purge). A file written before keeps its
  // freed pages for the next writes: it stops growing once the event budget is reached, without shrinking.
  db.pragma('auto_vacuum = INCREMENTAL');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma(`journal_size_limit = ${LOG_SIZE_LIMIT}`);
  const counted = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'event_counts'").get() !== undefined;
  db.transaction(() => {
    db.exec(SCHEMA);
    // A database written before the counts existed: counted once, here (the triggers keep them from now on).
    if (!counted) db.exec("INSERT INTO event_counts (index_name, n) SELECT coalesce(index_name, ''), COUNT(*) FROM events GROUP BY 1");
  })();
  return db;
}

/** The `meta` table has the core store's shape (key, value). */
export function getMeta(db: InsightsDb, key: string): string | undefined {
  const row = db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined;
  return row?.value;
}

export function setMeta(db: InsightsDb, key: string, value: string): void {
  db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(key, value);
}
