/**
 * What a search thread's applier does with a batch that arrives while search calls are under way: one writing
 * an index they read waits (then is applied whole), one writing other indexes starts at once, in steps; before
 * a snapshot it catches up in steps too.
 */
import { describe, expect, it, vi } from 'vitest';
import { generateProducts } from '@vitrine/demo';
import { IndexRegistry } from '../storage/registry.ts';
import type { Op } from '../storage/ops.ts';
import { sentOp, ThreadApplier } from './thread-applier.ts';

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A batch large enough to take many steps of a few milliseconds. */
function batch(indexName: string, seq = 1, size = 4000): { seq: number; json: string } {
  const op: Op = { kind: 'batch', at: '2026-01-01T00:00:00.000Z', requests: [...generateProducts(size, 5)].map((body) => ({ indexName, action: 'addObject' as const, body })) };
  return { seq, json: JSON.stringify(op) };
}

/** The same, as the main thread sends it: with the indexes it writes. */
function sent(indexName: string, seq: number, size: number) {
  const { json } = batch(indexName, seq, size);
  return sentOp({ seq, json, op: JSON.parse(json) as Op });
}

function applier(registry: IndexRegistry, calls: { pending: number }): ThreadApplier {
  return new ThreadApplier(() => registry, () => calls.pending, () => {});
}

describe('ThreadApplier beside search calls', () => {
  it('starts a batch of another index at once, in steps, while a call is under way', async () => {
    const registry = new IndexRegistry();
    const calls = { pending: 1 };
    const thread = applier(registry, calls);
    thread.callStarted(['shop']);
    thread.receive([batch('bulk')]);
    await turn();
    // Under way, not finished: the registry holds it as the pending write, the call still running.
    expect(registry.pendingWrite).not.toBeNull();
    expect(thread.appliedSeq).toBe(0);
    while (thread.appliedSeq === 0) await turn();
    expect(registry.get('bulk')?.engine?.size).toBe(4000);
    expect(registry.pendingWrite).toBeNull();
  });

  it('holds a batch of an index the call reads, then applies it whole', async () => {
    const registry = new IndexRegistry();
    const calls = { pending: 1 };
    const thread = applier(registry, calls);
    const reads = thread.callStarted(['bulk']);
    thread.receive([batch('bulk')]);
    await turn();
    expect(registry.pendingWrite).toBeNull();
    expect(thread.appliedSeq).toBe(0);
    // After the wait it is applied in one turn: never seen half written between the call's slices.
    while (thread.appliedSeq === 0) {
      await turn();
      expect(registry.pendingWrite).toBeNull();
    }
    expect(registry.get('bulk')?.engine?.size).toBe(4000);
    thread.callEnded(reads);
  });

  it('catches up before a snapshot in steps, not in one go', async () => {
    const registry = new IndexRegistry();
    const thread = applier(registry, { pending: 0 });
    thread.receive([batch('bulk')]);
    let caughtUp = false;
    const done = thread.caughtUp().then(() => (caughtUp = true));
    await turn();
    expect(caughtUp).toBe(false);
    expect(registry.pendingWrite).not.toBeNull();
    await done;
    expect(registry.get('bulk')?.engine?.size).toBe(4000);
    expect(registry.pendingWrite).toBeNull();
    // Nothing to apply: at once.
    await thread.caughtUp();
  });

  it('counts a replica read as a read of its primary', async () => {
    const registry = new IndexRegistry();
    const calls = { pending: 1 };
    const thread = applier(registry, calls);
    registry.ensure('bulk', '2026-01-01T00:00:00.000Z').settings.replicas = ['bulk_price'];
    registry.ensure('bulk_price', '2026-01-01T00:00:00.000Z').settings.primary = 'bulk';
    const reads = thread.callStarted(['bulk_price']);
    expect(reads.sort()).toEqual(['bulk', 'bulk_price']);
    thread.receive([batch('bulk')]);
    await turn();
    expect(registry.pendingWrite).toBeNull();
    // Once the call ended, a new batch of the same index goes in steps again.
    thread.callEnded(reads);
    while (thread.appliedSeq === 0) await turn();
  });

  it('applies first, whole, the queued batches up to the last that writes what a new call reads, parsing none of them', () => {
    const registry = new IndexRegistry();
    const thread = applier(registry, { pending: 0 });
    const queued = [sent('bulk', 1, 300), sent('shop', 2, 10), sent('bulk', 3, 300)];
    expect(queued.map((op) => op.writes)).toEqual([['bulk'], ['shop'], ['bulk']]);
    thread.receive(queued);
    const parse = vi.spyOn(JSON, 'parse');
    try {
      // In the same turn as the receive: nothing is applied yet but what the call needs, and no JSON is read
      // to know what that is (the two batches it applies are parsed as they are applied).
      thread.callStarted(['shop']);
      expect(thread.appliedSeq).toBe(2);
      expect(parse).toHaveBeenCalledTimes(2);
      thread.callStarted(['other']);
      expect(thread.appliedSeq).toBe(2);
      expect(parse).toHaveBeenCalledTimes(2);
    } finally {
      parse.mockRestore();
    }
    expect(registry.get('shop')?.engine?.size).toBe(10);
    expect(registry.get('bulk')?.engine?.size).toBe(300);
  });

  it('tells a batch that deletes an index from one that only writes', () => {
    const deleting: Op = { kind: 'batch', at: '2026-01-01T00:00:00.000Z', requests: [{ indexName: 'old', action: 'delete' }] };
    expect(sentOp({ seq: 1, json: JSON.stringify(deleting), op: deleting }).writes).toBeUndefined();
    const settings: Op = { kind: 'settings', at: '2026-01-01T00:00:00.000Z', indexName: 'shop', settings: {}, forwardToReplicas: false };
    expect(sentOp({ seq: 2, json: JSON.stringify(settings), op: settings }).writes).toBeUndefined();
  });
});
