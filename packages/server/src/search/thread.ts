/**
 * A search thread: a replica of the server's in-memory indexes that answers search calls.
 *
 * It starts from the store's snapshot and the operations applied since (`Store.startReplica`), then applies
 * every operation the main thread applies, in the same order (messages on one port arrive in order), so a
 * search call sent after an operation always sees it. `applyOp` is deterministic: the replica holds exactly
 * the main thread's state.
 *
 * Asked for a snapshot, it writes the engine files itself, from its indexes' own arrays (`writeSnapshotFiles`),
 * answering searches between slices of the work. Operations arriving meanwhile are held, then handed to the
 * applier (`thread-applier.ts`); the main thread publishes their tasks only once it hears they are
 * (`Store.takeSnapshot`), and a search sent after a task is published has what it reads applied first.
 */
import { parentPort } from 'node:worker_threads';
import { ApiError, type ErrorCode } from '../errors.ts';
import { IndexRegistry } from '../storage/registry.ts';
import { replayRows } from '../storage/replay.ts';
import { readSnapshot, writeSnapshotFiles } from '../storage/snapshot.ts';
import { SearchScheduler } from './scheduler.ts';
import { indexesRead, readIndexes } from './reads.ts';
import { ThreadApplier } from './thread-applier.ts';
import type { SentOp, ThreadRequest, ThreadResponse } from './thread-messages.ts';
import { warmUp } from './warm-up.ts';

const port = parentPort!;
let registry = new IndexRegistry();
/** Applies what the main thread sends, in order, between search calls (a large batch in steps). */
const applier = new ThreadApplier(() => registry, () => scheduler.pending, (seq) => post({ type: 'applied', seq, recordCounts: registry.recordCounts() }));
/** Answers search calls in slices, clients taking turns, with the event loop turning between slices. */
const scheduler = new SearchScheduler(() => registry, () => applier.callsEnded());
/** From a snapshot's start until caught up after it: the operations that arrived meanwhile, applied after. */
let held: SentOp[] | null = null;
/** Until the start point is loaded: the operations sent meanwhile (applied after it, before `ready`). */
let starting: SentOp[] | null = [];

/**
 * Once a snapshot's bytes are all handed to the system: the operations held meanwhile go to the applier, and
 * the main thread may publish their tasks at once: a search sent after that has what it reads applied first
 * (`callStarted`), the rest in steps between searches.
 */
function release(id: number): void {
  const ops = held ?? [];
  held = null;
  applier.receive(ops);
  post({ type: 'snapshot-released', id });
}

/**
 * Loads the start point (snapshot, then the log after it) while the main thread loads its own copy, then the
 * operations sent since; ready after that.
 */
async function start(message: Extract<ThreadRequest, { type: 'start' }>): Promise<void> {
  const began = performance.now();
  let warm = (): void => {};
  // Once warm and ready, and the first searches answered, the records unchanged since the snapshot are read from
  // its files (the warm-up reads them).
  const recordsFromFilesAfter = new Promise<void>((resolve) => (warm = resolve));
  const loaded = message.snapshotSeq > 0 ? await readSnapshot(message.dataDir, message.snapshotSeq, undefined, { recordsFromFilesAfter }) : new IndexRegistry();
  const read = performance.now();
  await replayRows(loaded, message.ops, () => {});
  registry = loaded;
  applier.startAt(message.appliedSeq);
  applier.indexingShare = message.indexingShareWhileSearching;
  const sent = starting ?? [];
  starting = null;
  applier.applyNow(sent);
  const replayed = performance.now();
  warmUp(registry);
  const phases = { snapshotMs: read - began, replayMs: replayed - read, warmUpMs: performance.now() - replayed };
  post({ type: 'ready', appliedSeq: applier.appliedSeq, phases });
  setTimeout(warm, message.recordsFromFilesAfterMs).unref();
}

/** A caller's mistake (unknown index, invalid parameter) goes back as Algolia's error; anything else is a bug. */
function errorBody(error: unknown): { code: ErrorCode; status: number; message: string } {
  if (error instanceof ApiError) return { code: error.code, status: error.status, message: error.message };
  return { code: 'INTERNAL', status: 500, message: String((error as Error)?.stack ?? error) };
}

function post(message: ThreadResponse, transfer: ArrayBuffer[] = []): void {
  port.postMessage(message, transfer);
}

port.on('message', (message: ThreadRequest) => {
  switch (message.type) {
    case 'start': {
      void start(message).catch((error: unknown) => {
        // Nothing to search with: the thread ends, and is started again after a delay (`threads.ts`).
        console.error('search thread could not load the indexes:', error);
        port.close();
      });
      return;
    }
    case 'apply':
      if (starting !== null) for (const op of message.ops) starting.push(op);
      else if (held !== null) for (const op of message.ops) held.push(op);
      else applier.receive(message.ops);
      return;
    case 'snapshot': {
      if (held !== null) {
        post({ type: 'snapshot', id: message.id, error: 'a snapshot is under way' });
        return;
      }
      // Operations sent after this message wait for the snapshot; those before it are applied first, in steps
      // between searches like any (applied whole here, a batch under way held this thread for up to 90 ms).
      held = [];
      void applier.caughtUp().then(() => {
        // Every operation up to `seq` was sent before this message: anything else is a bug, and the main thread
        // then captures the snapshot itself.
        if (applier.appliedSeq !== message.seq) {
          const ops = held ?? [];
          held = null;
          applier.receive(ops);
          post({ type: 'snapshot', id: message.id, error: `replica at ${applier.appliedSeq}, snapshot asked at ${message.seq}` });
          return;
        }
        writeSnapshotFiles(registry, message.seq, message.dir, () => release(message.id), { searchesWaiting: () => scheduler.pending > 0 })
          .then(
            (manifest) => ({ manifest }),
            (error: unknown) => ({ error: String((error as Error)?.stack ?? error) }),
          )
          // After the release, even after a failure: the main thread publishes what was held only once released.
          .then((outcome) => post({ type: 'snapshot', id: message.id, ...outcome }));
      });
      return;
    }
    case 'stop':
      port.close();
      return;
    case 'search': {
      const reads = applier.callStarted(message.call.queries.map((query) => query.indexName));
      const { id } = message;
      scheduler.submit(message.call, (error, answer) => {
        applier.callEnded(reads);
        if (error === undefined) return post({ type: 'result', id, answer });
        post({ type: 'result', id, error: errorBody(error) });
      }, (bytes) => post({ type: 'piece', id, bytes }, [bytes.buffer as ArrayBuffer]));
      return;
    }
    case 'read': {
      // One synchronous step (a page of records, a facet search): what it reads is applied first, as for a search.
      const reads = applier.callStarted(indexesRead(message.call));
      try {
        post({ type: 'read-result', id: message.id, value: readIndexes(registry, message.call) });
      } catch (error) {
        post({ type: 'read-result', id: message.id, error: errorBody(error) });
      } finally {
        applier.callEnded(reads);
      }
      return;
    }
  }
});
