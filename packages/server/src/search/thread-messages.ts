/** Messages between the main thread and the search threads (`threads.ts` ↔ `thread.ts`). */
import type { ErrorCode } from '../errors.ts';
import type { SearchAnswer, SearchCall } from './queries.ts';
import type { ReadCall } from './reads.ts';

/** A search thread's start, step by step (ms): snapshot read, log tail replayed, warm-up searches. */
export interface StartPhases {
  snapshotMs: number;
  replayMs: number;
  warmUpMs: number;
}

/**
 * A logged operation as a thread receives it: its JSON as logged and, for a batch that deletes no index, the
 * indexes it writes. A search arriving behind queued operations is checked against those names rather than
 * against each batch parsed and walked request by request: that check took 0.4 ms of the thread per search
 * during a catalogue import (docs/PERFORMANCE.md, import through the console).
 */
export interface SentOp {
  seq: number;
  json: string;
  /** Undefined: unknown without parsing (not a batch, or one deleting an index), so it may change any index. */
  writes?: string[];
}

export type ThreadRequest =
  | { type: 'start'; dataDir: string; snapshotSeq: number; ops: SentOp[]; appliedSeq: number; recordsFromFilesAfterMs: number; indexingShareWhileSearching: number }
  | { type: 'apply'; ops: SentOp[] }
  | { type: 'search'; id: number; call: SearchCall }
  /** A read other than a search call (`reads.ts`): records by objectID, a browse page, sizes… */
  | { type: 'read'; id: number; call: ReadCall }
  /** Write the engine files of a snapshot after operation `seq` into the folder `dir`. */
  | { type: 'snapshot'; id: number; seq: number; dir: string }
  /** Let the thread end on its own (profilers and coverage write their output then). */
  | { type: 'stop' };

export type ThreadResponse =
  /** Loaded: `phases` is how long each step of the start took (ms), for the start-up report. */
  | { type: 'ready'; appliedSeq: number; phases: StartPhases }
  /**
   * Every operation up to `seq` is applied here (the main thread holds its applies back while one lags); the
   * record count of each index then (the main thread, holding none, weighs operations with them).
   */
  | { type: 'applied'; seq: number; recordCounts: Array<[string, number]> }
  /** The thread no longer holds operations back for a snapshot: it applied every one it held. */
  | { type: 'snapshot-released'; id: number }
  /** The files are written and fsync'ed: the manifest to write beside them, or why not. */
  | { type: 'snapshot'; id: number; manifest?: string; error?: string }
  /** A piece of a search call's response (a large one comes in pieces, in order, before its result). */
  | { type: 'piece'; id: number; bytes: Uint8Array }
  | { type: 'result'; id: number; answer?: SearchAnswer; error?: { code: ErrorCode; status: number; message: string } }
  /** A read's answer (`readIndexes`), or the caller's mistake. */
  | { type: 'read-result'; id: number; value?: unknown; error?: { code: ErrorCode; status: number; message: string } };
