/**
 * Numeric values of one attribute, sorted, for range filters and sort criteria: `values` ascending with the
 * owning document beside each (a document with an array contributes one entry per element). A comparison is
 * two binary searches and a bitset fill over the matching slice.
 *
 * Also keeps one value per document (`first`, NaN when absent) for sorting hits by an attribute.
 */
import { Bitset } from '../structures/bitset.ts';
import { queryBitsets } from '../structures/bitset-pool.ts';
import type { NumericOperator } from '../filter/types.ts';
import { numericValues } from './attributes.ts';
import type { RecordList } from './record-list.ts';
import type { FacetColumn } from './facet-column.ts';
import { roomyFloat64, roomyUint32 } from '../structures/growable.ts';

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
  static fromRecords(records: RecordList, path: string[]): NumericColumn {
    const column = new NumericColumn(false);
    column.append(pairsFromRecords(records, path, 0, records.length), records.length);
    return column;
  }

  /**
   * From a facet column holding the same attribute, without reading records. Null when the facet has booleans
   * (numeric filters read those as 0/1, facets as "true"/"false").
   */
  static fromFacet(column: FacetColumn, documents: number): NumericColumn | null {
    if (column.labels.some((label, v) => Number.isNaN(column.numbers[v]) && (label === 'true' || label === 'false'))) return null;
    const result = new NumericColumn(true);
    result.append(pairsFromFacet(column, 0, documents), documents);
    return result;
  }

  private constructor(fromFacet: boolean) {
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
  extended(facet: FacetColumn | null, records: RecordList, path: string[], from: number, documents: number): NumericColumn {
    this.append(facet !== null ? pairsFromFacet(facet, from, documents) : pairsFromRecords(records, path, from, documents), documents);
    return this;
  }

  private valueBuffer: Float64Array = new Float64Array(0);
  private docBuffer: Uint32Array = new Uint32Array(0);
  private firstBuffer: Float64Array = new Float64Array(0);

  /** Merges pairs of documents all above the ones already held (collected document by document). */
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
    if (this.withValueSet !== null) {
      // Grow the set of documents with a value by the new ones rather than rebuilding it from every pair.
      const set = new Bitset(documents);
      set.words.set(this.withValueSet.words.subarray(0, set.words.length));
      for (let k = 0; k < pairDocs.length; k++) set.add(pairDocs[k]);
      this.withValueSet = set;
    }
  }

  /** Documents with a value v such that `v op value`. */
  compare(operator: NumericOperator, value: number, capacity: number): Bitset {
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
        // Any element different from the value (Algolia's semantics for arrays).
        const set = this.slice(0, this.lowerBound(value), capacity);
        return set.or(this.slice(this.upperBound(value), this.values.length, capacity));
      }
    }
  }

  range(lower: number, upper: number, capacity: number): Bitset {
    if (lower > upper) return new Bitset(capacity);
    return this.slice(this.lowerBound(lower), this.upperBound(upper), capacity);
  }

  private slice(from: number, to: number, capacity: number): Bitset {
    const docs = this.docs;
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

  private withValueSet: Bitset | null = null;

  private withValue(capacity: number): Bitset {
    if (this.withValueSet === null || this.withValueSet.capacity !== capacity) {
      const set = new Bitset(capacity);
      for (let i = 0; i < this.docs.length; i++) set.add(this.docs[i]);
      this.withValueSet = set;
    }
    return this.withValueSet;
  }

  /** First index with values[i] >= value. */
  private lowerBound(value: number): number {
    let lo = 0;
    let hi = this.values.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.values[mid] < value) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** First index with values[i] > value. */
  private upperBound(value: number): number {
    let lo = 0;
    let hi = this.values.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.values[mid] <= value) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

function pairsFromRecords(records: RecordList, path: string[], from: number, to: number): { values: number[]; docs: number[] } {
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
