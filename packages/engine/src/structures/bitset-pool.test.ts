/**
 * The query bitset pool: buffers handed back at the end of a search are reused (emptied) for any capacity of
 * the same size class, so an index growing by small writes keeps reusing them, and free lists of classes no
 * longer asked for are dropped.
 */
import { describe, expect, it } from 'vitest';
import { queryBitsets } from './bitset-pool.ts';
import { Bitset } from './bitset.ts';

/** Whether two sets are views of the same memory (buffers are carved from shared slabs). */
const sameWords = (a: Bitset, b: Bitset): boolean => a.words.buffer === b.words.buffer && a.words.byteOffset === b.words.byteOffset;

describe('query bitset pool', () => {
  it('reuses released buffers, emptied', () => {
    const first = queryBitsets.acquire(1000);
    first.add(7);
    queryBitsets.releaseAll();
    const second = queryBitsets.acquire(1000);
    expect(sameWords(second, first)).toBe(true);
    expect(second.isEmpty()).toBe(true);
    expect(second.words.length).toBe(32);
    queryBitsets.releaseAll();
  });

  it('serves a capacity grown by a few writes from the same buffer, with the exact word count', () => {
    const before = queryBitsets.acquire(100_000);
    before.words.fill(0xffffffff);
    queryBitsets.releaseAll();
    const after = queryBitsets.acquire(100_010);
    expect(sameWords(after, before)).toBe(true);
    expect(after.words.length).toBe(Math.ceil(100_010 / 32));
    expect(after.isEmpty()).toBe(true);
    const copy = queryBitsets.copy(Bitset.fromIds(100_020, [5, 100_019]));
    expect(sameWords(copy, after)).toBe(false);
    expect(copy.toArray()).toEqual([5, 100_019]);
    queryBitsets.releaseAll();
  });

  it('keeps free lists for a few size classes only', () => {
    for (let capacity = 40_000; capacity < 1_000_000; capacity += 40_000) {
      queryBitsets.acquire(capacity);
      queryBitsets.releaseAll();
    }
    expect(queryBitsets.freeCapacities).toBeLessThanOrEqual(4);
    // The most recent class is still served from its free list.
    const reused = queryBitsets.acquire(990_000);
    queryBitsets.releaseAll();
    expect(sameWords(queryBitsets.acquire(990_000), reused)).toBe(true);
    queryBitsets.releaseAll();
  });

  it('never takes back a set it did not hand out', () => {
    const own = new Bitset(32_768);
    queryBitsets.retire(own);
    queryBitsets.releaseAll();
    expect(queryBitsets.acquire(32_768).words.buffer).not.toBe(own.words.buffer);
    queryBitsets.releaseAll();
  });

  it('carves sets that never overlap, and grows one without spilling into the next', () => {
    const sets = Array.from({ length: 40 }, () => queryBitsets.take(50_000));
    sets[0].words.fill(0xffffffff);
    expect(sets.slice(1).every((set) => set.isEmpty())).toBe(true);
    const grown = sets[1].grownTo(70_000);
    grown.add(69_999);
    expect(sets[2].isEmpty()).toBe(true);
    expect(sameWords(sets[1], grown)).toBe(false);
    for (const set of sets) queryBitsets.retire(set);
    queryBitsets.releaseAll();
  });
});
