/**
 * How a search thread applies the operations it receives (`thread.ts`): in order, between search calls, and a
 * large batch in steps (`OpInProgress`) so that a search of another index waits a few milliseconds behind it,
 * not a whole batch. A search of an index the batch writes finishes the batch first (the registry's pending
 * write), so no search ever sees part of a batch.
 *
 * Operations arriving while calls are under way wait until no call is (a call spanning several slices is not
 * held up by an apply between each), or `DEFER_MS` after the first of them, then are applied whole; a search
 * arriving behind operations that change what it reads has them applied first, whole. A batch that writes none
 * of the indexes those calls read (nor a replica or primary of one) starts at once, in steps: a shopper's
 * searches during a catalogue import to another index waited 100–370 ms behind batches applied whole.
 */
import { applyOp } from '../storage/apply.ts';
import { restAfter, SearchActivity } from '../storage/indexing-share.ts';
import { indexesTouchedBy, OpInProgress } from '../storage/op-in-progress.ts';
import type { Op } from '../storage/ops.ts';
import type { IndexRegistry } from '../storage/registry.ts';
import type { AppliedOp } from '../storage/replica.ts';
import type { SentOp } from './thread-messages.ts';

/** Longest wait of an operation behind calls under way before it is applied between two of their slices. */
const DEFER_MS = 50;
/** Work done per turn of the event loop on a batch applied in steps: a search waits about this long behind it. */
export const APPLY_STEP_MS = 5;

/** An applied operation as sent to the threads: with the indexes it writes when a batch tells them (`SentOp`). */
export function sentOp({ seq, op, json }: AppliedOp): SentOp {
  if (op.kind !== 'batch' || op.requests.some((request) => request.action === 'delete')) return { seq, json };
  const writes = new Set<string>();
  for (const request of op.requests) writes.add(request.indexName);
  return { seq, json, writes: [...writes] };
}

interface Received {
  seq: number;
  json: string;
  /** `SentOp.writes`: when known, what it may change is known without parsing it. */
  writes?: readonly string[];
  /** Parsed once, when first needed. */
  op?: Op;
}

export class ThreadApplier {
  private queue: Received[] = [];
  private job: OpInProgress | null = null;
  private scheduled = false;
  private deferTimer: NodeJS.Timeout | undefined;
  private deferExpired = false;
  /** In `turn`, which tells the main thread once at its end. */
  private inTurn = false;
  /** `ServerLimits.indexingShareWhileSearching`: while calls come, turns rest to apply at most this share of the time. */
  indexingShare = 1;
  /** Search calls received (`callStarted`). */
  private readonly searches = new SearchActivity();
  /** Waiting for every operation received to be applied (`caughtUp`). */
  private idleWaiters: Array<() => void> = [];
  /** No turn starts before this time (`performance.now()`): the rest after the last one. */
  private restUntil = 0;
  /** Indexes the search calls waiting or under way read (their primaries included), with how many calls read each. */
  private readonly reads = new Map<string, number>();
  /** The last operation applied here, and the last the main thread was told of. */
  appliedSeq = 0;
  private toldSeq = 0;

  constructor(
    private readonly registry: () => IndexRegistry,
    /** Search calls waiting or under way on this thread. */
    private readonly callsPending: () => number,
    /** Told after operations were applied, with the last one's position. */
    private readonly tell: (appliedSeq: number) => void,
  ) {}

  /** Operations were received (in log order): applied from the next turn on. */
  receive(ops: SentOp[]): void {
    for (const { seq, json, writes } of ops) this.queue.push({ seq, json, writes });
    if (this.callsPending() > 0 && this.deferTimer === undefined) {
      this.deferTimer = setTimeout(() => {
        this.deferExpired = true;
        this.schedule();
      }, DEFER_MS);
    }
    this.schedule();
  }

  /** Nothing pending: every operation received is applied. */
  get idle(): boolean {
    return this.job === null && this.queue.length === 0;
  }

  /** Applies `ops` now, whole, after everything received before them. */
  applyNow(ops: SentOp[]): void {
    this.applyAll();
    for (const { seq, json } of ops) this.queue.push({ seq, json });
    if (this.queue.length > 0) this.applyWhole(this.queue.length);
  }

  /** Resolves once every operation received so far is applied, in steps between search calls like any. */
  caughtUp(): Promise<void> {
    if (this.idle) return Promise.resolve();
    return new Promise((resolve) => {
      this.idleWaiters.push(resolve);
      this.schedule();
    });
  }

  /** Applies every operation received, at once (a search needs them). */
  applyAll(): void {
    this.job?.finish();
    if (this.queue.length > 0) this.applyWhole(this.queue.length);
  }

  /**
   * A search call of `indexNames` is submitted. First applies, whole, the operations received before it that
   * change what it reads (and all those before them; a batch under way is finished by the call's own read if it
   * must be). Then, until `callEnded` with the returned names (those indexes and the primaries of replicas among
   * them), batches that write what it reads wait for it (or are applied whole), others go on in steps beside it.
   */
  callStarted(indexNames: readonly string[]): string[] {
    this.searches.noted();
    const registry = this.registry();
    const reads = new Set(indexNames);
    for (const name of indexNames) {
      const primary = registry.peek(name)?.settings.primary;
      if (typeof primary === 'string') reads.add(primary);
    }
    this.applyWhatChanges(reads);
    for (const name of reads) this.reads.set(name, (this.reads.get(name) ?? 0) + 1);
    return [...reads];
  }

  /** Applies, whole, the operations received up to the last one that may change one of `reads`. */
  private applyWhatChanges(reads: ReadonlySet<string>): void {
    let last = -1;
    for (let i = this.queue.length - 1; i >= 0 && last < 0; i--) if (mayChange(this.queue[i], reads)) last = i;
    if (last < 0) return;
    this.job?.finish();
    this.applyWhole(last + 1);
  }

  callEnded(names: readonly string[]): void {
    for (const name of names) {
      const left = (this.reads.get(name) ?? 1) - 1;
      if (left > 0) this.reads.set(name, left);
      else this.reads.delete(name);
    }
  }

  /**
   * Whether `op` may be applied in steps beside the calls under way: a batch (no index deleted by it) of which
   * no index it touches (written, or a replica of one) is read by them (a call of a replica reads its primary
   * too). The calls' later slices then read nothing it changes, and a new call reading one of its indexes
   * finishes it first (the registry's pending write).
   */
  private beside(op: Op): boolean {
    if (op.kind !== 'batch' || op.requests.some((request) => request.action === 'delete')) return false;
    for (const name of indexesTouchedBy(this.registry(), op)) if (this.reads.has(name)) return false;
    return true;
  }

  /** Applies the first `count` operations of the queue in one go. */
  private applyWhole(count: number): void {
    const registry = this.registry();
    for (const received of this.queue.splice(0, count)) {
      try {
        applyOp(registry, received.op ?? (JSON.parse(received.json) as Op));
      } catch {
        // The main thread already reported this operation's failure; the replica fails the same way.
      }
      this.appliedSeq = received.seq;
    }
    this.tellApplied();
  }

  /** Tells the main thread how far this thread applied, when further than it last said. */
  private tellApplied(): void {
    if (this.idleWaiters.length > 0 && this.idle) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
    if (this.appliedSeq === this.toldSeq) return;
    this.toldSeq = this.appliedSeq;
    this.tell(this.appliedSeq);
  }

  /** Where a thread starts: its state is at `seq`, as the main thread knows. */
  startAt(seq: number): void {
    this.appliedSeq = seq;
    this.toldSeq = seq;
  }

  private schedule(): void {
    if (this.scheduled || this.idle) return;
    this.scheduled = true;
    const rest = this.restUntil - performance.now();
    if (rest > 0) setTimeout(this.turn, rest);
    else setImmediate(this.turn);
  }

  /** One turn: a few milliseconds of the batch under way, or of the next operations, when they may start. */
  private readonly turn = (): void => {
    this.scheduled = false;
    const started = performance.now();
    const end = started + APPLY_STEP_MS;
    this.inTurn = true;
    try {
      for (;;) {
        if (this.job === null) {
          if (this.queue.length === 0 || performance.now() >= end) break;
          const next = this.queue[0];
          if (this.callsPending() > 0 && !this.beside((next.op ??= JSON.parse(next.json) as Op))) {
            // Calls under way may read what it writes: it is applied whole, once they waited enough.
            if (!this.deferExpired) break;
            this.applyWhole(1);
            continue;
          }
          this.start(this.queue.shift()!);
        }
        if (!this.job!.work(end)) break;
      }
    } finally {
      this.inTurn = false;
    }
    if (this.queue.length === 0) {
      clearTimeout(this.deferTimer);
      this.deferTimer = undefined;
      this.deferExpired = false;
    }
    this.tellApplied();
    const now = performance.now();
    this.restUntil = this.searches.recent ? now + restAfter(now - started, this.indexingShare) : 0;
    // Waits for the calls to end (`callsEnded`) rather than spinning while they run.
    if (this.job !== null || (this.queue.length > 0 && this.callsPending() === 0)) this.schedule();
  };

  /** The search calls under way have all ended: what they held back may start. */
  callsEnded(): void {
    this.schedule();
  }

  private start(received: Received): void {
    const seq = received.seq;
    this.job = new OpInProgress(this.registry(), received.op ?? (JSON.parse(received.json) as Op), () => {
      // Failed or not, the main thread reported it; the replica fails the same way.
      this.job = null;
      this.appliedSeq = seq;
      // Finished by a search's read: the main thread hears of it before that search's answer.
      if (!this.inTurn) this.tellApplied();
    });
  }
}

/** Whether a queued operation may change one of the indexes `reads`: only a batch's reach is known before it is applied. */
function mayChange(received: Received, reads: ReadonlySet<string>): boolean {
  if (received.writes === undefined) {
    const op = (received.op ??= JSON.parse(received.json) as Op);
    if (op.kind !== 'batch') return true;
    received.writes = sentOp({ seq: received.seq, op, json: received.json }).writes;
    if (received.writes === undefined) return true;
  }
  return received.writes.some((name) => reads.has(name));
}
