/**
 * A fixed-capacity set of internal document ids, one bit each, on 32-bit words.
 *
 * Filters, facet values and match sets are all bitsets of the same capacity, so combining them is a tight loop
 * over words: at a million documents that is 31,250 words, a few microseconds per operation.
 */
/** Growable sets reserve whole blocks of this many words (1,024 words hold 32,768 ids; see `Bitset.growable`). */
const GROWTH_BLOCK_WORDS = 1024;

/** 32-bit words holding `capacity` ids. */
export function wordsFor(capacity: number): number {
  return (capacity + 31) >>> 5;
}

/** Words reserved for a set of `words` words that may grow: whole blocks, at least one. */
export function reservedWords(words: number): number {
  return Math.max(GROWTH_BLOCK_WORDS, Math.ceil(words / GROWTH_BLOCK_WORDS) * GROWTH_BLOCK_WORDS);
}

export class Bitset {
  readonly words: Uint32Array;

  constructor(readonly capacity: number, words?: Uint32Array) {
    this.words = words ?? new Uint32Array(wordsFor(capacity));
  }

  static full(capacity: number): Bitset {
    const set = new Bitset(capacity);
    set.words.fill(0xffffffff);
    set.clearTail();
    return set;
  }

  static fromIds(capacity: number, ids: Iterable<number>): Bitset {
    const set = new Bitset(capacity);
    for (const id of ids) set.add(id);
    return set;
  }

  has(id: number): boolean {
    return (this.words[id >>> 5] & (1 << (id & 31))) !== 0;
  }

  add(id: number): void {
    this.words[id >>> 5] |= 1 << (id & 31);
  }

  delete(id: number): void {
    this.words[id >>> 5] &= ~(1 << (id & 31));
  }

  /**
   * An empty set whose buffer has room to grow (rounded up to whole blocks of 32,768 ids): a cached set that
   * follows an index growing by writes (`grownTo`) then extends in place rather than being copied after each.
   */
  static growable(capacity: number): Bitset {
    const words = wordsFor(capacity);
    return new Bitset(capacity, new Uint32Array(reservedWords(words)).subarray(0, words));
  }

  /**
   * The same ids in a set of `capacity` (not smaller than this one's): a view of the same buffer when it has
   * room, otherwise a growable copy. The caller drops this set for the returned one (they may share words).
   */
  grownTo(capacity: number): Bitset {
    const words = wordsFor(capacity);
    // Whole blocks were reserved; the buffer may be a slab holding other sets' words after them.
    const room = Math.min(this.words.buffer.byteLength / 4 - this.words.byteOffset / 4, reservedWords(this.words.length));
    if (words <= room) return new Bitset(capacity, new Uint32Array(this.words.buffer, this.words.byteOffset, words));
    const grown = Bitset.growable(capacity);
    grown.words.set(this.words);
    return grown;
  }

  clone(): Bitset {
    return new Bitset(this.capacity, this.words.slice());
  }

  /** In place: this ∩ other. (Loops over whole sets are unrolled by four words: see `intersect4`.) */
  and(other: Bitset): this {
    const a = this.words;
    const b = other.words;
    const n = a.length;
    let i = 0;
    for (; i + 3 < n; i += 4) {
      a[i] &= b[i];
      a[i + 1] &= b[i + 1];
      a[i + 2] &= b[i + 2];
      a[i + 3] &= b[i + 3];
    }
    for (; i < n; i++) a[i] &= b[i];
    return this;
  }

  /** In place: this ∩ other, returning the new size (one pass instead of `and` then `count`). */
  andCount(other: Bitset): number {
    const a = this.words;
    const n = Math.min(a.length, other.words.length);
    const total = intersect2(a, a, other.words, n);
    a.fill(0, n);
    return total;
  }

  /** In place: this \ other, returning the new size. */
  andNotCount(other: Bitset): number {
    const a = this.words;
    const n = Math.min(a.length, other.words.length);
    let total = subtract2(a, a, other.words, n);
    // Past the end of a shorter `other` there is nothing to subtract.
    for (let i = n; i < a.length; i++) total += popcount(a[i]);
    return total;
  }

  /** In place: this ∪ other. */
  or(other: Bitset): this {
    orWords(this.words, other.words);
    return this;
  }

  /** In place: this \ other. */
  andNot(other: Bitset): this {
    const a = this.words;
    const b = other.words;
    for (let i = 0; i < a.length; i++) a[i] &= ~b[i];
    return this;
  }

  /** In place: complement within the capacity. */
  not(): this {
    const a = this.words;
    for (let i = 0; i < a.length; i++) a[i] = ~a[i];
    this.clearTail();
    return this;
  }

  count(): number {
    return countAnd2(this.words, this.words, this.words.length);
  }

  /** |this ∩ other| without allocating. */
  countAnd(other: Bitset): number {
    return countAnd2(this.words, other.words, Math.min(this.words.length, other.words.length));
  }

  isEmpty(): boolean {
    const a = this.words;
    for (let i = 0; i < a.length; i++) if (a[i] !== 0) return false;
    return true;
  }

  /** Calls `visit` with each member in ascending order; stops early when it returns false. */
  forEach(visit: (id: number) => boolean | void): void {
    const a = this.words;
    for (let i = 0; i < a.length; i++) {
      let w = a[i] | 0;
      while (w !== 0) {
        const low = w & -w;
        const id = (i << 5) + (31 - Math.clz32(low));
        if (visit(id) === false) return;
        w ^= low;
      }
    }
  }

  toArray(): number[] {
    const ids: number[] = [];
    this.forEach((id) => {
      ids.push(id);
    });
    return ids;
  }

  private clearTail(): void {
    const tailBits = this.capacity & 31;
    if (tailBits !== 0) this.words[this.words.length - 1] &= (1 << tailBits) - 1;
  }
}

/** |a ∩ b| of two word arrays (as far as the shorter goes), without allocating. */
export function countCommon(a: Uint32Array, b: Uint32Array): number {
  return countAnd2(a, b, Math.min(a.length, b.length));
}

/**
 * The index of the first non-zero word of `words[from, end)`, or `end`, skipping runs of zero words eight at a
 * time. For the scans that visit a sparse set's ids (facet walks, ranking's id arrays): a match set of a few
 * hundred documents among a million is almost all zero words, which this reads at twice the speed. Only for
 * sparse sets (`isSparse`): in a set with an id every few words, most blocks of eight are not empty and their
 * test is wasted (5–15% slower at 20,000 and 200,000 ids of a million).
 */
export function nextSetWord(words: Uint32Array, from: number, end: number): number {
  let i = from;
  while (i < end && words[i] === 0) {
    if (i + 8 <= end && (words[i + 1] | words[i + 2] | words[i + 3] | words[i + 4] | words[i + 5] | words[i + 6] | words[i + 7]) === 0) i += 8;
    else i++;
  }
  return i;
}

/** Whether `count` ids over `words` words make a set sparse enough for `nextSetWord`: under one id per 16 words. */
export function isSparse(count: number, words: number): boolean {
  return count * 16 < words;
}

/**
 * `target` = the intersection of `sources` (at least one), in one pass per four sources, returning its size.
 * Replaces a copy followed by one `andCount` per operand: at a million documents each of those passes reads and
 * writes the whole 125 KB target. Sources shorter than the target (built before documents were appended) count
 * as empty past their end. Every word of `target` is written: it need not be cleared first.
 */
export function intersectInto(target: Bitset, sources: readonly Bitset[]): number {
  const out = target.words;
  let n = out.length;
  for (const source of sources) if (source.words.length < n) n = source.words.length;
  const words = sources.map((source) => source.words);
  let total = intersectFirst(out, words, n);
  out.fill(0, n);
  // Further sources three at a time, with the running result as the first; nothing left means nothing to do.
  for (let k = 4; k < words.length && total > 0; k += 3) total = intersectFirst(out, [out, ...words.slice(k, k + 3)], n);
  return total;
}

/**
 * out[0, n) = the AND of the first (up to) four arrays, returning the bits set. One kernel per arity: a
 * four-way kernel fed repeated arrays costs 1.5–2× a two-way one on the reference machine (each array is
 * loaded and ANDed again).
 */
function intersectFirst(out: Uint32Array, words: Uint32Array[], n: number): number {
  switch (words.length) {
    case 1:
      return intersect2(out, words[0], words[0], n);
    case 2:
      return intersect2(out, words[0], words[1], n);
    case 3:
      return intersect3(out, words[0], words[1], words[2], n);
    default:
      return intersect4(out, words[0], words[1], words[2], words[3], n);
  }
}

/**
 * `target` = the union of `sources` (at least one): a copy, then one in-place OR per further source (a copy is
 * a memory move, cheaper than any JavaScript loop). Sources shorter than the target count as empty past their
 * end. Every word of `target` is written: it need not be cleared first.
 */
export function unionInto(target: Bitset, sources: readonly Bitset[]): void {
  const out = target.words;
  const first = sources[0].words;
  const copied = Math.min(first.length, out.length);
  out.set(copied === first.length ? first : first.subarray(0, copied));
  out.fill(0, copied);
  for (let k = 1; k < sources.length; k++) orWords(out, sources[k].words);
}

/** In place: out |= words, over the words both have (a shorter `words` counts as empty past its end). */
function orWords(out: Uint32Array, words: Uint32Array): void {
  const n = Math.min(out.length, words.length);
  let i = 0;
  for (; i + 3 < n; i += 4) {
    out[i] |= words[i];
    out[i + 1] |= words[i + 1];
    out[i + 2] |= words[i + 2];
    out[i + 3] |= words[i + 3];
  }
  for (; i < n; i++) out[i] |= words[i];
}

/*
 * The kernels below are unrolled by four words: V8 does not vectorise, and this halves the loop's cost. A group
 * of four words is only counted when one of them is non-zero.
 */

function intersect2(out: Uint32Array, a: Uint32Array, b: Uint32Array, n: number): number {
  let total = 0;
  let i = 0;
  for (; i + 3 < n; i += 4) {
    const w0 = a[i] & b[i];
    const w1 = a[i + 1] & b[i + 1];
    const w2 = a[i + 2] & b[i + 2];
    const w3 = a[i + 3] & b[i + 3];
    out[i] = w0;
    out[i + 1] = w1;
    out[i + 2] = w2;
    out[i + 3] = w3;
    if ((w0 | w1 | w2 | w3) !== 0) total += popcount4(w0, w1, w2, w3);
  }
  for (; i < n; i++) {
    const w = a[i] & b[i];
    out[i] = w;
    if (w !== 0) total += popcount(w);
  }
  return total;
}

/** |a ∩ b| over the first n words. */
function countAnd2(a: Uint32Array, b: Uint32Array, n: number): number {
  let total = 0;
  let i = 0;
  for (; i + 3 < n; i += 4) {
    const w0 = a[i] & b[i];
    const w1 = a[i + 1] & b[i + 1];
    const w2 = a[i + 2] & b[i + 2];
    const w3 = a[i + 3] & b[i + 3];
    if ((w0 | w1 | w2 | w3) !== 0) total += popcount4(w0, w1, w2, w3);
  }
  for (; i < n; i++) total += popcount(a[i] & b[i]);
  return total;
}

/** out[0, n) = a \ b, returning the bits set. */
function subtract2(out: Uint32Array, a: Uint32Array, b: Uint32Array, n: number): number {
  let total = 0;
  let i = 0;
  for (; i + 3 < n; i += 4) {
    const w0 = a[i] & ~b[i];
    const w1 = a[i + 1] & ~b[i + 1];
    const w2 = a[i + 2] & ~b[i + 2];
    const w3 = a[i + 3] & ~b[i + 3];
    out[i] = w0;
    out[i + 1] = w1;
    out[i + 2] = w2;
    out[i + 3] = w3;
    if ((w0 | w1 | w2 | w3) !== 0) total += popcount4(w0, w1, w2, w3);
  }
  for (; i < n; i++) {
    const w = a[i] & ~b[i];
    out[i] = w;
    if (w !== 0) total += popcount(w);
  }
  return total;
}

function intersect3(out: Uint32Array, a: Uint32Array, b: Uint32Array, c: Uint32Array, n: number): number {
  let total = 0;
  let i = 0;
  for (; i + 3 < n; i += 4) {
    const w0 = a[i] & b[i] & c[i];
    const w1 = a[i + 1] & b[i + 1] & c[i + 1];
    const w2 = a[i + 2] & b[i + 2] & c[i + 2];
    const w3 = a[i + 3] & b[i + 3] & c[i + 3];
    out[i] = w0;
    out[i + 1] = w1;
    out[i + 2] = w2;
    out[i + 3] = w3;
    if ((w0 | w1 | w2 | w3) !== 0) total += popcount4(w0, w1, w2, w3);
  }
  for (; i < n; i++) {
    const w = a[i] & b[i] & c[i];
    out[i] = w;
    if (w !== 0) total += popcount(w);
  }
  return total;
}

function intersect4(out: Uint32Array, a: Uint32Array, b: Uint32Array, c: Uint32Array, d: Uint32Array, n: number): number {
  let total = 0;
  let i = 0;
  for (; i + 3 < n; i += 4) {
    const w0 = a[i] & b[i] & c[i] & d[i];
    const w1 = a[i + 1] & b[i + 1] & c[i + 1] & d[i + 1];
    const w2 = a[i + 2] & b[i + 2] & c[i + 2] & d[i + 2];
    const w3 = a[i + 3] & b[i + 3] & c[i + 3] & d[i + 3];
    out[i] = w0;
    out[i + 1] = w1;
    out[i + 2] = w2;
    out[i + 3] = w3;
    if ((w0 | w1 | w2 | w3) !== 0) total += popcount4(w0, w1, w2, w3);
  }
  for (; i < n; i++) {
    const w = a[i] & b[i] & c[i] & d[i];
    out[i] = w;
    if (w !== 0) total += popcount(w);
  }
  return total;
}

/**
 * The bits set in four words: the first two steps of `popcount` per word, then the byte sums of all four added
 * before the one multiply that totals them (each byte holds at most 8 per word, 32 for four: no overflow).
 */
function popcount4(w0: number, w1: number, w2: number, w3: number): number {
  let x0 = w0 - ((w0 >>> 1) & 0x55555555);
  let x1 = w1 - ((w1 >>> 1) & 0x55555555);
  let x2 = w2 - ((w2 >>> 1) & 0x55555555);
  let x3 = w3 - ((w3 >>> 1) & 0x55555555);
  x0 = (x0 & 0x33333333) + ((x0 >>> 2) & 0x33333333);
  x1 = (x1 & 0x33333333) + ((x1 >>> 2) & 0x33333333);
  x2 = (x2 & 0x33333333) + ((x2 >>> 2) & 0x33333333);
  x3 = (x3 & 0x33333333) + ((x3 >>> 2) & 0x33333333);
  const bytes = ((x0 + (x0 >>> 4)) & 0x0f0f0f0f) + ((x1 + (x1 >>> 4)) & 0x0f0f0f0f) + ((x2 + (x2 >>> 4)) & 0x0f0f0f0f) + ((x3 + (x3 >>> 4)) & 0x0f0f0f0f);
  return Math.imul(bytes, 0x01010101) >>> 24;
}

export function popcount(word: number): number {
  let w = word - ((word >>> 1) & 0x55555555);
  w = (w & 0x33333333) + ((w >>> 2) & 0x33333333);
  return (((w + (w >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}
