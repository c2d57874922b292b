/**
 * Restart: the operations logged after the latest snapshot (the log's tail), read once, then applied in order to
 * the state the snapshot loaded, in slices with the event loop turning between them (the server answers
 * `/1/isalive` with 503 meanwhile).
 */
import { applyOp } from './apply.ts';
import type { Db } from './db.ts';
import { opWeight } from './ops.ts';
import type { Op } from './ops.ts';
import type { IndexRegistry } from './registry.ts';

/** A logged operation as stored: its position and JSON text. */
export interface LoggedRow {
  seq: number;
  json: string;
}

/** What a replay applied, and what it weighs for the snapshot cadence (`Store.maybeSnapshot`). */
export interface Replayed {
  ops: number;
  records: number;
  bytes: number;
}

/** Time a replay runs before letting the event loop turn. */
const REPLAY_SLICE_MS = 50;

/** The log rows after `snapshotSeq`, in order, as text (parsed once each when applied). */
export function readLogTail(db: Db, snapshotSeq: number): LoggedRow[] {
  return db.prepare('SELECT seq, op AS json FROM ops WHERE seq > ? ORDER BY seq').all(snapshotSeq) as LoggedRow[];
}

/** Records held by an index's engine (the primary's for a replica), 0 when it does not exist. */
export function recordsIn(registry: IndexRegistry, indexName: string): number {
  const entry = registry.get(indexName);
  return entry ? registry.sizeOf(entry) : 0;
}

/**
 * Applies `rows` to `registry` in order. One that fails is reported and skipped, as when it was first applied.
 * Yields to the event loop every `REPLAY_SLICE_MS`.
 */
export async function replayRows(registry: IndexRegistry, rows: LoggedRow[], onApplyError: (taskID: number, error: unknown) => void): Promise<Replayed> {
  const replayed: Replayed = { ops: 0, records: 0, bytes: 0 };
  let sliceStart = performance.now();
  for (const row of rows) {
    const op = JSON.parse(row.json) as Op;
    replayed.records += opWeight(op, (name) => recordsIn(registry, name));
    replayed.bytes += row.json.length;
    replayed.ops++;
    try {
      applyOp(registry, op);
    } catch (error) {
      onApplyError(row.seq, error);
    }
    if (performance.now() - sliceStart >= REPLAY_SLICE_MS) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
  }
  return replayed;
}
