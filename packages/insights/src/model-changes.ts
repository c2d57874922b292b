/**
 * The main thread's side of incremental model builds: what the insights database must log for the next build
 * (`model_changes`, written by the triggers of `db.ts`), and the log's upkeep.
 *
 * The model aggregates (`model-store.ts`) count the events up to the last id a build read. An event deleted
 * after being counted (budget, retention, `DELETE /1/usertokens`) must be taken out again: the delete trigger
 * logs it, for the next build to read that user's day again. Two `meta` values bound what is logged, so that a
 * flood past the budget between builds does not double its writes:
 *
 * - `models_read_to`: events with a larger id were never counted. While a build runs it may count any event
 *   committed meanwhile, so it is the largest integer until the build has answered with the last id it read.
 * - `models_from`: events older than it lie in days the aggregates no longer hold (`keptFromDay`), which the
 *   next build drops whole. It only grows; a build that finds it past its own window starts from scratch.
 *
 * The log is read by the builds (`changesTo`, the last change counted, is kept with the aggregates) and cleared
 * up to it afterwards, in steps. A log that grew past the event budget (builds failing for days) is dropped,
 * and the aggregates with it: `models_epoch` changes, and the next build starts from scratch.
 */
import { randomBytes } from 'node:crypto';
import type { InsightsDb } from './db.ts';
import { getMeta, setMeta } from './db.ts';
import type { InsightsOptions } from './deps.ts';
import { DAY_MS } from './deps.ts';
import { dayOf } from './days.ts';

const READING = String(Number.MAX_SAFE_INTEGER);
/** Changes deleted per step (a few milliseconds). */
const CHANGES_PER_STEP = 5000;

/** The first day the aggregates hold: the longest of the models' windows (pairs, both trending windows). */
export function keptFromDay(now: number, options: InsightsOptions): number {
  return dayOf(now) - Math.max(options.modelWindowDays, 2 * options.trendingWindowDays);
}

/** Identifies this event log to the aggregates (a different one, or a dropped change log: from scratch). */
export function modelsEpoch(db: InsightsDb): string {
  let epoch = getMeta(db, 'models_epoch');
  if (epoch === undefined) {
    epoch = randomBytes(8).toString('hex');
    setMeta(db, 'models_epoch', epoch);
  }
  return epoch;
}

/** Written without an fsync: lost to a crash, the values before were safe too (smaller, or a build redone). */
function relaxed<T>(db: InsightsDb, work: () => T): T {
  db.pragma('synchronous = NORMAL');
  try {
    return db.transaction(work)();
  } finally {
    db.pragma('synchronous = FULL');
  }
}

/** Days older than `now`'s window are no longer logged (their deletions concern no aggregate the next build keeps). */
export function advanceModelsFrom(db: InsightsDb, now: number, options: InsightsOptions): void {
  const from = keptFromDay(now, options) * DAY_MS;
  const current = Number(getMeta(db, 'models_from') ?? -Infinity);
  if (from > current) relaxed(db, () => setMeta(db, 'models_from', String(from)));
}

/**
 * Event ids below `next` that another writer gives again (SQLite's largest id plus one: an older Vitrine, a
 * tool) are logged by the insert trigger: the counter of `event-log.ts` follows every id given, not only its own.
 */
function raiseNextId(db: InsightsDb, next: number): void {
  db.prepare(`INSERT INTO meta (key, value) VALUES ('events_next_id', ?)
    ON CONFLICT (key) DO UPDATE SET value = max(CAST(value AS INTEGER), CAST(excluded.value AS INTEGER))`).run(String(next));
}

/** Before a build starts: every deletion is logged until it answers. */
export function beginModelBuild(db: InsightsDb, now: number, options: InsightsOptions): void {
  relaxed(db, () => {
    modelsEpoch(db);
    raiseNextId(db, (db.prepare('SELECT coalesce(max(id), 0) FROM events').pluck().get() as number) + 1);
    setMeta(db, 'models_read_to', READING);
    if (getMeta(db, 'models_from') === undefined) setMeta(db, 'models_from', String(keptFromDay(now, options) * DAY_MS));
  });
  advanceModelsFrom(db, now, options);
}

/** Once no build runs: deletions of events past `readTo` (never counted) are no longer logged. */
export function endModelBuild(db: InsightsDb, readTo: number): void {
  relaxed(db, () => {
    setMeta(db, 'models_read_to', String(readTo));
    raiseNextId(db, readTo + 1);
  });
}

/** Clears the changes the aggregates counted (up to `changesTo`), a step at a time. */
export function* clearChangeSteps(db: InsightsDb, changesTo: number): Generator<void> {
  const clear = db.prepare('DELETE FROM model_changes WHERE seq <= ? ORDER BY seq LIMIT ?');
  while (relaxed(db, () => clear.run(changesTo, CHANGES_PER_STEP).changes) === CHANGES_PER_STEP) yield;
}

/**
 * A change log longer than `limit` (builds failing for days) is dropped, and the aggregates with it: the epoch
 * changes at once (the next build starts from scratch), the rows go a step at a time.
 */
export function* boundChangeSteps(db: InsightsDb, limit: number): Generator<void> {
  const { low, high } = db.prepare('SELECT min(seq) AS low, max(seq) AS high FROM model_changes').get() as { low: number | null; high: number | null };
  if (low === null || high === null || high - low + 1 <= limit) return;
  relaxed(db, () => setMeta(db, 'models_epoch', randomBytes(8).toString('hex')));
  yield* clearChangeSteps(db, high);
}
