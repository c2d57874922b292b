/**
 * What a data folder is, checked before anything in it is opened: its format version (`format.json`, written
 * when the folder is created), and that it is a Vitrine folder at all.
 *
 * - A folder whose format is newer than this build knows is refused, naming both versions; nothing in it is
 *   touched (an older build could otherwise misread, then snapshot and trim, what a newer one wrote).
 * - A folder without `format.json` but with a log database was written before folders recorded their format:
 *   it is format 1, and the file is written once it has opened (`recordDataFormat`).
 * - A folder holding other things and no log database is not ours (a mistyped `VITRINE_DATA_DIR`): refused
 *   rather than filled with a new shop. A folder with snapshots or analytics but no log database lost it: refused
 *   rather than started empty (which would then prune the snapshots).
 *
 * Every refusal is a `DataFolderError`: a message for the operator, no stack trace.
 */
import { closeSync, existsSync, fsyncSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DB_FILE, openDb } from './db.ts';
import type { Db } from './db.ts';
import { SNAPSHOTS_DIR } from './snapshot.ts';

/** The data folder format this build writes and reads. Raise it with a step in `recordDataFormat` for older ones. */
export const DATA_FORMAT = 1;
export const FORMAT_FILE = 'format.json';
export const INSIGHTS_FILE = 'insights.sqlite';
/** Written last into a backup (`backup.ts`): its presence means the copy is complete. */
export const BACKUP_MARKER = 'backup.json';
/** The local embedding models' folder, by default (`ServerConfig.modelsDir`). */
export const MODELS_DIR = 'models';

/**
 * What Vitrine itself keeps in a data folder (beside SQLite's `-wal`, `-shm` and `-journal` files). The models'
 * aggregates (`insights-models.sqlite`, `@vitrine/insights`) and personalization's profiles
 * (`insights-profiles.sqlite`) are derived from the insights database and rebuilt when missing: backups leave them out.
 * `models` holds the shop's local embedding models (`huggingFace` embedders), put there by hand before a first
 * start as often as after: backups leave them out too.
 */
const OWN_ENTRIES = new Set([DB_FILE, INSIGHTS_FILE, 'insights-models.sqlite', 'insights-profiles.sqlite', 'snapshots', 'keys.json', 'api-key-secret', 'demo-seeding', 'sync-state.json', FORMAT_FILE, BACKUP_MARKER, MODELS_DIR]);

export class DataFolderError extends Error {
  readonly code = 'VITRINE_DATA_FOLDER';
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'DataFolderError';
  }
}

/**
 * `new`: missing, empty, or holding only what a first start writes before its database (keys). `existing`: a
 * folder of `format` (1 when it has no `format.json`: `recorded` false), opened, then upgraded if older and
 * recorded as this build's format.
 */
export type DataFolderState = { kind: 'new' } | { kind: 'existing'; format: number; recorded: boolean };

function isOwn(name: string): boolean {
  return OWN_ENTRIES.has(name.replace(/(-wal|-shm|-journal|\.tmp)$/, ''));
}

/** Reads the folder, never writes it. */
export function inspectDataFolder(dataDir: string): DataFolderState {
  let names: string[];
  try {
    if (!statSync(dataDir).isDirectory()) throw new DataFolderError(`the data folder ${dataDir} is a file, not a folder`);
    // Hidden entries and a mount point's lost+found are not anybody's data.
    names = readdirSync(dataDir).filter((name) => !name.startsWith('.') && name !== 'lost+found');
  } catch (error) {
    if (error instanceof DataFolderError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'ENOENT') return { kind: 'new' };
    throw new DataFolderError(`the data folder ${dataDir} cannot be read (${code ?? String(error)})`, { cause: error });
  }
  const has = new Set(names);
  const format = has.has(FORMAT_FILE) ? readFormat(join(dataDir, FORMAT_FILE)) : undefined;
  if (format !== undefined && format > DATA_FORMAT) {
    throw new DataFolderError(
      `the data folder ${dataDir} has data format ${format}, written by a newer Vitrine; this one reads formats up to ${DATA_FORMAT}. ` +
        'Run the newer Vitrine again (or start this one on a backup taken before the upgrade): the folder was left as it is.',
    );
  }
  const logSize = has.has(DB_FILE) ? statSync(join(dataDir, DB_FILE)).size : -1;
  const data = [...has].filter((name) => name === 'snapshots' || name.startsWith(INSIGHTS_FILE));
  if (logSize <= 0 && data.length > 0) {
    const what = logSize === 0 ? `its log database (${DB_FILE}) is empty` : `its log database (${DB_FILE}) is missing`;
    throw new DataFolderError(
      `the data folder ${dataDir} holds ${data.join(' and ')} but ${what}: it cannot be opened without losing data. ` +
        'Restore the folder from a backup; it was left as it is.',
    );
  }
  if (logSize === -1) {
    const others = names.filter((name) => !isOwn(name));
    if (others.length > 0) {
      const shown = others.slice(0, 5).join(', ') + (others.length > 5 ? `, and ${others.length - 5} more` : '');
      throw new DataFolderError(
        `${dataDir} is not a Vitrine data folder: it holds other files (${shown}) and no ${DB_FILE}. ` +
          'Point VITRINE_DATA_DIR at a Vitrine data folder, or at an empty or missing folder to start a new shop.',
      );
    }
    return { kind: 'new' };
  }
  // Written before data folders recorded their format: format 1.
  return { kind: 'existing', format: format ?? 1, recorded: format !== undefined };
}

/** The tables every log database has had. */
const LOG_TABLES = ['ops', 'meta', 'api_keys'];

/**
 * Opens the log database of a folder `inspectDataFolder` accepted: an existing one must be a readable SQLite
 * database holding the log's tables (checked before anything is written to it). Damage is a `DataFolderError`.
 */
export function openLogDb(dataDir: string, state: DataFolderState): Db {
  try {
    return openDb(dataDir, (db) => {
      if (state.kind === 'new') return;
      const tables = new Set(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[]);
      const missing = LOG_TABLES.filter((name) => !tables.has(name));
      if (missing.length > 0) throw new DataFolderError(`${join(dataDir, DB_FILE)} is not a Vitrine log database (no table ${missing.join(', ')}): the folder was left as it is`);
    });
  } catch (error) {
    throw damaged(dataDir, error);
  }
}

/**
 * The log's position and tail as read when the store opens, checked against the snapshot folders: with no
 * snapshot position recorded, a log that does not start at its first operation lost the rest.
 */
export function checkLogStart(dataDir: string, db: Db, snapshotSeq: number): void {
  if (snapshotSeq > 0) return;
  let snapshots: string[];
  try {
    snapshots = readdirSync(join(dataDir, SNAPSHOTS_DIR)).filter((name) => /^\d+$/.test(name));
  } catch {
    return;
  }
  if (snapshots.length === 0 || db.prepare('SELECT 1 FROM ops WHERE seq = 1').get() !== undefined) return;
  throw new DataFolderError(
    `${join(dataDir, DB_FILE)} records no snapshot while ${SNAPSHOTS_DIR}/ holds ${snapshots.join(', ')}: the log database was replaced or damaged. ` +
      'Restore the folder from a backup; it was left as it is.',
  );
}

/** A SQLite failure reading a folder's database, as a message naming the file (anything else as it is). */
export function damaged(dataDir: string, error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !code.startsWith('SQLITE_') || code === 'SQLITE_BUSY') return error;
  return new DataFolderError(
    `${join(dataDir, DB_FILE)} cannot be read (${(error as Error).message}): the log database is damaged. Restore the data folder from a backup; it was left as it is.`,
    { cause: error },
  );
}

function readFormat(file: string): number {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new DataFolderError(`${file} cannot be read as JSON (${(error as Error).message}): restore it from a backup ({"format": ${DATA_FORMAT}} for this version)`, { cause: error });
  }
  const format = (parsed as { format?: unknown } | null)?.format;
  if (!Number.isSafeInteger(format) || (format as number) < 1) {
    throw new DataFolderError(`${file} names no data format (expected {"format": N}, N a positive integer): restore it from a backup`);
  }
  return format as number;
}

/**
 * A folder has loaded: it is recorded in this build's format (format 1, the only one so far, needs no other
 * change), and is no longer a backup: a server runs on it, so a later backup must not replace it.
 */
export function settleOpenedFolder(dataDir: string, state: DataFolderState): void {
  if (state.kind === 'existing' && !state.recorded) recordDataFormat(dataDir);
  if (existsSync(join(dataDir, BACKUP_MARKER))) {
    rmSync(join(dataDir, BACKUP_MARKER));
    syncPath(dataDir);
  }
}

/** Writes `format.json` (this build's format) durably: write, flush, rename, flush the folder. */
export function recordDataFormat(dataDir: string): void {
  const file = join(dataDir, FORMAT_FILE);
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, `${JSON.stringify({ format: DATA_FORMAT })}\n`, { mode: 0o600 });
  syncPath(tmp);
  renameSync(tmp, file);
  syncPath(dataDir);
}

/** fsync of a file or folder (a rename is durable once its folder is flushed). */
export function syncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } catch (error) {
    // Some platforms refuse fsync on folders, where a rename is durable anyway.
    if (!statSync(path).isDirectory()) throw error;
  } finally {
    closeSync(fd);
  }
}
