/**
 * A backup: a copy of a running server's data folder that a server serves as it is, consistent at one task.
 *
 * The copy is the snapshot the store pinned (`Store.pinSnapshot`: written for the backup when operations were
 * applied since the last one) and nothing of the log after it: the copy's task is that snapshot's position, and
 * each index's record count at that position is in its manifest. Snapshot files never change once in place, so
 * they are copied with ordinary file copies (a clone where the file system offers one) while writes go on. The
 * log database's other tables (API keys, the snapshot position) are copied into a new file, its log left
 * out; the insights database is copied by a thread of its own with SQLite's `VACUUM INTO`.
 *
 * Everything is written into a sibling of the target (`.<name>.partial`), flushed, and marked complete with
 * `backup.json`, written last; only then does it take the target's place (an earlier backup there is moved to
 * `.<name>.previous` for the two renames, then removed). An interruption at any point leaves the target as it
 * was; the next backup removes what is left and, if the interruption fell between the two renames, puts the
 * earlier backup back first.
 */
import { constants as fsConstants, existsSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { copyFile, mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { Db } from './db.ts';
import { DB_FILE } from './db.ts';
import { BACKUP_MARKER, DATA_FORMAT, FORMAT_FILE, INSIGHTS_FILE } from './data-folder.ts';
import type { Manifest } from './snapshot.ts';
import { SNAPSHOTS_DIR } from './snapshot.ts';

/** Files of the data folder copied as they are (each written once, by rename, when created). */
const PLAIN_FILES = ['keys.json', 'api-key-secret', 'demo-seeding'];

/** A target the caller named that cannot take a backup: the reason, for a 400. */
export class BackupRefused extends Error {}

export interface BackupTarget {
  dir: string;
  /** Where the copy is written, then renamed to `dir`. */
  partial: string;
  /** Where an earlier backup at `dir` waits between the two renames. */
  previous: string;
  /** `dir` holds an earlier backup (or is an empty folder) that the copy replaces. */
  replacing: boolean;
  /** What was tidied up first (an interrupted backup's leftovers), for the caller. */
  notes: string[];
}

export interface BackupIndex {
  name: string;
  /** Records at the backup's task (a replica's are its primary's); null when its snapshot did not record them. */
  records: number | null;
  replicaOf?: string;
}

export interface BackupReport {
  to: string;
  /** The log position the copy holds: every write up to this task, none after. */
  taskID: number;
  indexes: BackupIndex[];
  bytes: number;
}

export interface BackupSource {
  dataDir: string;
  /** The live log database (its own connection: the online backup then follows writes made meanwhile). */
  db: Db;
  /** The pinned snapshot (0: none yet, an empty store). */
  snapshotSeq: number;
  /** Called before the insights database is copied (the search log written out). */
  beforeInsightsCopy?: () => void;
}

/** The indexes of a snapshot's manifest, with their record counts when it has them. */
export async function snapshotIndexes(dataDir: string, seq: number): Promise<BackupIndex[]> {
  if (seq === 0) return [];
  const manifest = JSON.parse(await readFile(join(dataDir, SNAPSHOTS_DIR, String(seq), 'manifest.json'), 'utf8')) as Manifest;
  const owners = new Map(manifest.indexes.map((item) => [item.name, item.records ?? null]));
  return manifest.indexes.map((item) => {
    const primary = item.engineFile === undefined ? item.settings.primary : undefined;
    return typeof primary === 'string' ? { name: item.name, records: owners.get(primary) ?? null, replicaOf: primary } : { name: item.name, records: item.records ?? null };
  });
}

/**
 * Checks `to` (an absolute path on this machine) can take a backup of `dataDir`, tidies an interrupted backup's
 * leftovers, and creates the folder the copy is written into. Refusals are `BackupRefused`.
 */
export async function prepareBackupTarget(dataDir: string, to: string): Promise<BackupTarget> {
  if (!isAbsolute(to)) throw new BackupRefused('the path must be absolute (a folder on the server’s machine)');
  const dir = resolve(to);
  const data = resolve(dataDir);
  if (isInside(dir, data) || isInside(data, dir)) throw new BackupRefused(`it is the data folder ${data}, or inside it, or holds it`);
  const parent = dirname(dir);
  const target: BackupTarget = { dir, partial: join(parent, `.${basename(dir)}.partial`), previous: join(parent, `.${basename(dir)}.previous`), replacing: false, notes: [] };
  if (!(await statOf(parent))?.isDirectory()) throw new BackupRefused(`its parent folder ${parent} does not exist`);
  // The two renames of an earlier run were interrupted: the earlier backup goes back first (or, if the new one
  // took its place, away).
  if (existsSync(target.previous)) {
    if (existsSync(dir)) {
      await rm(target.previous, { recursive: true, force: true });
    } else {
      await rename(target.previous, dir);
      target.notes.push(`put back the earlier backup an interrupted run had moved to ${target.previous}`);
    }
  }
  const found = await statOf(dir);
  if (found !== undefined) {
    if (!found.isDirectory()) throw new BackupRefused('it is a file');
    const names = await readdir(dir);
    if (names.length > 0 && !names.includes(BACKUP_MARKER)) {
      throw new BackupRefused(`the folder is not empty and holds no complete Vitrine backup (no ${BACKUP_MARKER}): choose another folder, or empty this one`);
    }
    target.replacing = true;
  }
  if (existsSync(target.partial)) {
    await rm(target.partial, { recursive: true, force: true });
    target.notes.push(`removed the incomplete copy an interrupted backup left at ${target.partial}`);
  }
  try {
    await mkdir(target.partial, { mode: 0o700 });
  } catch (error) {
    throw new BackupRefused(`${parent} is not writable (${(error as { code?: string }).code ?? String(error)})`);
  }
  return target;
}

/** Removes what an abandoned backup wrote; the target itself is as it was. */
export async function abandonBackup(target: BackupTarget): Promise<void> {
  await rm(target.partial, { recursive: true, force: true });
}

export interface BackupSteps {
  signal: AbortSignal;
  /** Bytes copied so far, after each file. */
  onProgress?: (bytes: number) => void;
  /** Awaited once everything is copied, before the copy is marked complete (tests interrupt it there). */
  beforeCommit?: () => Promise<void>;
}

/** Writes the copy into `target.partial`, marks it complete, and puts it in the target's place. */
export async function writeBackup(source: BackupSource, target: BackupTarget, indexes: BackupIndex[], steps: BackupSteps): Promise<BackupReport> {
  const { signal } = steps;
  const into = target.partial;
  const written: string[] = [];
  let bytes = 0;
  const done = async (file: string) => {
    written.push(file);
    bytes += (await stat(file)).size;
    steps.onProgress?.(bytes);
    signal.throwIfAborted();
  };
  if (source.snapshotSeq > 0) {
    const from = join(source.dataDir, SNAPSHOTS_DIR, String(source.snapshotSeq));
    const to = join(into, SNAPSHOTS_DIR, String(source.snapshotSeq));
    await mkdir(to, { recursive: true, mode: 0o700 });
    // A clone where the file system offers one (copy-on-write: instant, no space), else a copy.
    for (const name of await readdir(from)) {
      await copyFile(join(from, name), join(to, name), fsConstants.COPYFILE_FICLONE);
      await done(join(to, name));
    }
  }
  copyLogDb(source, join(into, DB_FILE));
  await done(join(into, DB_FILE));
  if (existsSync(join(source.dataDir, INSIGHTS_FILE))) {
    // Searches the search log holds in memory are written first.
    source.beforeInsightsCopy?.();
    await copySqliteFile(join(source.dataDir, INSIGHTS_FILE), join(into, INSIGHTS_FILE));
    await done(join(into, INSIGHTS_FILE));
  }
  for (const name of PLAIN_FILES) {
    if (!existsSync(join(source.dataDir, name))) continue;
    await copyFile(join(source.dataDir, name), join(into, name));
    await done(join(into, name));
  }
  await writeFile(join(into, FORMAT_FILE), `${JSON.stringify({ format: DATA_FORMAT })}\n`, { mode: 0o600 });
  written.push(join(into, FORMAT_FILE));
  // Durable before the marker says complete.
  for (const file of written) await syncFile(file);
  for (const folder of [join(into, SNAPSHOTS_DIR, String(source.snapshotSeq)), join(into, SNAPSHOTS_DIR)]) if (existsSync(folder)) await syncFile(folder);
  await steps.beforeCommit?.();
  signal.throwIfAborted();
  const report: BackupReport = { to: target.dir, taskID: source.snapshotSeq, indexes, bytes };
  const marker = { format: DATA_FORMAT, taskID: report.taskID, createdAt: new Date().toISOString(), source: resolve(source.dataDir), indexes };
  await writeFile(join(into, BACKUP_MARKER), `${JSON.stringify(marker, null, 2)}\n`, { mode: 0o600 });
  await syncFile(join(into, BACKUP_MARKER));
  await syncFile(into);
  // From here on the copy is complete; an earlier backup steps aside for the two renames.
  if (target.replacing) await rename(target.dir, target.previous);
  await rename(into, target.dir);
  await syncFile(dirname(target.dir));
  if (target.replacing) await rm(target.previous, { recursive: true, force: true });
  return report;
}

/**
 * The log database as a new file: every table but the log itself (API keys, the snapshot position), read from
 * the server's connection in one synchronous step (a few rows: the log's are left out), the snapshot position
 * set to the pinned one and the log's sequence kept above every task the server issued, so the restored server
 * never issues a task ID twice. Written without a journal or flushes (this thread must not wait for the disk):
 * the file is flushed with the others before the backup is marked complete.
 */
function copyLogDb(source: BackupSource, file: string): void {
  const live = source.db;
  const copy = new Database(file);
  try {
    copy.pragma('journal_mode = OFF');
    copy.pragma('synchronous = OFF');
    const schema = live.prepare("SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY type DESC").all() as Array<{ type: string; name: string; sql: string }>;
    copy.transaction(() => {
      for (const { sql } of schema) copy.exec(sql);
      for (const { type, name } of schema) {
        if (type !== 'table' || name === 'ops') continue;
        const rows = live.prepare(`SELECT * FROM "${name}"`).raw().all() as unknown[][];
        if (rows.length === 0) continue;
        const insert = copy.prepare(`INSERT INTO "${name}" VALUES (${rows[0].map(() => '?').join(', ')})`);
        for (const row of rows) insert.run(row);
      }
      const issued = (live.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'ops'").pluck().get() as number | undefined) ?? 0;
      copy.prepare("INSERT INTO sqlite_sequence (name, seq) VALUES ('ops', ?)").run(Math.max(issued, source.snapshotSeq));
      if (source.snapshotSeq > 0) copy.prepare("INSERT INTO meta (key, value) VALUES ('snapshot_seq', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value").run(String(source.snapshotSeq));
      else copy.exec("DELETE FROM meta WHERE key = 'snapshot_seq'");
    })();
  } finally {
    copy.close();
  }
}

/**
 * A consistent copy of a SQLite database in WAL mode (the insights database) written by a thread of its own with
 * a second connection (`VACUUM INTO`: one read transaction, which writers in WAL mode do not wait for). SQLite's
 * online backup on this thread held it 120–140 ms in its last step for a 40 MB database (the copy's commit and
 * flush), up to 34 ms in others.
 */
function copySqliteFile(from: string, to: string): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const worker = new Worker(new URL('./sqlite-copy-thread.mjs', import.meta.url), { workerData: { from, to } });
    worker.once('message', (message: { error?: string }) => (message.error === undefined ? resolvePromise() : reject(new Error(message.error))));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the copy of ${from} ended (${code}) before it was done`)));
  });
}

/** fsync off this thread, of a file or a folder (some platforms refuse it on folders, where renames are durable anyway). */
async function syncFile(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync().catch(async (error: unknown) => {
      if (!(await handle.stat()).isDirectory()) throw error;
    });
  } finally {
    await handle.close();
  }
}

async function statOf(path: string): Promise<Stats | undefined> {
  try {
    return await stat(path);
  } catch {
    return undefined;
  }
}

function isInside(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}
