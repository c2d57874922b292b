/**
 * One logged operation applied over several turns of the event loop: a large batch's records go to the engine
 * a few milliseconds at a time, so that a thread answering searches (or HTTP) between the turns never waits for
 * a whole batch. Atomicity holds for readers: between turns the operation is the registry's pending write, and
 * reading an index it writes (`IndexRegistry.get`, `all`) finishes it first, at once. Searches of other indexes
 * go on meanwhile without waiting.
 */
import type { RecordsStamp, SearchIndex } from '@vitrine/engine';
import { applyOpInSteps } from './apply.ts';
import type { Op } from './ops.ts';
import { parseReplicaName } from './registry.ts';
import type { IndexRegistry, PendingWrite } from './registry.ts';

/** The indexes a batch writes and their replicas: those whose reads would see it half applied. */
export function indexesTouchedBy(registry: IndexRegistry, op: Extract<Op, { kind: 'batch' }>): Set<string> {
  const touched = new Set<string>();
  for (const { indexName } of op.requests) {
    touched.add(indexName);
    for (const raw of registry.peek(indexName)?.settings.replicas ?? []) touched.add(parseReplicaName(raw).name);
  }
  return touched;
}

export class OpInProgress implements PendingWrite {
  /** The indexes whose searches or reads would see the operation half applied: those it writes, and their replicas. */
  private readonly touched: Set<string>;
  private readonly steps: Generator<void, void, void>;
  private done = false;
  /** The records stamps of the engines it writes, before it began (`IndexRegistry.recordStamps`). */
  private readonly stamps = new Map<SearchIndex, RecordsStamp>();

  /** `onDone` is called once, when the operation is applied (`error` undefined) or failed, whoever finished it. */
  constructor(
    private readonly registry: IndexRegistry,
    op: Op,
    private readonly onDone: (error: unknown) => void,
  ) {
    this.touched = op.kind === 'batch' ? indexesTouchedBy(registry, op) : new Set();
    for (const name of this.touched) {
      const engine = registry.peek(name)?.engine;
      if (engine !== undefined) this.stamps.set(engine, engine.recordsStamp());
    }
    this.steps = applyOpInSteps(registry, op);
  }

  stampBefore(engine: SearchIndex): RecordsStamp | undefined {
    return this.stamps.get(engine);
  }

  touches(indexName: string): boolean {
    return this.touched.has(indexName);
  }

  /** Applies until `end` (a `performance.now()` time) or the operation's end; true once it is done. */
  work(end: number): boolean {
    if (this.done) return true;
    // Its own steps read the registry: they must not finish it from inside.
    this.registry.pendingWrite = null;
    let error: unknown;
    try {
      do {
        if (this.steps.next().done) this.done = true;
      } while (!this.done && performance.now() < end);
    } catch (failure) {
      error = failure ?? new Error('operation failed to apply');
      this.done = true;
    }
    if (!this.done) {
      this.registry.pendingWrite = this;
      return false;
    }
    this.onDone(error);
    return true;
  }

  finish(): void {
    this.work(Number.POSITIVE_INFINITY);
  }
}
