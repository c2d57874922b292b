/**
 * Durable commits without blocking the event loop on the disk.
 *
 * The operation log is SQLite in WAL mode. With `synchronous = FULL` every commit fsyncs the WAL file before
 * returning, on the main thread: measured under the HTTP benchmark's 10% of writes, ~100 ms of every second with
 * the event loop frozen (single commits up to 20 ms), no request read or answered meanwhile. Instead, the log's
 * commits run with `synchronous = NORMAL` (the frames are written to the WAL, not yet flushed) and this class
 * flushes the WAL file with an asynchronous `fsync` on libuv's thread pool; a write is acknowledged, and applied,
 * only once an fsync that started after its commit has completed. That is what FULL guarantees — a commit's
 * frames on disk before anyone hears of it — with the wait moved off the event loop and one fsync shared by every
 * commit made while the previous one ran (group commit).
 *
 * The WAL file keeps its inode while the connection is open (a checkpoint rewinds or truncates it, never deletes
 * it), and SQLite takes no POSIX lock on it, so holding a descriptor of our own to it is safe.
 *
 * Rejected: a worker thread owning the database (the data folder's exclusive lock is per connection, and every
 * other use of the database — keys, snapshot bookkeeping — would have to go through it).
 */
import { closeSync, fsync, openSync } from 'node:fs';

type Fsync = (fd: number, done: (error: Error | null) => void) => void;

interface Waiter {
  resolve: () => void;
  reject: (error: unknown) => void;
}

export class WalSync {
  private fd: number | null = null;
  private syncing = false;
  /** Callers whose commits happened before the next fsync starts. */
  private waiting: Waiter[] = [];
  /** fsyncs run (tests). */
  fsyncs = 0;

  constructor(
    private readonly walPath: string,
    private readonly runFsync: Fsync = fsync,
  ) {}

  /** Resolves once everything written to the WAL before this call is on disk; rejects if the flush failed. */
  sync(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.start();
    });
  }

  /** Closes the descriptor (after the database: nothing is written to the WAL any more). */
  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  private start(): void {
    // A commit made while an fsync runs may have written after it started: it waits for the next one.
    if (this.syncing || this.waiting.length === 0) return;
    const batch = this.waiting;
    this.waiting = [];
    let fd: number;
    try {
      // 'a': never truncates; the file exists once the connection has written to the log.
      fd = this.fd ??= openSync(this.walPath, 'a');
    } catch (error) {
      for (const waiter of batch) waiter.reject(error);
      return;
    }
    this.syncing = true;
    this.fsyncs++;
    this.runFsync(fd, (error) => {
      this.syncing = false;
      for (const waiter of batch) {
        if (error) waiter.reject(error);
        else waiter.resolve();
      }
      this.start();
    });
  }
}
