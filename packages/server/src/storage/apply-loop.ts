/**
 * The apply loop: durable operations applied to the in-memory indexes in log order, in slices of 10 ms between
 * requests (searches stay responsive during imports), resting between slices while searches are being answered
 * (`indexing-share.ts`). A batch longer than a slice goes on at the next turn when
 * allowed (`inSteps`), reads of its indexes finishing it first (`OpInProgress`). What an applied operation means
 * for the store (its position, the log's budget, publication, snapshots) is the Store's, through the hooks.
 */
import type { ServerLimits } from '../config.ts';
import { restAfter } from './indexing-share.ts';
import { opIndexNames } from './ops.ts';
import { OpInProgress } from './op-in-progress.ts';
import type { IndexRegistry } from './registry.ts';
import type { AppliedOp } from './replica.ts';

/** Time slice of the loop before it yields to pending requests. */
const APPLY_SLICE_MS = 10;

export interface ApplyLoopHooks {
  registry: IndexRegistry;
  limits: ServerLimits;
  /** False while the store loads: operations wait. */
  loaded(): boolean;
  /** True once the store closes: what is queued is applied at once, without the interval. */
  closing(): boolean;
  /** An operation starts; the returned function is called once it is applied (`error` undefined) or failed. */
  started(entry: AppliedOp): (error: unknown) => void;
  /** Operations applied, in order (a slice's, or one a read finished between slices): replicas, publication. */
  applied(entries: AppliedOp[]): void;
  /** After each slice, whatever it did. */
  afterSlice(): void;
  /** True while searches are being answered: the loop then rests between slices (`indexing-share.ts`). */
  searchesRecent(): boolean;
}

export class ApplyLoop {
  private readonly queue: AppliedOp[] = [];
  private scheduled = false;
  private lastApplyAt = -Infinity;
  private readonly pendingByIndex = new Map<string, number>();
  /** Bytes (of their logged JSON) of the operations waiting, the one under way included. */
  private waitingBytes = 0;
  /** The operation being applied, when a batch takes more than one turn of the loop. */
  private applying: OpInProgress | null = null;
  /** While a slice runs: the operations it applied so far (told at the end of the slice). */
  private sliceApplied: AppliedOp[] | null = null;
  /** Asked before each slice: may a batch span several turns? Null: every operation in one go. */
  inSteps: (() => boolean) | null = null;
  /** Asked before each slice: a promise holds the loop back until it settles. Null: no gate. */
  gate: (() => Promise<void> | undefined) | null = null;
  /** Settles when the holds taken (`hold`) are all released; null when none is. */
  private held: { count: number; released: Promise<void>; release: () => void } | null = null;

  constructor(private readonly hooks: ApplyLoopHooks) {}

  /**
   * Holds the loop: nothing more is applied until the returned function is called (once is enough; more calls
   * do nothing). An operation in steps is left where it is: call `IndexRegistry.finishPendingWrite` first for a
   * state with whole operations only.
   */
  hold(): () => void {
    if (this.held === null) {
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      this.held = { count: 0, released, release };
    }
    const held = this.held;
    held.count++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      if (--held.count > 0) return;
      this.held = null;
      held.release();
    };
  }

  /** Operations waiting to be applied. */
  get length(): number {
    return this.queue.length;
  }

  /** Bytes of logged JSON of the operations not yet applied (see `ServerLimits.applyBacklogBytes`). */
  get backlogBytes(): number {
    return this.waitingBytes;
  }

  /** Operations not yet applied that write this index. */
  pending(indexName: string): number {
    return this.pendingByIndex.get(indexName) ?? 0;
  }

  /** Queues durable operations, in log order. */
  push(entries: AppliedOp[]): void {
    for (const entry of entries) {
      this.queue.push(entry);
      this.waitingBytes += entry.json.length;
      for (const name of opIndexNames(entry.op)) this.pendingByIndex.set(name, (this.pendingByIndex.get(name) ?? 0) + 1);
    }
    this.schedule();
  }

  schedule(): void {
    if (this.scheduled || this.queue.length === 0 || !this.hooks.loaded()) return;
    this.scheduled = true;
    // With an apply interval, writes arriving in a burst are applied together, once per interval: each apply
    // can make the next searches rebuild derived structures, so fewer applies keep searches fast under writes.
    const wait = this.lastApplyAt + this.hooks.limits.applyIntervalMs - performance.now();
    if (wait > 0 && !this.hooks.closing()) setTimeout(() => this.run(), wait);
    else setImmediate(() => this.run());
  }

  private run(): void {
    if (this.held !== null) {
      // Still scheduled: nothing else starts the loop meanwhile.
      void this.held.released.then(() => setImmediate(() => this.run()));
      return;
    }
    const gate = this.gate?.();
    if (gate !== undefined) {
      // Still scheduled: nothing else starts the loop meanwhile.
      void gate.then(() => setImmediate(() => this.run()));
      return;
    }
    this.scheduled = false;
    const started = performance.now();
    this.lastApplyAt = started;
    const end = started + APPLY_SLICE_MS;
    // A batch longer than the slice goes on at the next turn, unless searches here could be under way on its index.
    const inSteps = this.inSteps?.() ?? false;
    const applied: AppliedOp[] = [];
    this.sliceApplied = applied;
    try {
      for (;;) {
        if (this.applying === null) {
          if (this.queue.length === 0 || performance.now() >= end) break;
          this.start(this.queue.shift()!);
        }
        if (!this.applying!.work(inSteps ? end : Number.POSITIVE_INFINITY)) break;
      }
    } finally {
      this.sliceApplied = null;
    }
    this.hooks.applied(applied);
    if (this.applying !== null || this.queue.length > 0) {
      // A slice that ran out of time continues at once (the interval spaces out bursts, not one long backlog),
      // or after a rest while searches are being answered.
      this.scheduled = true;
      const rest = this.hooks.searchesRecent() && !this.hooks.closing() ? restAfter(performance.now() - started, this.hooks.limits.indexingShareWhileSearching) : 0;
      if (rest > 0) setTimeout(() => this.run(), rest);
      else setImmediate(() => this.run());
    }
    this.hooks.afterSlice();
  }

  /**
   * Starts applying an operation (`OpInProgress`): in one step, or a batch in several, the registry finishing it
   * at once if anything reads its indexes meanwhile. Its bookkeeping is done when it ends, whoever ended it.
   */
  private start(entry: AppliedOp): void {
    const finished = this.hooks.started(entry);
    this.applying = new OpInProgress(this.hooks.registry, entry.op, (error) => {
      this.applying = null;
      this.waitingBytes -= entry.json.length;
      finished(error);
      for (const name of opIndexNames(entry.op)) {
        const left = (this.pendingByIndex.get(name) ?? 1) - 1;
        if (left > 0) this.pendingByIndex.set(name, left);
        else this.pendingByIndex.delete(name);
      }
      // Finished by a read between two turns of the loop: replicas hear of it before anything that read it.
      if (this.sliceApplied === null) this.hooks.applied([entry]);
      else this.sliceApplied.push(entry);
    });
  }
}
