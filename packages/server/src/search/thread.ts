/**
 * A search thread: a replica of the server's in-memory indexes that answers search calls.
 *
 * It starts from the store's snapshot and the operations applied since (`Store.startReplica`), then applies
 * every operation the main thread applies, in the same order (messages on one port arrive in order), so a
 * search call sent after an operation always sees it. `applyOp` is deterministic: the replica holds exactly
 * the main thread's state. It never writes anything.
 */
import { parentPort } from 'node:worker_threads';
import { ApiError } from '../errors.ts';
import { applyOp } from '../storage/apply.ts';
import type { Op } from '../storage/ops.ts';
import { IndexRegistry } from '../storage/registry.ts';
import { captureSnapshot, readSnapshot } from '../storage/snapshot.ts';
import { answerSearchCall } from './queries.ts';
import type { ThreadRequest, ThreadResponse } from './thread-messages.ts';

const port = parentPort!;
let registry = new IndexRegistry();
/** The last operation applied here (reported when ready). */
let appliedSeq = 0;

function apply(ops: Array<{ seq: number; json: string }>): void {
  for (const { seq, json } of ops) {
    try {
      applyOp(registry, JSON.parse(json) as Op);
    } catch {
      // The main thread already reported this operation's failure; the replica fails the same way.
    }
    appliedSeq = seq;
  }
}

function post(message: ThreadResponse, transfer: ArrayBuffer[] = []): void {
  port.postMessage(message, transfer);
}

port.on('message', (message: ThreadRequest) => {
  switch (message.type) {
    case 'start': {
      registry = message.snapshotSeq > 0 ? readSnapshot(message.dataDir, message.snapshotSeq) : new IndexRegistry();
      apply(message.ops);
      appliedSeq = message.appliedSeq;
      post({ type: 'ready', appliedSeq });
      return;
    }
    case 'apply':
      apply(message.ops);
      return;
    case 'snapshot': {
      // Every operation up to `seq` was sent before this message: anything else is a bug, and the main thread
      // then captures the snapshot itself.
      if (appliedSeq !== message.seq) {
        post({ type: 'snapshot', id: message.id, error: `replica at ${appliedSeq}, snapshot asked at ${message.seq}` });
        return;
      }
      const captured = captureSnapshot(registry, message.seq);
      // The engine's snapshot bytes are fresh buffers: hand them over rather than copy a gigabyte.
      const buffers = captured.files.flatMap((file) => (typeof file.data === 'string' ? [] : [file.data.buffer as ArrayBuffer]));
      post({ type: 'snapshot', id: message.id, captured }, buffers);
      return;
    }
    case 'stop':
      port.close();
      return;
    case 'search': {
      try {
        post({ type: 'result', id: message.id, answer: answerSearchCall(registry, message.call) });
      } catch (error) {
        // A caller's mistake (unknown index, invalid parameter) goes back as Algolia's error; anything else is a bug.
        const body = error instanceof ApiError ? { code: error.code, status: error.status, message: error.message } : null;
        post({ type: 'result', id: message.id, error: body ?? { code: 'INTERNAL', status: 500, message: String((error as Error)?.stack ?? error) } });
      }
      return;
    }
  }
});
