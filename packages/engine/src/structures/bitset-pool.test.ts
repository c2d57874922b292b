/**
 * The query bitset pool: sets handed back at the end of a search are reused (emptied), and free lists of
 * capacities no longer asked for are dropped, so an index growing by small writes does not strand memory.
 */
import { describe, expect, it } from 'vitest';
import { queryBitsets } from './bitset-pool.ts';

describe('query bitset pool', () => {
  it('reuses released sets, emptied', () => {
    const first = queryBitsets.acquire(1000);
    first.add(7);
    queryBitsets.releaseAll();
    const second = queryBitsets.acquire(1000);
    expect(second).toBe(first);
    expect(second.isEmpty()).toBe(true);
    queryBitsets.releaseAll();
  });

  it('keeps free lists for a few capacities only', () => {
    for (let capacity = 2000; capacity < 2100; capacity++) {
      queryBitsets.acquire(capacity);
      queryBitsets.releaseAll();
    }
    expect(queryBitsets.freeCapacities).toBeLessThanOrEqual(4);
    // The most recent capacity is still served from its free list.
    const reused = queryBitsets.acquire(2099);
    queryBitsets.releaseAll();
    expect(queryBitsets.acquire(2099)).toBe(reused);
    queryBitsets.releaseAll();
  });
});
