/**
 * Properties checked, against brute force:
 * - ThresholdSets.select (forced, whatever the cost) returns exactly the documents of any sorted slice, after
 *   any number of appends, at capacities above the documents held;
 * - NumericColumn.compare / range return exactly the documents with a satisfying value for every operator,
 *   for columns above and below the (injected) size threshold, single- and multi-valued, with missing values,
 *   duplicates and -0/0 (records may hold ±Infinity, which both readers drop), with appends between queries
 *   (values waiting in the pending list or merged) and documents changed in place (their old values masked,
 *   then dropped by a merge), whether a facet's column was built by appends or whole from a held facet (one
 *   counting pass); and the same sets as the plain fill (the
 *   column with threshold sets disabled) even for NaN bounds, which the parser never lets through.
 * Every returned set is then scribbled over and handed back to the pool, as a search would: a cached set handed
 * out mutable would corrupt the following answers.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { IndexRecord } from '@vitrine/protocol';
import { Bitset } from '../structures/bitset.ts';
import { queryBitsets } from '../structures/bitset-pool.ts';
import type { NumericOperator } from '../filter/types.ts';
import { asDocId } from '../structures/ids.ts';
import { FacetColumn } from './facet-column.ts';
import { numericValues, parsePath } from './attributes.ts';
import { NumericColumn } from './numeric-column.ts';
import { ThresholdSets, type ThresholdOptions } from './numeric-thresholds.ts';
import { RecordList } from './record-list.ts';

/** Few distinct values, so that duplicates and long runs of equal values are common. */
const value = fc.constantFrom(-Infinity, -3.5, -1, -0, 0, 0.5, 1, 1, 2, 2, 2, 7, 40, Infinity);
const finiteValue = fc.constantFrom(-3.5, -1, -0, 0, 0.5, 1, 2, 7, 40);
/** Many distinct values too: slice ends then fall between thresholds, so the edge repairs are exercised. */
const spread = fc.oneof(value, fc.integer({ min: -20, max: 180 }).map((x) => x / 4));
const probe = fc.oneof(fc.constantFrom(-Infinity, -0, Infinity), finiteValue, spread, fc.double({ min: -5, max: 50, noNaN: true }));
const operator = fc.constantFrom<NumericOperator>('<', '<=', '=', '!=', '>=', '>');

/** Scribbles over a returned set and hands every query set back, as the end of a search does. */
function consume(set: Bitset): number[] {
  const ids = set.toArray();
  set.words.fill(0xffffffff);
  queryBitsets.releaseAll();
  return ids;
}

describe('ThresholdSets', () => {
  // Single-valued pairs: one optional value per document.
  const docValues = fc.array(fc.option(value, { nil: undefined }), { maxLength: 120 });

  it('selects exactly the documents of any sorted slice, after appends', () => {
    fc.assert(
      fc.property(docValues, docValues, fc.integer({ min: 1, max: 9 }), fc.integer({ min: 0, max: 70 }), fc.array(fc.tuple(fc.nat(), fc.nat()), { minLength: 1, maxLength: 6 }), (initial, later, quantiles, spare, slices) => {
        const sorted = (values: Array<number | undefined>): { values: Float64Array; docs: Uint32Array } => {
          const pairs = values.flatMap((v, doc) => (v === undefined ? [] : [{ v, doc }])).sort((a, b) => a.v - b.v || a.doc - b.doc);
          return { values: Float64Array.from(pairs, (p) => p.v), docs: Uint32Array.from(pairs, (p) => p.doc) };
        };
        const first = sorted(initial);
        const sets = ThresholdSets.build(first.values, first.docs, initial.length, quantiles);
        const all = initial.concat(later);
        const pairs = later.flatMap((v, k) => (v === undefined ? [] : [{ v, doc: initial.length + k }]));
        sets.add(pairs.map((p) => p.v), pairs.map((p) => p.doc));
        const now = sorted(all);
        sets.follow(now.values);
        const capacity = all.length + spare;
        const withValue = Bitset.fromIds(capacity, now.docs);
        for (const [x, y] of slices) {
          const from = Math.min(x, y) % (now.values.length + 1);
          const to = Math.max(from, Math.max(x, y) % (now.values.length + 1));
          const set = sets.select(from, to, now.docs, now.values.length, withValue, Infinity);
          expect(set).not.toBeNull();
          expect(consume(set!)).toEqual([...now.docs.subarray(from, to)].sort((a, b) => a - b));
        }
      }),
      { numRuns: 300 },
    );
  });
});

type Doc = number | number[] | undefined;
type Step =
  | { kind: 'compare'; operator: NumericOperator; value: number }
  | { kind: 'range'; lower: number; upper: number }
  | { kind: 'append'; docs: Doc[] }
  | { kind: 'replace'; changes: Array<{ at: number; doc: Doc }> };
type Query = Extract<Step, { kind: 'compare' | 'range' }>;

const doc: fc.Arbitrary<Doc> = fc.oneof({ weight: 1, arbitrary: fc.constant(undefined) }, { weight: 5, arbitrary: spread }, { weight: 1, arbitrary: fc.array(spread, { maxLength: 3 }) });
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('compare' as const), operator, value: probe }),
  fc.record({ kind: fc.constant('range' as const), lower: probe, upper: probe }),
  fc.record({ kind: fc.constant('append' as const), docs: fc.array(doc, { maxLength: 40 }) }),
  fc.record({ kind: fc.constant('replace' as const), changes: fc.array(fc.record({ at: fc.nat(), doc }), { minLength: 1, maxLength: 30 }) }),
);

function record(d: Doc, i: number): IndexRecord {
  return d === undefined ? { objectID: String(i), other: 1 } : { objectID: String(i), price: d };
}

/** Both readers (records and facet column) drop non-finite numbers. */
function numbersOf(d: Doc): number[] {
  return (d === undefined ? [] : Array.isArray(d) ? d : [d]).filter(Number.isFinite);
}

function holds(values: number[], step: Query): boolean {
  if (step.kind === 'range') return values.some((v) => v >= step.lower && v <= step.upper);
  const x = step.value;
  const test = { '<': (v: number) => v < x, '<=': (v: number) => v <= x, '=': (v: number) => v === x, '!=': (v: number) => v !== x, '>=': (v: number) => v >= x, '>': (v: number) => v > x }[step.operator];
  return values.some(test);
}

/**
 * The column under test and the plain-fill column over the same documents, kept in step. `existing` documents
 * are held before the columns are built (a facet column's then built whole, in one counting pass), the others
 * appended.
 */
function columns(fromFacet: boolean, minValues: number, quantiles: number, maxPending = 0, existing: Doc[] = []) {
  const records = new RecordList();
  const facet = new FacetColumn('price', parsePath('price'));
  for (const d of existing) {
    const r = record(d, records.length);
    facet.add(asDocId(records.length), r);
    records.push(r);
  }
  const make = (options: ThresholdOptions): NumericColumn =>
    fromFacet ? NumericColumn.fromFacet(facet, records.length, options)! : NumericColumn.fromRecords(records, parsePath('price'), options);
  let fast = make({ minValues, quantiles, maxPending });
  let plain = make({ minValues: Infinity, quantiles, maxPending: 0 });
  return {
    append(docs: Doc[]): void {
      const from = records.length;
      for (const d of docs) {
        const r = record(d, records.length);
        facet.add(asDocId(records.length), r);
        records.push(r);
      }
      fast = fast.extended(fromFacet ? facet : null, records, parsePath('price'), from, records.length);
      plain = plain.extended(fromFacet ? facet : null, records, parsePath('price'), from, records.length);
    },
    /** Document `at` changed in place (a non-facet attribute: a facet's column never is). */
    replace(at: number, d: Doc): void {
      const r = record(d, at);
      records.replace(at, r);
      fast = fast.replaceValues(at, numericValues(r, parsePath('price')));
      plain = plain.replaceValues(at, numericValues(r, parsePath('price')));
    },
    first(): number[] {
      return [...fast.first];
    },
    run(step: Query, capacity: number): [number[], number[]] {
      const query = (c: NumericColumn): number[] => consume(step.kind === 'range' ? c.range(step.lower, step.upper, capacity) : c.compare(step.operator, step.value, capacity));
      return [query(fast), query(plain)];
    },
  };
}

describe('NumericColumn with threshold sets', () => {
  it('answers every operator and range like brute force, with appends and changes in place between queries', () => {
    let replaced = 0;
    fc.assert(
      fc.property(fc.array(doc, { maxLength: 400, size: 'large' }), fc.array(step, { minLength: 1, maxLength: 12 }), fc.constantFrom(false, false, false, true), fc.boolean(), fc.constantFrom(1, 16, 100_000), fc.integer({ min: 1, max: 8 }), fc.constantFrom(0, 5, 1024), fc.boolean(), (initial, steps, arrays, fromFacet, minValues, quantiles, maxPending, whole) => {
        // Most cases single-valued: one document with two values turns the threshold sets off for good.
        const shape = (d: Doc): Doc => (arrays || !Array.isArray(d) ? d : d[0]);
        const docs = initial.map(shape);
        // Built whole over the documents held (a facet's column in one counting pass), or empty then appended to.
        const pair = columns(fromFacet, minValues, quantiles, maxPending, whole ? docs : []);
        if (!whole) pair.append(docs);
        // -0 and 0 alike (records read back from JSON, and facet values, keep one spelling).
        expect(pair.first().map((v) => v + 0)).toEqual(docs.map((d) => (numbersOf(d)[0] ?? NaN) + 0));
        for (const s of steps) {
          if (s.kind === 'append') {
            const more = s.docs.map(shape);
            pair.append(more);
            docs.push(...more);
            continue;
          }
          if (s.kind === 'replace') {
            if (fromFacet || docs.length === 0) continue;
            for (const { at, doc: d } of s.changes) {
              docs[at % docs.length] = shape(d);
              pair.replace(at % docs.length, docs[at % docs.length]);
              replaced++;
            }
            // -0 and 0 alike (records read back from JSON have lost the sign).
            expect(pair.first().map((v) => v + 0)).toEqual(docs.map((d) => (numbersOf(d)[0] ?? NaN) + 0));
            continue;
          }
          const [got, plain] = pair.run(s, docs.length);
          const expected = docs.flatMap((d, i) => (holds(numbersOf(d), s) ? [i] : []));
          expect(got).toEqual(expected);
          expect(plain).toEqual(expected);
        }
      }),
      { numRuns: 300 },
    );
    expect(replaced).toBeGreaterThan(1000);
  });

  it('matches the plain fill for NaN bounds', () => {
    fc.assert(
      fc.property(fc.array(fc.option(finiteValue, { nil: undefined }), { minLength: 1, maxLength: 80 }), operator, finiteValue, (initial, op, other) => {
        const pair = columns(false, 1, 4, 1024);
        pair.append(initial);
        for (const s of [{ kind: 'compare' as const, operator: op, value: NaN }, { kind: 'range' as const, lower: NaN, upper: other }, { kind: 'range' as const, lower: other, upper: NaN }]) {
          const [got, plain] = pair.run(s, initial.length);
          expect(got).toEqual(plain);
        }
      }),
      { numRuns: 200 },
    );
  });
});
