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

export class NumericColumn {
  readonly values: Float64Array;
  readonly docs: Uint32Array;
  /** Per document: its first numeric value, NaN if it has none. */
  readonly first: Float64Array;
  /** No document has more than one value. */
  readonly singleValued: boolean;

  /** From the records themselves (any numeric attribute). */
  static fromRecords(records: RecordList, path: string[]): NumericColumn {
    const pairValues: number[] = [];
    const pairDocs: number[] = [];
    for (let d = 0; d < records.length; d++) {
      const record = records.get(d);
      if (record === undefined) continue;
      for (const v of numericValues(record, path)) {
        pairValues.push(v);
        pairDocs.push(d);
      }
    }
    return new NumericColumn(pairValues, pairDocs, records.length);
  }

  /**
   * From a facet column holding the same attribute, without reading records. Null when the facet has booleans
   * (numeric filters read those as 0/1, facets as "true"/"false").
   */
  static fromFacet(column: FacetColumn, documents: number): NumericColumn | null {
    if (column.labels.some((label, v) => Number.isNaN(column.numbers[v]) && (label === 'true' || label === 'false'))) return null;
    const pairValues: number[] = [];
    const pairDocs: number[] = [];
    const offsets = column.offsets.data;
    const values = column.values.data;
    for (let d = 0; d < documents; d++) {
      for (let k = offsets[d]; k < offsets[d + 1]; k++) {
        const number = column.numbers[values[k]];
        if (Number.isNaN(number)) continue;
        pairValues.push(number);
        pairDocs.push(d);
      }
    }
    return new NumericColumn(pairValues, pairDocs, documents);
  }

  private constructor(pairValues: number[], pairDocs: number[], documents: number) {
    this.first = new Float64Array(documents).fill(NaN);
    for (let i = pairDocs.length - 1; i >= 0; i--) this.first[pairDocs[i]] = pairValues[i];
    const order = new Uint32Array(pairValues.length);
    for (let i = 0; i < order.length; i++) order[i] = i;
    order.sort((a, b) => pairValues[a] - pairValues[b] || a - b);
    // Pairs were collected document by document: a repeated document is always next to itself.
    let single = true;
    for (let i = 1; i < pairDocs.length && single; i++) if (pairDocs[i] === pairDocs[i - 1]) single = false;
    this.singleValued = single;
    this.values = new Float64Array(order.length);
    this.docs = new Uint32Array(order.length);
    for (let i = 0; i < order.length; i++) {
      this.values[i] = pairValues[order[i]];
      this.docs[i] = pairDocs[order[i]];
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
