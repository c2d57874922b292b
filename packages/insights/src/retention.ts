/**
 * Retention: search analytics, tracked searches and events older than `retentionDays` are deleted, daily and at
 * start, in steps a turn of the event loop apart, requests answered between them: a day of a busy shop's events
 * is hundreds of thousands of rows, seconds of the main thread deleted at once. Then, in a file that allows it
 * (`auto_vacuum = INCREMENTAL`, new files: `db.ts`), the freed pages beyond an eighth of the file are given back
 * to the file system, a megabyte per step. Steps commit without an fsync (`synchronous = NORMAL`): a purge lost
 * to a crash is done again by the next.
 */
import type { InsightsDb } from './db.ts';
import { DAILY_TABLES } from './db.ts';
import { DAY_MS } from './deps.ts';
import { dayOf } from './days.ts';
import type { EventLog } from './event-log.ts';

/** Rows deleted per step (a few milliseconds). */
const ROWS_PER_STEP = 5000;
/** Pages given back per step (4 KB each). */
const PAGES_PER_STEP = 256;
/** Free pages kept for the next writes: at least this many, or an eighth of the file. */
const FREE_PAGES_KEPT = 1024;

export function* purgeSteps(db: InsightsDb, eventLog: EventLog, now: number, retentionDays: number): Generator<void> {
  const cutoffDay = dayOf(now) - retentionDays;
  const step = <T>(work: () => T): T => {
    db.pragma('synchronous = NORMAL');
    try {
      return work();
    } finally {
      db.pragma('synchronous = FULL');
    }
  };
  for (const table of DAILY_TABLES) {
    step(() => db.prepare(`DELETE FROM ${table} WHERE day < ?`).run(cutoffDay));
    yield;
  }
  const tracked = db.prepare('DELETE FROM tracked WHERE day < ? LIMIT ?');
  while (step(() => tracked.run(cutoffDay, ROWS_PER_STEP).changes) === ROWS_PER_STEP) yield;
  yield;
  while (step(() => eventLog.deleteBefore(cutoffDay * DAY_MS, ROWS_PER_STEP)) === ROWS_PER_STEP) yield;
  step(() => db.prepare('DELETE FROM event_counts WHERE n <= 0').run());
  yield;
  if (db.pragma('auto_vacuum', { simple: true }) !== 2) return;
  const free = () => db.pragma('freelist_count', { simple: true }) as number;
  const kept = () => Math.max(FREE_PAGES_KEPT, (db.pragma('page_count', { simple: true }) as number) / 8);
  while (free() > kept()) {
    step(() => db.pragma(`incremental_vacuum(${PAGES_PER_STEP})`));
    yield;
  }
}
