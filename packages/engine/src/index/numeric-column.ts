/**
 * Numeric values of one attribute, sorted, for range filters and sort criteria: `values` ascending with the
 * owning document beside each (a document with an array contributes one entry per element). A comparison is
 * two binary searches and a bitset fill over the matching slice; on large single-valued columns, wide slices
 * come from cumulative threshold sets instead (numeric-thresholds.ts: one pass over the words plus two short
 * edges), built on the first comparison that benefits and extended with the column. Values of documents
 * appended since the last merge wait in a short unsorted pending list that every comparison scans.
 *
 * Also keeps one value per document (`first`, NaN when absent) for sorting hits by an attribute.
 *
 * A document whose record changed in place (same id, new values: `replaceValues`) is masked out of what the
 * sorted arrays say (its pairs there are stale) and its new pairs wait in the pending list; the next merge
 * drops the stale pairs.
 */
import { Bitset } from '../structures/bitset.ts';
import { queryBitsets } from '../structures/bitset-pool.ts';
import { NUMERIC_TESTS, type NumericOperator } from '../filter/types.ts';
import { numericValues, type AttributePath } from './attributes.ts';
import type { RecordList } from './record-list.ts';
import type { FacetColumn } from './facet-column.ts';
import { roomyFloat64, roomyUint32 } from '../structures/growable.ts';
import { DEFAULT_THRESHOLDS, ThresholdSets, type ThresholdOptions, WORD_COST, lowerBound, upperBound } from './numeric-thresholds.ts';

export class NumericColumn {
  values: Float64Array;
  docs: Uint32Array;
  /** Per document: its first numeric value, NaN if it has none. */
  first: Float64Array;
  /** No document has more than one value. */
  singleValued: boolean;
  /** Built from a facet column (else from the records): `extended` reads new documents the same way. */
  readonly fromFacet: boolean;

  /** From the records themselves (any numeric attribute). */
  static fromRecords(records: RecordList, path: AttributePath, options: ThresholdOptions = DEFAULT_THRESHOLDS): NumericColumn {
    const column = new NumericColumn(false, options);
    column.append(pairsFromRecords(records, path, 0, records.length), records.length);
    return column;
  }

  /**
   * From a facet column holding the same attribute, without reading records. Null when the facet has booleans
   * (numeric filters read those as 0/1, facets as "true"/"false").
   */
  static fromFacet(column: FacetColumn, documents: number, options: ThresholdOptions = DEFAULT_THRESHOLDS): NumericColumn | null {
    for (let v = 0; v < column.valueCount; v++) {
      if (!Number.isNaN(column.numbers[v])) continue;
      const label = column.labels.get(v);
      if (label === 'true' || label === 'false') return null;
    }
    const result = new NumericColumn(true, options);
    if (!result.adoptSortedFacet(column, documents)) result.append(pairsFromFacet(column, 0, documents), documents);
    return result;
  }

  /**
   * Fills an empty column from a facet column in one counting pass: the facet's distinct numbers are sorted (a
   * few thousand, not a pair per document) and each document's pairs dropped into their number's bucket, in
   * document order, which is what a sort of every pair by (value, position) gives, in tens of milliseconds
   * rather than about a second for a million products' `price` (a restart's warm-up builds it). False, with
   * nothing done, for a column small enough to stay pending (what `append` would leave it as).
   */
  private adoptSortedFacet(column: FacetColumn, documents: number): boolean {
    const offsets = column.offsets.data;
    const ids = column.values.data;
    const numbers = column.numbers;
    const pairs = offsets[documents] - offsets[0];
    if (pairs <= this.options.maxPending) return false;
    // Value ids in ascending order of their numbers; ids of equal numbers ("10" and "10.0") share a bucket.
    const numericIds: number[] = [];
    for (let v = 0; v < numbers.length; v++) if (!Number.isNaN(numbers[v])) numericIds.push(v);
    numericIds.sort((a, b) => numbers[a] - numbers[b]);
    const bucketOf = new Int32Array(numbers.length).fill(-1);
    const bucketValue: number[] = [];
    for (const v of numericIds) {
      if (bucketValue.length === 0 || bucketValue[bucketValue.length - 1] !== numbers[v]) bucketValue.push(numbers[v]);
      bucketOf[v] = bucketValue.length - 1;
    }
    const starts = new Uint32Array(bucketValue.length + 1);
    const first = new Float64Array(documents).fill(NaN);
    for (let d = 0; d < documents; d++) {
      let held = 0;
      for (let k = offsets[d]; k < offsets[d + 1]; k++) {
        const bucket = bucketOf[ids[k]];
        if (bucket < 0) continue;
        starts[bucket + 1]++;
        if (held++ === 0) first[d] = numbers[ids[k]];
        else this.singleValued = false;
      }
    }
    for (let b = 0; b < bucketValue.length; b++) starts[b + 1] += starts[b];
    const total = starts[bucketValue.length];
    const values = new Float64Array(total);
    const docs = new Uint32Array(total);
    const next = starts.slice(0, bucketValue.length);
    for (let d = 0; d < documents; d++) {
      for (let k = offsets[d]; k < offsets[d + 1]; k++) {
        const bucket = bucketOf[ids[k]];
        if (bucket < 0) continue;
        const at = next[bucket]++;
        values[at] = numbers[ids[k]];
        docs[at] = d;
      }
    }
    this.valueBuffer = this.values = values;
    this.docBuffer = this.docs = docs;
    this.firstBuffer = this.first = first;
    return true;
  }

  private constructor(
    fromFacet: boolean,
    /** When threshold sets pay off (tests shrink it; `minValues: Infinity` keeps the plain fill only). */
    private readonly options: ThresholdOptions,
  ) {
    this.fromFacet = fromFacet;
    this.values = new Float64Array(0);
    this.docs = new Uint32Array(0);
    this.first = new Float64Array(0);
    this.singleValued = true;
  }

  /**
   * Brings the column up to documents appended since (`from` to `documents`): their pairs are sorted alone and
   * merged into the sorted arrays from the back, in place (O(existing + new log new), no sort of everything and,
   * thanks to spare room, rarely an allocation). The column is updated and returned.
   */
  extended(facet: FacetColumn | null, records: RecordList, path: AttributePath, from: number, documents: number): NumericColumn {
    this.append(facet !== null ? pairsFromFacet(facet, from, documents) : pairsFromRecords(records, path, from, documents), documents);
    return this;
  }

  private valueBuffer: Float64Array = new Float64Array(0);
  private docBuffer: Uint32Array = new Uint32Array(0);
  private firstBuffer: Float64Array = new Float64Array(0);

  /** Pairs of documents appended or changed since the last merge (values in no order). */
  private pendingValues: number[] = [];
  private pendingDocs: number[] = [];
  /** Documents changed in place since the last merge: their pairs in the sorted arrays are stale. */
  private replaced: Set<number> | null = null;

  /**
   * `doc` (held) now has `values` (its record changed in place): its sorted pairs are masked from now on, its
   * pending ones replaced by the new ones. The column is updated and returned.
   */
  replaceValues(doc: number, values: number[]): NumericColumn {
    if (this.pendingDocs.includes(doc)) {
      const keep = this.pendingDocs.map((d) => d !== doc);
      this.pendingValues = this.pendingValues.filter((_, i) => keep[i]);
      this.pendingDocs = this.pendingDocs.filter((_, i) => keep[i]);
    }
    (this.replaced ??= new Set()).add(doc);
    for (const value of values) {
      this.pendingValues.push(value);
      this.pendingDocs.push(doc);
    }
    if (values.length > 1) this.singleValued = false;
    this.first[doc] = values.length > 0 ? values[0] : NaN;
    if (this.pendingDocs.length > Math.max(this.options.maxPending, this.values.length >>> 8)) this.mergePending(this.first.length);
    return this;
  }

  /**
   * Takes pairs of documents all above the ones already held (collected document by document): into the
   * pending list, merged into the sorted arrays once it is long enough.
   */
  private append(pairs: { values: number[]; docs: number[] }, documents: number): void {
    const { values: pairValues, docs: pairDocs } = pairs;
    const held = this.first.length;
    const first = roomyFloat64(this.firstBuffer, documents, held);
    first.fill(NaN, held, documents);
    for (let i = pairDocs.length - 1; i >= 0; i--) first[pairDocs[i]] = pairValues[i];
    this.firstBuffer = first;
    this.first = first.subarray(0, documents);
    // Pairs were collected document by document: a repeated document is always next to itself.
    for (let i = 1; i < pairDocs.length && this.singleValued; i++) if (pairDocs[i] === pairDocs[i - 1]) this.singleValued = false;
    for (let i = 0; i < pairDocs.length; i++) {
      this.pendingValues.push(pairValues[i]);
      this.pendingDocs.push(pairDocs[i]);
    }
    if (this.pendingDocs.length > Math.max(this.options.maxPending, this.values.length >>> 8)) this.mergePending(documents);
  }

  /** Merges the pending pairs into the sorted arrays (and the structures derived from them). */
  private mergePending(documents: number): void {
    if (this.replaced !== null) this.dropReplaced();
    const pairValues = this.pendingValues;
    const pairDocs = this.pendingDocs;
    this.pendingValues = [];
    this.pendingDocs = [];
    const order = new Uint32Array(pairValues.length);
    for (let i = 0; i < order.length; i++) order[i] = i;
    order.sort((a, b) => pairValues[a] - pairValues[b] || a - b);
    // Merge from the back: on equal values the held pairs stay first (their documents are lower), as a full
    // sort would place them.
    let i = this.values.length - 1;
    let j = order.length - 1;
    const total = this.values.length + order.length;
    const values = roomyFloat64(this.valueBuffer, total, this.values.length);
    const docs = roomyUint32(this.docBuffer, total, this.values.length);
    for (let k = total - 1; j >= 0; k--) {
      if (i >= 0 && values[i] > pairValues[order[j]]) {
        values[k] = values[i];
        docs[k] = docs[i--];
      } else {
        values[k] = pairValues[order[j]];
        docs[k] = pairDocs[order[j--]];
      }
    }
    this.valueBuffer = values;
    this.docBuffer = docs;
    this.values = values.subarray(0, total);
    this.docs = docs.subarray(0, total);
    if (this.thresholds !== null) {
      // A document with two values breaks "slice = difference of two prefixes": drop the sets for good.
      if (!this.singleValued) this.thresholds = null;
      else {
        this.thresholds.add(pairValues, pairDocs);
        this.thresholds.follow(this.values);
      }
    }
    if (this.withValueSet !== null) {
      // Grow the set of documents with a value by the new ones rather than rebuilding it from every pair.
      const set = new Bitset(Math.max(documents, this.withValueSet.capacity));
      set.words.set(this.withValueSet.words.subarray(0, set.words.length));
      for (let k = 0; k < pairDocs.length; k++) set.add(pairDocs[k]);
      this.withValueSet = set;
    }
  }

  /** Removes the stale pairs of documents changed in place from the sorted arrays (and what derives from them). */
  private dropReplaced(): void {
    const replaced = this.replaced!;
    this.replaced = null;
    let kept = 0;
    for (let i = 0; i < this.values.length; i++) {
      if (replaced.has(this.docs[i])) continue;
      this.values[kept] = this.values[i];
      this.docs[kept++] = this.docs[i];
    }
    this.values = this.values.subarray(0, kept);
    this.docs = this.docs.subarray(0, kept);
    // Built from the sorted arrays as they were: rebuilt when next needed.
    this.thresholds = null;
    this.withValueSet = null;
  }

  /** Clears the documents changed in place from a set computed from the sorted arrays (their pending pairs follow). */
  private maskReplaced(set: Bitset, capacity: number): Bitset {
    if (this.replaced === null) return set;
    const words = set.words;
    for (const doc of this.replaced) if (doc < capacity) words[doc >>> 5] &= ~(1 << (doc & 31));
    return set;
  }

  /** Documents with a value v such that `v op value`. */
  compare(operator: NumericOperator, value: number, capacity: number): Bitset {
    const set = this.maskReplaced(this.compareSorted(operator, value, capacity), capacity);
    if (this.pendingDocs.length === 0) return set;
    const x = asBound(value);
    const test = NUMERIC_TESTS[operator];
    return this.orPending(set, capacity, (v) => test(v, x));
  }

  range(lower: number, upper: number, capacity: number): Bitset {
    const low = asBound(lower);
    const high = asBound(upper);
    if (low > high) return new Bitset(capacity);
    const set = this.maskReplaced(this.slice(this.lowerBound(lower), this.upperBound(upper), capacity), capacity);
    if (this.pendingDocs.length === 0) return set;
    return this.orPending(set, capacity, (v) => v >= low && v <= high);
  }

  private orPending(set: Bitset, capacity: number, holds: (value: number) => boolean): Bitset {
    const values = this.pendingValues;
    const docs = this.pendingDocs;
    const words = set.words;
    for (let i = 0; i < docs.length; i++) {
      if (docs[i] < capacity && holds(values[i])) words[docs[i] >>> 5] |= 1 << (docs[i] & 31);
    }
    return set;
  }

  private compareSorted(operator: NumericOperator, value: number, capacity: number): Bitset {
    switch (operator) {
      case '<':
        return this.slice(0, this.lowerBound(value), capacity);
      case '<=':
        return this.slice(0, this.upperBound(value), capacity);
      case '>':
        return this.slice(this.upperBound(value), this.values.length, capacity);
      case '>=':
        return this.slice(this.lowerBound(value), this.values.length, capacity);
      case '=':
        return this.slice(this.lowerBound(value), this.upperBound(value), capacity);
      case '!=': {
        const from = this.lowerBound(value);
        const to = this.upperBound(value);
        if (this.singleValued && capacity >= this.first.length) {
          // One value per document: every document with a value except the equal ones — usually few, cleared
          // one by one; many come from slice() and cost a pass.
          const set = queryBitsets.copy(this.withValue(capacity));
          if (to - from > set.words.length) return set.andNot(this.slice(from, to, capacity));
          const docs = this.docs;
          for (let i = from; i < to; i++) set.words[docs[i] >>> 5] &= ~(1 << (docs[i] & 31));
          return set;
        }
        // Any element different from the value (Algolia's semantics for arrays).
        const set = this.slice(0, this.lowerBound(value), capacity);
        return set.or(this.slice(this.upperBound(value), this.values.length, capacity));
      }
    }
  }

  private slice(from: number, to: number, capacity: number): Bitset {
    const docs = this.docs;
    const fromThresholds = this.singleValued ? this.thresholdSlice(from, to, capacity) : null;
    if (fromThresholds !== null) return fromThresholds;
    if (this.singleValued && (to - from) * 2 > docs.length) {
      // A wide range: start from every document with a value and clear the few outside it (exact only when
      // each document has at most one value).
      const set = queryBitsets.copy(this.withValue(capacity));
      const words = set.words;
      for (let i = 0; i < from; i++) words[docs[i] >>> 5] &= ~(1 << (docs[i] & 31));
      for (let i = to; i < docs.length; i++) words[docs[i] >>> 5] &= ~(1 << (docs[i] & 31));
      return set;
    }
    const set = queryBitsets.acquire(capacity);
    const words = set.words;
    for (let i = from; i < to; i++) words[docs[i] >>> 5] |= 1 << (docs[i] & 31);
    return set;
  }

  private thresholds: ThresholdSets | null = null;

  /**
   * The slice from the threshold sets when they beat the plain fill (whose cost is the smaller of the slice and
   * its complement, in bit writes), building them on the first slice where they would; else null. Only for
   * single-valued columns, whose slices are differences of prefixes.
   */
  private thresholdSlice(from: number, to: number, capacity: number): Bitset | null {
    const n = this.values.length;
    // Fewer bits than documents (never from the store) would drop documents the sets hold: the plain fill.
    if (n < this.options.minValues || capacity < this.first.length || to <= from) return null;
    const plain = Math.min(to - from, n - (to - from));
    const words = (capacity + 31) >>> 5;
    // Narrow slices (and ranges that exclude few documents) stay with the fill: the pass alone costs more.
    if (plain <= words * WORD_COST) return null;
    if (this.thresholds === null) {
      // Expected cost: one pass over the words plus two edges of a quarter gap each, on average.
      if (plain <= words + n / (2 * this.options.quantiles)) return null;
      this.thresholds = ThresholdSets.build(this.values, this.docs, this.first.length, this.options.quantiles);
    }
    return this.thresholds.select(from, to, this.docs, n, this.withValue(capacity), plain);
  }

  private withValueSet: Bitset | null = null;

  /** The documents with a value in the sorted arrays (not the pending ones), as a set of `capacity`. */
  private withValue(capacity: number): Bitset {
    const held = this.withValueSet;
    if (held !== null && held.capacity === capacity) return held;
    const set = new Bitset(capacity);
    // Capacity grows with every write, and the documents added since are pending, not in the sorted arrays:
    // the held set is still right, copied into the larger one (a pass over words, not over every value).
    if (held !== null && held.capacity < capacity) set.words.set(held.words);
    else for (let i = 0; i < this.docs.length; i++) set.add(this.docs[i]);
    this.withValueSet = set;
    return set;
  }

  /** First index with values[i] >= value. */
  private lowerBound(value: number): number {
    return lowerBound(this.values, value);
  }

  /** First index with values[i] > value. */
  private upperBound(value: number): number {
    return upperBound(this.values, value);
  }
}

/** A bound as the binary searches over the sorted values treat it: NaN sorts below every value. */
function asBound(value: number): number {
  return Number.isNaN(value) ? -Infinity : value;
}

function pairsFromRecords(records: RecordList, path: AttributePath, from: number, to: number): { values: number[]; docs: number[] } {
  const values: number[] = [];
  const docs: number[] = [];
  for (let d = from; d < to; d++) {
    const record = records.get(d);
    if (record === undefined) continue;
    for (const v of numericValues(record, path)) {
      values.push(v);
      docs.push(d);
    }
  }
  return { values, docs };
}

function pairsFromFacet(column: FacetColumn, from: number, to: number): { values: number[]; docs: number[] } {
  const values: number[] = [];
  const docs: number[] = [];
  const offsets = column.offsets.data;
  const ids = column.values.data;
  for (let d = from; d < to; d++) {
    for (let k = offsets[d]; k < offsets[d + 1]; k++) {
      const number = column.numbers[ids[k]];
      if (Number.isNaN(number)) continue;
      values.push(number);
      docs.push(d);
    }
  }
  return { values, docs };
}
