/** Messages between the main thread and the search threads (`threads.ts` ↔ `thread.ts`). */
import type { ErrorCode } from '../errors.ts';
import type { CapturedSnapshot } from '../storage/snapshot.ts';
import type { SearchAnswer, SearchCall } from './queries.ts';

export type ThreadRequest =
  | { type: 'start'; dataDir: string; snapshotSeq: number; ops: Array<{ seq: number; json: string }>; appliedSeq: number }
  | { type: 'apply'; ops: Array<{ seq: number; json: string }> }
  | { type: 'search'; id: number; call: SearchCall }
  | { type: 'snapshot'; id: number; seq: number }
  /** Let the thread end on its own (profilers and coverage write their output then). */
  | { type: 'stop' };

export type ThreadResponse =
  | { type: 'ready'; appliedSeq: number }
  | { type: 'snapshot'; id: number; captured?: CapturedSnapshot; error?: string }
  | { type: 'result'; id: number; answer?: SearchAnswer; error?: { code: ErrorCode; status: number; message: string } };
