/**
 * Cumulative "below a threshold" document sets over a single-valued numeric column, so that a range filter
 * costs about one pass over the bitset words instead of one bit write per matching (or non-matching) value.
 *
 * The column's values are sorted with their documents beside them; a range is a slice [from, to) of positions.
 * Set i holds the documents whose value is below `limits[i]`, i.e. the documents of positions
 * [0, positions[i]). With one value per document, the documents of [from, to) are exactly
 * (set at `to`) \ (set at `from`): we take the thresholds nearest to both ends, combine their sets in one word
 * pass, then repair the two short edge slices between each threshold and the actual end (≤ n / quantiles values
 * each when the quantiles are balanced; correctness never depends on that).
 *
 * Thresholds are values, not positions: appended documents join every set whose limit is above their value,
 * and positions are recomputed by binary search, so the sets follow writes without being rebuilt.
 */
import type { Bitset } from '../structures/bitset.ts';
import { queryBitsets } from '../structures/bitset-pool.ts';
import { roomyUint32 } from '../structures/growable.ts';
import { partitionPoint } from '../structures/binary-search.ts';

export interface ThresholdOptions {
  /** Columns with fewer values keep the plain fill: a pass over every word would not pay off. */
  minValues: number;
  /** The thresholds are taken at this many quantiles of the values (memory: about that many bitsets). */
  quantiles: number;
  /**
   * Appended values wait, unsorted, in a pending list (scanned by every comparison) until it holds this many or
   * 1/256 of the column: a small write then costs its own values, not a merge through the whole column.
   */
  maxPending: number;
}

/**
 * 48 quantiles: at a million prices, about 70 sets (≈ 10 MB) with edges of ~4k values on average; 32 gave
 * ~50 sets and edges twice as long, 64 about 90 sets for little gain (bench/range.ts).
 */
export const DEFAULT_THRESHOLDS: ThresholdOptions = { minValues: 32_768, quantiles: 48, maxPending: 1024 };

/**
 * Estimated cost of one word of the combining pass, in bit writes of the plain fill: at a million documents
 * the (unrolled) pass measured ~1 ns a word, the fill's scattered writes 2–3 ns a bit.
 */
export const WORD_COST = 0.5;

export class ThresholdSets {
  /** Per limit, the number of held values below it (its lower bound in the sorted values). */
  private readonly positions: Uint32Array;

  private constructor(
    /** Ascending and distinct. */
    private readonly limits: Float64Array,
    /** Words of each set, with spare room beyond the documents (always zero there). */
    private sets: Uint32Array[],
  ) {
    this.positions = new Uint32Array(limits.length);
  }

  /**
   * Thresholds at the quantiles of `values` (sorted, documents beside them). Each quantile contributes the start
   * and the end of its run of equal values: a value held by half the documents then still has a threshold
   * right after it, so the slices that stop at either end of the run stay short.
   */
  static build(values: Float64Array, docs: Uint32Array, documents: number, quantiles: number): ThresholdSets {
    const n = values.length;
    const candidates: number[] = [];
    for (let k = 1; k < quantiles; k++) {
      const value = values[Math.floor((k * n) / quantiles)];
      candidates.push(lowerBound(values, value), upperBound(values, value));
    }
    candidates.sort((a, b) => a - b);
    // Thresholds closer together than this would cost memory and save almost nothing; the ends 0 and n need
    // no set (empty, and every document with a value).
    const minGap = Math.max(1, Math.floor(n / (4 * quantiles)));
    const positions: number[] = [];
    let last = 0;
    for (const p of candidates) {
      if (p - last < minGap || n - p < minGap) continue;
      positions.push(p);
      last = p;
    }
    const running = roomyUint32(new Uint32Array(0), (documents + 31) >>> 5, 0);
    const sets: Uint32Array[] = [];
    let k = 0;
    for (const p of positions) {
      for (; k < p; k++) running[docs[k] >>> 5] |= 1 << (docs[k] & 31);
      sets.push(running.slice());
    }
    const result = new ThresholdSets(Float64Array.from(positions, (p) => values[p]), sets);
    result.follow(values);
    return result;
  }

  /** New documents (above every held one), one pair each: each joins the sets whose limit is above its value. */
  add(pairValues: number[], pairDocs: number[]): void {
    if (pairDocs.length === 0 || this.sets.length === 0) return;
    this.grow((pairDocs[pairDocs.length - 1] + 32) >>> 5);
    const limits = this.limits;
    for (let j = 0; j < pairDocs.length; j++) {
      const word = pairDocs[j] >>> 5;
      const bit = 1 << (pairDocs[j] & 31);
      for (let i = upperBound(limits, pairValues[j]); i < limits.length; i++) this.sets[i][word] |= bit;
    }
  }

  /** Recomputes the positions of the limits after the sorted values changed. */
  follow(values: Float64Array): void {
    for (let i = 0; i < this.limits.length; i++) this.positions[i] = lowerBound(values, this.limits[i]);
  }

  /**
   * The documents of sorted positions [from, to) as a pooled set (the caller may mutate it), or null when the
   * estimated cost is not below `budget` (in bit writes). `all` holds every document with a value, at
   * `capacity`; `n` is the number of values.
   */
  select(from: number, to: number, docs: Uint32Array, n: number, all: Bitset, budget: number): Bitset | null {
    const a = this.nearest(from, n);
    const b = this.nearest(to, n);
    const pa = this.position(a, n);
    const pb = this.position(b, n);
    const words = all.words.length;
    if (Math.abs(pa - from) + Math.abs(pb - to) + words * WORD_COST >= budget) return null;
    this.grow(words);
    const set = queryBitsets.acquire(all.capacity);
    const out = set.words;
    // Base: the documents of [pa, pb) (nearest() is monotonic, so pa <= pb).
    if (a !== b) {
      const upper = b === this.sets.length ? all.words : this.sets[b];
      if (a < 0) out.set(upper.subarray(0, words));
      else andNot(out, upper, this.sets[a], words);
    }
    // Positions between each threshold and the actual end are the only ones where base and result differ.
    paint(out, docs, Math.min(pa, from), Math.max(pa, from), from, to);
    paint(out, docs, Math.min(pb, to), Math.max(pb, to), from, to);
    return set;
  }

  /** Index of the threshold nearest to position p: -1 is position 0 (empty), count is n (all); ties go down. */
  private nearest(p: number, n: number): number {
    const positions = this.positions;
    const lo = partitionPoint(0, positions.length, (i) => positions[i] < p);
    return p - this.position(lo - 1, n) <= this.position(lo, n) - p ? lo - 1 : lo;
  }

  private position(index: number, n: number): number {
    return index < 0 ? 0 : index >= this.positions.length ? n : this.positions[index];
  }

  /** Room for `words` words in every set (new words are zero: no document there yet). */
  private grow(words: number): void {
    if (this.sets.length === 0 || this.sets[0].length >= words) return;
    this.sets = this.sets.map((set) => roomyUint32(set, words, set.length));
  }
}

/**
 * out = upper \ lower over the first `words` words, unrolled by 8: V8 does not vectorise, and the plain loop
 * ran twice as slow (bench/range.ts) — this pass is most of the cost of a wide range.
 */
function andNot(out: Uint32Array, upper: Uint32Array, lower: Uint32Array, words: number): void {
  let i = 0;
  for (; i + 8 <= words; i += 8) {
    out[i] = upper[i] & ~lower[i];
    out[i + 1] = upper[i + 1] & ~lower[i + 1];
    out[i + 2] = upper[i + 2] & ~lower[i + 2];
    out[i + 3] = upper[i + 3] & ~lower[i + 3];
    out[i + 4] = upper[i + 4] & ~lower[i + 4];
    out[i + 5] = upper[i + 5] & ~lower[i + 5];
    out[i + 6] = upper[i + 6] & ~lower[i + 6];
    out[i + 7] = upper[i + 7] & ~lower[i + 7];
  }
  for (; i < words; i++) out[i] = upper[i] & ~lower[i];
}

/** Sets the bits of the documents of positions [lo, hi) to their membership of [from, to). */
function paint(out: Uint32Array, docs: Uint32Array, lo: number, hi: number, from: number, to: number): void {
  const a = Math.min(Math.max(from, lo), hi);
  const b = Math.min(Math.max(to, a), hi);
  for (let k = lo; k < a; k++) out[docs[k] >>> 5] &= ~(1 << (docs[k] & 31));
  for (let k = a; k < b; k++) out[docs[k] >>> 5] |= 1 << (docs[k] & 31);
  for (let k = b; k < hi; k++) out[docs[k] >>> 5] &= ~(1 << (docs[k] & 31));
}

/** First index with values[i] >= value. */
export function lowerBound(values: Float64Array, value: number): number {
  return partitionPoint(0, values.length, (i) => values[i] < value);
}

/** First index with values[i] > value. */
export function upperBound(values: Float64Array, value: number): number {
  return partitionPoint(0, values.length, (i) => values[i] <= value);
}
