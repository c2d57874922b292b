/**
 * The SQLite database of a data folder: the operation log, the snapshot pointer and API keys
 * (insights events live in their own database: see `insights/db.ts`).
 * WAL with `synchronous = FULL`: a committed transaction is on disk (fsync'ed) when `commit` returns, which is
 * what lets the server acknowledge a write only once it survives a crash or power loss. The operation log's own
 * commits are the exception: written with `synchronous = NORMAL` and flushed off the event loop before anything
 * is acknowledged (`wal-sync.ts`).
 */
import Database from 'better-sqlite3';
import type { Database as SqliteDatabase } from 'better-sqlite3';
import { join } from 'node:path';

export type Db = SqliteDatabase;

export const DB_FILE = 'vitrine.db';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS ops (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  op TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS api_keys (
  hash TEXT PRIMARY KEY,
  data TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  deleted_at INTEGER
);
`;

/** Opens (or creates) the log database; `check` sees an existing one before anything is written to it. */
export function openDb(dataDir: string, check?: (db: Db) => void): Db {
  const db = new Database(join(dataDir, DB_FILE));
  try {
    // One server per data folder: two would each apply the log to their own memory and diverge. The exclusive
    // lock is taken by the first statement and held until the connection closes (or the process dies).
    db.pragma('locking_mode = EXCLUSIVE');
    db.pragma('busy_timeout = 2000');
    check?.(db);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.exec(SCHEMA);
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code === 'SQLITE_BUSY') {
      throw Object.assign(new Error(`the data folder ${dataDir} is in use by another Vitrine server`, { cause: error }), { code: 'VITRINE_DATA_DIR_IN_USE' });
    }
    throw error;
  }
  return db;
}

export function getMeta(db: Db, key: string): string | undefined {
  const row = db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined;
  return row?.value;
}

export function setMeta(db: Db, key: string, value: string): void {
  db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(key, value);
}

/** Log rows deleted per turn of the event loop once a snapshot covers them (`trimLog`). */
const LOG_TRIM_ROWS = 2000;

/**
 * Deletes the log rows a snapshot covers, `LOG_TRIM_ROWS` per turn of the event loop: the 20,000 rows of a
 * snapshot deleted in one statement held every request for tens of milliseconds (docs/PERFORMANCE.md). The
 * deletes commit without waiting for the disk (a lost one is harmless); rows a crash leaves behind are never read
 * (a restart replays the log after `snapshot_seq`) and go with the next snapshot's trim.
 */
export async function trimLog(db: Db, upTo: number): Promise<void> {
  const step = db.prepare('DELETE FROM ops WHERE seq IN (SELECT seq FROM ops WHERE seq <= ? ORDER BY seq LIMIT ?)');
  while (withoutFsync(db, () => step.run(upTo, LOG_TRIM_ROWS).changes) === LOG_TRIM_ROWS) {
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** Runs `write` with its commits not waiting for the disk (`synchronous = NORMAL`), the default restored after. */
export function withoutFsync<T>(db: Db, write: () => T): T {
  db.pragma('synchronous = NORMAL');
  try {
    return write();
  } finally {
    db.pragma('synchronous = FULL');
  }
}
