/**
 * A fixed-capacity set of internal document ids, one bit each, on 32-bit words.
 *
 * Filters, facet values and match sets are all bitsets of the same capacity, so combining them is a tight loop
 * over words: at a million documents that is 31,250 words, a few microseconds per operation.
 */
export class Bitset {
  readonly words: Uint32Array;

  constructor(readonly capacity: number, words?: Uint32Array) {
    this.words = words ?? new Uint32Array((capacity + 31) >>> 5);
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

  clone(): Bitset {
    return new Bitset(this.capacity, this.words.slice());
  }

  /** In place: this ∩ other. */
  and(other: Bitset): this {
    const a = this.words;
    const b = other.words;
    for (let i = 0; i < a.length; i++) a[i] &= b[i];
    return this;
  }

  /** In place: this ∩ other, returning the new size (one pass instead of `and` then `count`). */
  andCount(other: Bitset): number {
    const a = this.words;
    const b = other.words;
    let total = 0;
    for (let i = 0; i < a.length; i++) {
      const w = a[i] & b[i];
      a[i] = w;
      if (w !== 0) total += popcount(w);
    }
    return total;
  }

  /** In place: this \ other, returning the new size. */
  andNotCount(other: Bitset): number {
    const a = this.words;
    const b = other.words;
    let total = 0;
    for (let i = 0; i < a.length; i++) {
      const w = a[i] & ~b[i];
      a[i] = w;
      if (w !== 0) total += popcount(w);
    }
    return total;
  }

  /** A new set: this \ other, and its size, in one pass. */
  minusCount(other: Bitset): { set: Bitset; count: number } {
    const out = new Bitset(this.capacity);
    const a = this.words;
    const b = other.words;
    const o = out.words;
    let total = 0;
    for (let i = 0; i < a.length; i++) {
      const w = a[i] & ~b[i];
      o[i] = w;
      if (w !== 0) total += popcount(w);
    }
    return { set: out, count: total };
  }

  /** In place: this ∪ other. */
  or(other: Bitset): this {
    const a = this.words;
    const b = other.words;
    for (let i = 0; i < a.length; i++) a[i] |= b[i];
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
    let total = 0;
    const a = this.words;
    for (let i = 0; i < a.length; i++) total += popcount(a[i]);
    return total;
  }

  /** |this ∩ other| without allocating. */
  countAnd(other: Bitset): number {
    let total = 0;
    const a = this.words;
    const b = other.words;
    for (let i = 0; i < a.length; i++) {
      const w = a[i] & b[i];
      if (w !== 0) total += popcount(w);
    }
    return total;
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

export function popcount(word: number): number {
  let w = word - ((word >>> 1) & 0x55555555);
  w = (w & 0x33333333) + ((w >>> 2) & 0x33333333);
  return (((w + (w >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}
