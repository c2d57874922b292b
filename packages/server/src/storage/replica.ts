/**
 * What a replica of the store's in-memory state (a search thread) receives: where it starts, the operations
 * applied after that, and the snapshots it may write for the store.
 */
import type { Op } from './ops.ts';

/** A logged operation and its JSON as logged (replicas of the state receive the text, not a copy of the object). */
export interface AppliedOp {
  seq: number;
  op: Op;
  json: string;
}

/** Where a replica of the in-memory state starts (see `startReplica`). */
export interface ReplicaStart {
  dataDir: string;
  /** The snapshot to load (0: none, start empty). */
  snapshotSeq: number;
  /** Then these logged operations, in order: every one applied after the snapshot. */
  ops: Array<{ seq: number; json: string }>;
  /** The last of them: the replica is then where the store was when `startReplica` returned. */
  appliedSeq: number;
  /** How long after it is ready the replica reads the records it loaded from the snapshot's files (`recordsFromFilesAfterStartMs`). */
  recordsFromFilesAfterMs: number;
  /** `ServerLimits.indexingShareWhileSearching`, for the thread's own apply loop. */
  indexingShareWhileSearching: number;
  /** Lets snapshots be pruned again once the replica has loaded. */
  release(): void;
}

/**
 * Writes the engine files of a snapshot after operation `seq` into the folder `dir` somewhere else (a search
 * thread, from its replica of the state) and resolves with the snapshot's manifest. The replica holds back the
 * operations after `seq` until it calls `released` (it wrote every byte, or failed, and applied what it held):
 * their tasks are published only then.
 */
export type SnapshotCapture = (seq: number, dir: string, released: () => void) => Promise<string>;
