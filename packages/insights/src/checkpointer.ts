/**
 * Checkpoints of the insights database off the event loop.
 *
 * In WAL mode SQLite copies the log back into the database file every 1,000 pages, inside the commit that
 * crosses the mark, with an fsync of each file: on the main thread, in the middle of a search-log chunk, every
 * request in flight waiting (tens of milliseconds under the HTTP benchmark: docs/PERFORMANCE.md). So the main
 * connection's automatic checkpoints are off, and a thread with its own connection runs a passive checkpoint
 * every `intervalMs`: it copies the frames no reader still needs and syncs the files without taking the writer's
 * lock, so the main thread's commits go on meanwhile. If the thread fails, the main connection's automatic
 * checkpoints come back: the log never grows without bound.
 *
 * Durability is unchanged: a commit is durable once its frames are in the log (events commit with
 * `synchronous = FULL`); a checkpoint only moves them into the database file.
 *
 * Rejected: checkpoints on the main thread at a quiet moment (under steady load there is none, and each still
 * stalls every request for its length); the core store's log (the server's `storage/`), whose checkpoints are
 * short (its rows are small and appended in order) and whose connection locks the database exclusively.
 */
import { Worker } from 'node:worker_threads';
import type { InsightsDb } from './db.ts';

/** SQLite's default automatic checkpoint (pages), restored if the thread fails. */
const AUTO_CHECKPOINT_PAGES = 1000;

/** A checkpoint's outcome, as `PRAGMA wal_checkpoint` reports it. */
export interface CheckpointOutcome {
  /** 1 when the checkpoint could not run (another was running). */
  busy: number;
  /** Frames in the log. */
  log: number;
  /** Frames of it now in the database file. */
  checkpointed: number;
}

export class Checkpointer {
  private readonly worker: Worker;
  private stopped = false;
  private readonly exited: Promise<void>;
  private readonly listeners = new Set<(outcome: CheckpointOutcome & { asked: boolean }) => void>();
  /** Checkpoints run by the thread (tests). */
  checkpoints = 0;

  constructor(
    db: InsightsDb,
    intervalMs: number,
    logError: (message: string, error: unknown) => void,
  ) {
    db.pragma('wal_autocheckpoint = 0');
    this.worker = new Worker(new URL('./checkpoint-thread.mjs', import.meta.url), { workerData: { file: db.name, intervalMs } });
    // The thread keeps no process alive: a server stops when its app closes, tests when they end.
    this.worker.unref();
    this.exited = new Promise((resolve) => this.worker.once('exit', () => resolve()));
    const fail = (error: unknown): void => {
      if (this.stopped) return;
      this.stopped = true;
      if (db.open) db.pragma(`wal_autocheckpoint = ${AUTO_CHECKPOINT_PAGES}`);
      void this.worker.terminate();
      logError('insights: the checkpoint thread failed; checkpoints run in commits again', error);
    };
    this.worker.on('message', (message: ({ type: 'checkpoint'; asked: boolean } & CheckpointOutcome) | { type: 'error'; message: string }) => {
      if (message.type === 'error') return fail(new Error(message.message));
      this.checkpoints++;
      for (const listener of this.listeners) listener(message);
    });
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`exited with code ${code}`)));
  }

  /** Resolves with the outcome of the next checkpoint the thread runs on its schedule (tests). */
  next(): Promise<CheckpointOutcome> {
    return this.outcome(false);
  }

  /** Has the thread run a checkpoint now; resolves with its outcome (tests). */
  checkpointNow(): Promise<CheckpointOutcome> {
    this.worker.postMessage('checkpoint');
    return this.outcome(true);
  }

  private outcome(asked: boolean): Promise<CheckpointOutcome> {
    return new Promise((resolve) => {
      const listener = (outcome: CheckpointOutcome & { asked: boolean }): void => {
        if (outcome.asked !== asked) return;
        this.listeners.delete(listener);
        resolve({ busy: outcome.busy, log: outcome.log, checkpointed: outcome.checkpointed });
      };
      this.listeners.add(listener);
    });
  }

  /**
   * Stops the thread, before the main connection closes (which, being the last, then checkpoints and removes
   * the log); resolves once it has.
   */
  stop(): Promise<void> {
    if (!this.stopped) {
      this.stopped = true;
      // Waited for now: the process must not end (with its exit pending) while the thread closes.
      this.worker.ref();
      this.worker.postMessage('stop');
    }
    return this.exited;
  }
}
