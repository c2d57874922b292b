/** Messages between the main thread and the search threads (`threads.ts` ↔ `thread.ts`). */
import type { ErrorCode } from '../errors.ts';
import type { QueryOutcome, SearchCall } from './queries.ts';

export type ThreadRequest =
  | { type: 'start'; dataDir: string; snapshotSeq: number; ops: Array<{ seq: number; json: string }>; appliedSeq: number }
  | { type: 'apply'; ops: Array<{ seq: number; json: string }> }
  | { type: 'search'; id: number; call: SearchCall };

export type ThreadResponse =
  | { type: 'ready'; appliedSeq: number }
  | { type: 'result'; id: number; outcomes?: QueryOutcome[]; error?: { code: ErrorCode; status: number; message: string } };
