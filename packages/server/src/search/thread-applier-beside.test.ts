/**
 * What a search thread's applier does with a batch that arrives while search calls are under way: one writing
 * an index they read waits (then is applied whole), one writing other indexes starts at once, in steps; before
 * a snapshot it catches up in steps too.
 */
import { describe, expect, it } from 'vitest';
import { generateProducts } from '@vitrine/demo';
import { IndexRegistry } from '../storage/registry.ts';
import type { Op } from '../storage/ops.ts';
import { ThreadApplier } from './thread-applier.ts';

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A batch large enough to take many steps of a few milliseconds. */
function batch(indexName: string): { seq: number; json: string } {
  const op: Op = { kind: 'batch', at: '2026-01-01T00:00:00.000Z', requests: [...generateProducts(4000, 5)].map((body) => ({ indexName, action: 'addObject' as const, body })) };
  return { seq: 1, json: JSON.stringify(op) };
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
});
