/**
 * Reusable bitsets for the temporaries of one search (match sets, bucket splits, numeric ranges).
 *
 * At a million documents a bitset is 125 KB held outside the JS heap; allocating a dozen per query makes V8
 * count fast-growing external memory and run full collections of the whole heap (records included), which is
 * where the slowest queries came from. Temporaries are taken from here and all handed back when the search
 * ends (`releaseAll`, in a `finally`), so steady-state searching allocates none. Nothing taken from the pool
 * may outlive the search: cached structures allocate their own bitsets.
 */
import { Bitset } from './bitset.ts';

const MAX_FREE_PER_CAPACITY = 64;
/**
 * Capacities with free lists kept. Every write changes an index's capacity, and sets of an older capacity are
 * never asked for again: without this bound, each write would strand up to a full free list.
 */
const MAX_CAPACITIES = 4;

class BitsetPool {
  private readonly free = new Map<number, Bitset[]>();
  private used: Bitset[] = [];

  /** An empty set. */
  acquire(capacity: number): Bitset {
    const list = this.free.get(capacity);
    const set = list?.pop();
    if (set === undefined) {
      const fresh = new Bitset(capacity);
      this.used.push(fresh);
      return fresh;
    }
    set.words.fill(0);
    this.used.push(set);
    return set;
  }

  /** A copy of `source`. */
  copy(source: Bitset): Bitset {
    const list = this.free.get(source.capacity);
    const set = list?.pop();
    if (set === undefined) {
      const fresh = source.clone();
      this.used.push(fresh);
      return fresh;
    }
    set.words.set(source.words);
    this.used.push(set);
    return set;
  }

  /**
   * An empty set for a longer-lived owner (a cache entry): not handed back by `releaseAll`; the owner gives
   * it back with `retire` when it drops it.
   */
  take(capacity: number): Bitset {
    const set = this.free.get(capacity)?.pop();
    if (set === undefined) return new Bitset(capacity);
    set.words.fill(0);
    return set;
  }

  /** Gives back a set from `take`, once no one uses it: it becomes free at the end of the current search. */
  retire(set: Bitset): void {
    this.used.push(set);
  }

  /** Hands back every set taken since the last call. */
  releaseAll(): void {
    for (const set of this.used) {
      let list = this.free.get(set.capacity);
      if (list === undefined) {
        this.free.set(set.capacity, (list = []));
        // Map order is insertion order: drop the capacity whose list was created longest ago.
        if (this.free.size > MAX_CAPACITIES) this.free.delete(this.free.keys().next().value as number);
      }
      if (list.length < MAX_FREE_PER_CAPACITY) list.push(set);
    }
    this.used = [];
  }

  /** Capacities with a free list (for tests). */
  get freeCapacities(): number {
    return this.free.size;
  }
}

/** One pool for the process: searches are synchronous, so they never overlap. */
export const queryBitsets = new BitsetPool();
