/** Restart: the operations logged after the latest snapshot, applied in order to the state it loaded. */
import { applyOp } from './apply.ts';
import type { Db } from './db.ts';
import { opWeight } from './ops.ts';
import type { Op } from './ops.ts';
import type { IndexRegistry } from './registry.ts';

/**
 * Applies every logged operation after `snapshotSeq` to `registry`. One that fails is reported and skipped, as
 * when it was first applied. Returns the last sequence applied and how much was replayed (the next snapshot's due).
 */
export function replayLog(
  db: Db,
  registry: IndexRegistry,
  snapshotSeq: number,
  onApplyError: (taskID: number, error: unknown) => void,
): { applied: number; replayed: number; replayedRecords: number } {
  let applied = snapshotSeq;
  let replayed = 0;
  let replayedRecords = 0;
  const rows = db.prepare('SELECT seq, op FROM ops WHERE seq > ? ORDER BY seq').iterate(snapshotSeq) as IterableIterator<{ seq: number; op: string }>;
  for (const row of rows) {
    const op = JSON.parse(row.op) as Op;
    try {
      applyOp(registry, op);
    } catch (error) {
      onApplyError(row.seq, error);
    }
    applied = row.seq;
    replayed++;
    replayedRecords += opWeight(op);
  }
  return { applied, replayed, replayedRecords };
}
