/**
 * Search threads: replicas of the in-memory indexes in worker threads (`thread.ts`), so that searches use every
 * core and a slow search never holds up the main thread (HTTP, authentication, writes, the search log).
 *
 * Each thread starts from the store's snapshot plus the operations applied since, then receives every applied
 * operation. A search call goes to the ready thread with the fewest calls in flight. Messages to one thread
 * arrive in order, so a call sent after a task was published is answered after the thread applied it (see
 * `Store.taskStatus`). The threads hold the only copy of the records (`Store.leaveRecordsToReplicas`): every
 * read of them (searches, records by objectID, browse pages, facet searches, sizes: `reads.ts`) comes here, and
 * waits while no thread is ready (starting, or restarting after a crash). One thread writes each snapshot's
 * engine files (`capture`), answering searches between slices of that work; others, if any, are preferred
 * meanwhile.
 *
 * Rejected alternatives: sharing one engine between threads (the engine is synchronous and owns ordinary JS
 * objects: not shareable); one process per core (writes, keys and the search log would need a protocol
 * between processes); a thread per request (startup would cost more than the search); a copy of the records on
 * the main thread too, answering while no thread is ready (what the server did first: it doubled the memory,
 * 2 × 175 MB live for a 100 MB import, for the seconds a thread takes to restart).
 */
import { ApiError, createError } from '../errors.ts';
import type { Store } from '../storage/store.ts';
import { PendingCalls } from './pending-calls.ts';
import type { SearchAnswer, SearchCall } from './queries.ts';
import type { ReadCall, ReadResult, ReadTarget } from './reads.ts';
import type { StartPhases, ThreadRequest, ThreadResponse } from './thread-messages.ts';
import { sentOp } from './thread-applier.ts';
import { spawnSearchWorker } from './thread-spawn.ts';
import type { Worker } from 'node:worker_threads';

/** Wait before starting a thread again after it died, doubled each time in a row (a crash loop stays cheap). */
const RESTART_DELAY_MS = 500;
/** How long a stopping thread may take to end on its own before it is terminated. */
const STOP_GRACE_MS = 1000;
const MAX_RESTART_DELAY_MS = 30_000;
/** How long a snapshot waits for a thread to be ready before it is captured on the main thread. */
const CAPTURE_WAIT_MS = 60_000;
/** How long a call waits for a thread to be ready (the threads hold the only copy of the records) before a 503. */
const READY_WAIT_MS = 60_000;

interface Pending {
  /** With the call's answer: a `SearchAnswer`, or a read's `ReadResult`. */
  resolve: (answer: never) => void;
  reject: (error: unknown) => void;
  /** The pieces of a large response received so far (null until one is). */
  pieces: Uint8Array[] | null;
}

interface Thread {
  worker: Worker;
  ready: boolean;
  /** The last operation of the latest apply slice sent, of the one before it, and the last it applied. */
  sentSeq: number;
  previousSentSeq: number;
  appliedSeq: number;
  inFlight: PendingCalls<Pending>;
  /** Writing a snapshot: searches go to other threads, if any, meanwhile. */
  snapshot: { id: number; released: () => void; resolve: (manifest: string) => void; reject: (error: unknown) => void } | null;
}

/** The thread died or was stopped: the call may be run again elsewhere. */
export class ThreadGone extends Error {}

export class SearchThreads implements ReadTarget {
  private readonly threads = new Set<Thread>();
  private nextId = 1;
  private closed = false;
  private restartDelay = RESTART_DELAY_MS;
  private readonly unsubscribe: () => void;
  private readonly timers = new Set<NodeJS.Timeout>();
  /** The store's apply loop, waiting for a thread to catch up (see `behind`). */
  private catchUpWaiters: Array<() => void> = [];
  /** Snapshots written by a thread (for tests and the design note's claim). */
  snapshotsTaken = 0;
  /** How the first thread's start went (spawned at, ms since the process started; ready after; its steps). */
  firstReady: (StartPhases & { spawnedAtMs: number; readyMs: number }) | null = null;
  /** A thread was ready once: the server can answer (`/1/isalive`). */
  started = false;

  constructor(
    private readonly store: Store,
    count: number,
    private readonly onError: (error: unknown) => void = (error) => console.error('search thread failed:', error),
  ) {
    this.unsubscribe = store.onApplied((applied) => {
      const ops = applied.map(sentOp);
      if (ops.length === 0) return;
      for (const thread of this.threads) {
        thread.previousSentSeq = thread.sentSeq;
        thread.sentSeq = ops[ops.length - 1].seq;
        this.send(thread, { type: 'apply', ops });
      }
    });
    // One copy of the records, here in the threads: the main thread keeps each index's settings and relations.
    store.leaveRecordsToReplicas();
    store.setSnapshotCapture((seq, dir, released) => this.capture(seq, dir, released), () => this.captureAvailable());
    store.setApplyGate(() => this.behind());
    // Searches run here then, not on the main thread: none can see a batch there half applied between slices.
    store.setApplyInSteps(() => this.readyCount > 0);
    store.holdScheduledSnapshots();
    for (let i = 0; i < count; i++) this.spawn();
  }

  /** Threads ready to search. */
  get readyCount(): number {
    let ready = 0;
    for (const thread of this.threads) if (thread.ready) ready++;
    return ready;
  }

  /** Calls sent to the threads and not answered yet, searches and reads, queued or running (for `/metrics`). */
  get callsInFlight(): number {
    let calls = 0;
    for (const thread of this.threads) calls += thread.inFlight.size;
    return calls;
  }

  /** Resolves once `count` threads are ready (tests, benchmarks); rejects past `timeoutMs`. */
  async whenReady(count = 1, timeoutMs = Number.POSITIVE_INFINITY): Promise<void> {
    const until = performance.now() + timeoutMs;
    while (this.readyCount < count) {
      if (this.closed) throw new ThreadGone('search threads closed');
      if (performance.now() > until) throw createError('NOT_READY');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /**
   * Runs the call on a ready thread, waiting for one while none is (starting, or restarting after a crash: the
   * threads hold the only copy of the records) and again on another if it dies; a 503 when none is ready after
   * `READY_WAIT_MS`.
   */
  private async onReadyThread<T>(attempt: () => Promise<T> | null): Promise<T> {
    for (;;) {
      const running = attempt();
      if (running === null) {
        await this.whenReady(1, READY_WAIT_MS);
        continue;
      }
      try {
        return await running;
      } catch (error) {
        if (!(error instanceof ThreadGone) || this.closed) throw error;
      }
    }
  }

  /** A search call on a thread (see `run`), waiting for one to be ready. */
  search(call: SearchCall): Promise<SearchAnswer> {
    return this.onReadyThread(() => this.run(call));
  }

  /** A read (`reads.ts`) on the least busy ready thread, waiting for one to be ready. */
  read<C extends ReadCall>(call: C): Promise<ReadResult<C>> {
    return this.onReadyThread(() => {
      const thread = this.callTarget();
      if (thread === undefined) return null;
      return new Promise<ReadResult<C>>((resolve, reject) => {
        const id = thread.inFlight.add({ resolve, reject, pieces: null });
        this.send(thread, { type: 'read', id, call });
      });
    });
  }

  /**
   * Runs the call on the least busy ready thread; null when none is ready. Rejects with `ThreadGone` if it dies.
   * A thread writing a snapshot is used only when it is the only one ready: it answers between slices of that
   * work, rather than the main thread answering, whose copy of the index has none of the structures searches
   * build on first use (the customRanking order alone parses every record: seconds at a million, with HTTP
   * frozen meanwhile).
   */
  run(call: SearchCall): Promise<SearchAnswer> | null {
    const thread = this.callTarget();
    if (thread === undefined) return null;
    return new Promise<SearchAnswer>((resolve, reject) => {
      const id = thread.inFlight.add({ resolve, reject, pieces: null });
      this.send(thread, { type: 'search', id, call });
    });
  }

  /**
   * Has the least busy ready thread write the engine files of a snapshot after operation `seq` into `dir` (the
   * store's snapshot, off the main thread; see `Store.setSnapshotCapture`). Rejects when no thread is ready or
   * it dies meanwhile: the store then captures it itself.
   */
  capture(seq: number, dir: string, released: () => void): Promise<string> {
    const thread = this.leastBusy();
    if (thread === undefined) return Promise.reject(new ThreadGone('no search thread ready'));
    const id = this.nextId++;
    return new Promise<string>((resolve, reject) => {
      thread.snapshot = { id, released, resolve, reject };
      this.send(thread, { type: 'snapshot', id, seq, dir });
    });
  }

  /**
   * Resolves once a thread is ready to write a snapshot, or none will be soon (none running, or still none ready
   * after `CAPTURE_WAIT_MS`): after a restart, the store's first snapshot waits for the thread loading in
   * parallel rather than being captured on the main thread, HTTP stopped meanwhile.
   */
  private async captureAvailable(): Promise<void> {
    const until = performance.now() + CAPTURE_WAIT_MS;
    while (this.readyCount === 0 && this.threads.size > 0 && !this.closed && performance.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /**
   * While a ready thread has not applied the slice before the last one sent, a promise settled once it did
   * (or it ended): the store's apply loop waits for it. A search sent to a thread waits behind every
   * operation sent before it; when the main thread applied an import faster than the thread, a search waited
   * for seconds of backlog (9 s during the demo catalogue's creation). A thread writing a snapshot holds its
   * operations back on purpose and does not count.
   */
  private behind(): Promise<void> | undefined {
    for (const thread of this.threads) {
      if (thread.ready && thread.snapshot === null && thread.appliedSeq < thread.previousSentSeq) {
        return new Promise((resolve) => this.catchUpWaiters.push(resolve));
      }
    }
    return undefined;
  }

  private wakeCatchUpWaiters(): void {
    const waiters = this.catchUpWaiters;
    this.catchUpWaiters = [];
    for (const wake of waiters) wake();
  }

  async close(): Promise<void> {
    // The last snapshot, by a thread while one is left (the main thread holds no records to write one): a
    // restart then replays nothing. Nothing is lost without it (the log keeps every operation).
    if (!this.closed && this.readyCount > 0 && this.store.snapshotsDelegated) {
      await this.store.settled().then(() => this.store.snapshot()).catch((error: unknown) => this.onError(error));
    }
    this.closed = true;
    this.store.setSnapshotCapture(null);
    this.store.setApplyGate(null);
    this.store.setApplyInSteps(null);
    this.wakeCatchUpWaiters();
    this.unsubscribe();
    for (const timer of this.timers) clearTimeout(timer);
    const threads = [...this.threads];
    this.threads.clear();
    await Promise.all(threads.map((thread) => this.stop(thread)));
  }

  /** For tests: ends one thread as a crash would. */
  async crashOne(): Promise<void> {
    const thread = [...this.threads][0];
    if (thread) await thread.worker.terminate();
  }

  /** Where a call goes: the least busy ready thread, one writing a snapshot only when no other is ready (`run`). */
  private callTarget(): Thread | undefined {
    return this.leastBusy() ?? this.leastBusy(true);
  }

  /** The ready thread with the fewest calls in flight, not capturing a snapshot (unless `capturing` is allowed). */
  private leastBusy(capturing = false): Thread | undefined {
    let best: Thread | undefined;
    for (const thread of this.threads) {
      if (thread.ready && (capturing || thread.snapshot === null) && (best === undefined || thread.inFlight.size < best.inFlight.size)) best = thread;
    }
    return best;
  }

  private spawn(): void {
    const worker = spawnSearchWorker();
    // The start point and the apply listener are taken in the same turn: the thread misses no operation.
    const spawnedAt = performance.now();
    const start = this.store.startReplica();
    const thread: Thread = {
      worker, ready: false, sentSeq: start.appliedSeq, previousSentSeq: start.appliedSeq, appliedSeq: start.appliedSeq, inFlight: new PendingCalls(), snapshot: null,
    };
    this.threads.add(thread);
    this.send(thread, { type: 'start', dataDir: start.dataDir, snapshotSeq: start.snapshotSeq, ops: start.ops, appliedSeq: start.appliedSeq, recordsFromFilesAfterMs: start.recordsFromFilesAfterMs, indexingShareWhileSearching: start.indexingShareWhileSearching });
    worker.on('message', (message: ThreadResponse) => {
      if (message.type === 'ready') {
        start.release();
        this.firstReady ??= { spawnedAtMs: spawnedAt, readyMs: performance.now() - spawnedAt, ...message.phases };
        thread.ready = true;
        this.started = true;
        this.store.releaseScheduledSnapshots();
        this.restartDelay = RESTART_DELAY_MS;
      } else if (message.type === 'applied') {
        thread.appliedSeq = message.seq;
        this.store.registry.noteRecordCounts(message.recordCounts);
        this.wakeCatchUpWaiters();
      } else if (message.type === 'snapshot-released') {
        if (thread.snapshot?.id === message.id) thread.snapshot.released();
      } else if (message.type === 'snapshot') {
        const pending = thread.snapshot;
        thread.snapshot = null;
        this.wakeCatchUpWaiters();
        if (pending === null || pending.id !== message.id) return;
        if (message.manifest !== undefined) {
          this.snapshotsTaken++;
          pending.resolve(message.manifest);
        } else pending.reject(new Error(message.error ?? 'snapshot failed'));
      } else if (message.type === 'piece') {
        const pending = thread.inFlight.get(message.id);
        if (pending !== undefined) (pending.pieces ??= []).push(message.bytes);
      } else if (message.type === 'read-result') {
        const pending = thread.inFlight.take(message.id);
        if (pending === undefined) return;
        if (message.error) pending.reject(new ApiError(message.error.code, message.error.status, message.error.message));
        else pending.resolve(message.value as never);
      } else if (message.type === 'result') {
        const pending = thread.inFlight.take(message.id);
        if (pending === undefined) return;
        if (message.error) pending.reject(new ApiError(message.error.code, message.error.status, message.error.message));
        else if (pending.pieces === null) pending.resolve(message.answer! as never);
        else pending.resolve({ ...message.answer!, body: pending.pieces.concat(message.answer!.body as Uint8Array[]) } as never);
      }
    });
    worker.on('error', (error) => this.onError(error));
    worker.once('exit', () => {
      start.release();
      this.threads.delete(thread);
      for (const pending of thread.inFlight.takeAll()) pending.reject(new ThreadGone('search thread exited'));
      thread.snapshot?.reject(new ThreadGone('search thread exited'));
      thread.snapshot = null;
      this.wakeCatchUpWaiters();
      if (this.closed) return;
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        if (!this.closed) this.spawn();
      }, this.restartDelay);
      this.timers.add(timer);
      this.restartDelay = Math.min(this.restartDelay * 2, MAX_RESTART_DELAY_MS);
    });
  }

  private send(thread: Thread, message: ThreadRequest): void {
    thread.worker.postMessage(message);
  }

  private async stop(thread: Thread): Promise<void> {
    for (const pending of thread.inFlight.takeAll()) pending.reject(new ThreadGone('search threads closed'));
    thread.snapshot?.reject(new ThreadGone('search threads closed'));
    thread.snapshot = null;
    // A thread left to end on its own writes what its profiler collected; one that does not is ended.
    let timer: NodeJS.Timeout | undefined;
    const ended = new Promise<void>((resolve) => {
      thread.worker.once('exit', () => resolve());
      timer = setTimeout(resolve, STOP_GRACE_MS);
    });
    this.send(thread, { type: 'stop' });
    await ended;
    clearTimeout(timer);
    await thread.worker.terminate();
  }
}
