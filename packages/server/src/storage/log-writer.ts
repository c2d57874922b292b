/**
 * The write half of the operation log: operations submitted in one event-loop turn are committed to SQLite in
 * one transaction (group commit), and handed on only once an fsync that started after that commit completed
 * (`wal-sync.ts`), so an acknowledged write survives a crash. The Store decides what happens to durable
 * operations (queued for applying) and when commits must wait (the log's cap, during a snapshot).
 */
import { join } from 'node:path';
import { DB_FILE, withoutFsync } from './db.ts';
import type { Db } from './db.ts';
import type { Op } from './ops.ts';
import type { AppliedOp } from './replica.ts';
import { WalSync } from './wal-sync.ts';

interface Queued {
  op: Op;
  resolve: (seq: number) => void;
  reject: (error: unknown) => void;
}

export interface LogWriterHooks {
  /** False holds commits back (submitted operations wait) until `flushSoon` is called again. */
  mayCommit(): boolean;
  /** Operations durable in the log, in log order, before their submitters hear of it. */
  onDurable(ops: AppliedOp[]): void;
}

export class LogWriter {
  private queue: Queued[] = [];
  private flushScheduled = false;
  private readonly walSync: WalSync;
  /** Settles once the last commit is durable (and handed on) or failed. */
  private durable: Promise<void> = Promise.resolve();
  /**
   * A flush of the log failed: what was committed since may not be on disk, and a later flush succeeding would
   * not say otherwise (the kernel may have dropped the pages it could not write). Every later write is refused.
   */
  private logFailure: unknown = undefined;

  constructor(
    private readonly db: Db,
    dataDir: string,
    private readonly hooks: LogWriterHooks,
    walFsync?: (fd: number, done: (error: Error | null) => void) => void,
  ) {
    this.walSync = new WalSync(join(dataDir, `${DB_FILE}-wal`), walFsync);
  }

  /** Operations submitted and not yet committed. */
  get waiting(): number {
    return this.queue.length;
  }

  /** Resolves with the operation's sequence number (its task ID) once it is durable. */
  submit(op: Op): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      this.queue.push({ op, resolve, reject });
      this.flushSoon();
    });
  }

  /** Commits what waits, at the end of this event-loop turn (with whatever else arrives in it). */
  flushSoon(): void {
    if (this.flushScheduled || this.queue.length === 0) return;
    this.flushScheduled = true;
    setImmediate(() => this.flush());
  }

  /** Commits what waits now (if allowed), then resolves once every commit so far is durable or failed. */
  async drain(): Promise<void> {
    if (this.queue.length > 0) this.flush();
    await this.durable;
  }

  private flush(): void {
    this.flushScheduled = false;
    if (!this.hooks.mayCommit()) return;
    const batch = this.queue;
    this.queue = [];
    if (batch.length === 0) return;
    if (this.logFailure !== undefined) {
      for (const item of batch) item.reject(this.logFailure);
      return;
    }
    let seqs: number[];
    const texts = batch.map((item) => JSON.stringify(item.op));
    try {
      const insert = this.db.prepare('INSERT INTO ops (op) VALUES (?)');
      // Written to the WAL here, flushed to disk by `walSync` without holding up the event loop.
      seqs = withoutFsync(this.db, () => this.db.transaction(() => texts.map((text) => Number(insert.run(text).lastInsertRowid)))());
    } catch (error) {
      for (const item of batch) item.reject(error);
      return;
    }
    // Flushes complete in commit order, so batches are handed on in log order.
    this.durable = this.walSync.sync().then(
      () => {
        if (this.logFailure !== undefined) throw this.logFailure;
        this.hooks.onDurable(batch.map((item, i) => ({ seq: seqs[i], op: item.op, json: texts[i] })));
        batch.forEach((item, i) => item.resolve(seqs[i]));
      },
    ).catch((error: unknown) => {
      if (this.logFailure === undefined) console.error('flushing the operation log failed, writes are refused from now on:', error);
      this.logFailure ??= error;
      for (const item of batch) item.reject(this.logFailure);
    });
  }

  close(): void {
    this.walSync.close();
  }
}
