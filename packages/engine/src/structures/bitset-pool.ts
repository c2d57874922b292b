/**
 * Reusable bitsets for the temporaries of one search (match sets, bucket splits, numeric ranges).
 *
 * At a million documents a bitset is 125 KB held outside the JS heap; allocating a dozen per query makes V8
 * count fast-growing external memory and run full collections of the whole heap (records included), which is
 * where the slowest queries came from. Temporaries are taken from here and all handed back when the search
 * ends (`releaseAll`, in a `finally`), so steady-state searching allocates none. Nothing taken from the pool
 * may outlive the search: cached structures allocate their own bitsets.
 *
 * Buffers are pooled by size class, not by exact capacity: every write makes an index's capacity a few ids
 * larger, and a pool keyed by capacity would allocate every temporary afresh after each write (measured: a
 * tenth of a search's time under a 10% write load). A set is a view of the first words of a class buffer,
 * reserved in whole blocks as growable sets are (`reservedWords`).
 */
import { Bitset, reservedWords, wordsFor } from './bitset.ts';

const MAX_FREE_PER_CLASS = 64;
/**
 * Size classes with free lists kept. An index growing by writes moves to the next class every 32,768 ids (the
 * block of `reservedWords`), and sets of a smaller class are never asked for again: without this bound, each
 * step would strand a free list.
 */
const MAX_CLASSES = 4;
/**
 * New class buffers are views carved from slabs of this size: allocating each 16–128 KB buffer on its own cost
 * ~50 µs (V8 accounts each as external memory and runs collections over the whole heap as they add up, and
 * an index's word cache fills with thousands of them), a view of a slab ~1 µs.
 */
const SLAB_BYTES = 1 << 20;

class BitsetPool {
  private readonly free = new Map<number, Uint32Array[]>();
  private used: Uint32Array[] = [];
  /** Per size class, the slab new buffers of that class are carved from and how far it is carved. */
  private readonly slabs = new Map<number, { words: Uint32Array; at: number }>();
  /** Buffers this pool allocated: only those may come back (a set of another owner could have a class size). */
  private readonly own = new WeakSet<ArrayBufferLike>();

  /** An empty set. */
  acquire(capacity: number): Bitset {
    const set = this.take(capacity);
    this.lent(set);
    return set;
  }

  /** A set whose words are left as they were: for a caller that writes every word (`intersectInto`, `unionInto`). */
  scratch(capacity: number): Bitset {
    const set = this.fromBuffer(capacity);
    this.lent(set);
    return set;
  }

  /** A copy of `source`. */
  copy(source: Bitset): Bitset {
    const set = this.fromBuffer(source.capacity);
    set.words.set(source.words);
    this.lent(set);
    return set;
  }

  /**
   * An empty set for a longer-lived owner (a cache entry): not handed back by `releaseAll`; the owner gives
   * it back with `retire` when it drops it.
   */
  take(capacity: number): Bitset {
    const set = this.fromBuffer(capacity);
    set.words.fill(0);
    return set;
  }

  /** Gives back a set from `take`, once no one uses it: it becomes free at the end of the current search. */
  retire(set: Bitset): void {
    if (this.own.has(set.words.buffer)) this.lent(set);
  }

  /** Hands back every set taken since the last call. */
  releaseAll(): void {
    for (const buffer of this.used) {
      let list = this.free.get(buffer.length);
      if (list === undefined) {
        this.free.set(buffer.length, (list = []));
        // Map order is insertion order: drop the class whose list was created longest ago.
        if (this.free.size > MAX_CLASSES) this.free.delete(this.free.keys().next().value as number);
      }
      if (list.length < MAX_FREE_PER_CLASS) list.push(buffer);
    }
    this.used = [];
  }

  /** Size classes with a free list (for tests). */
  get freeCapacities(): number {
    return this.free.size;
  }

  /** A set over a pooled (or new) class buffer; its words are not cleared. */
  private fromBuffer(capacity: number): Bitset {
    const words = wordsFor(capacity);
    const size = reservedWords(words);
    const buffer = this.free.get(size)?.pop() ?? this.carve(size);
    return new Bitset(capacity, buffer.subarray(0, words));
  }

  /** A new buffer of `size` words, zeroed: the next one of its class's slab. */
  private carve(size: number): Uint32Array {
    let slab = this.slabs.get(size);
    if (slab === undefined || slab.at + size > slab.words.length) {
      slab = { words: new Uint32Array(Math.max(1, Math.floor(SLAB_BYTES / 4 / size)) * size), at: 0 };
      this.own.add(slab.words.buffer);
      this.slabs.delete(size);
      this.slabs.set(size, slab);
      // Map order is insertion order: forget the slab of the class asked for longest ago.
      if (this.slabs.size > MAX_CLASSES) this.slabs.delete(this.slabs.keys().next().value as number);
    }
    const buffer = slab.words.subarray(slab.at, slab.at + size);
    slab.at += size;
    return buffer;
  }

  /** Records a set over one of this pool's buffers as in use until `releaseAll`: its whole class buffer. */
  private lent(set: Bitset): void {
    const { words } = set;
    this.used.push(new Uint32Array(words.buffer, words.byteOffset, reservedWords(words.length)));
  }
}

/** One pool for the process: searches are synchronous, so they never overlap. */
export const queryBitsets = new BitsetPool();
