/**
 * Properties tested (fast-check):
 * 1. the exact search (8-bit codes scanned, candidates re-scored from float32) answers exactly what a naive
 *    cosine over every allowed float32 vector answers: the same documents in the same order with the same
 *    scores, for any k, filter and history of sets and deletions (slots freed and reused), small integer
 *    vectors making ties and duplicates common;
 * 2. the same after a snapshot round trip (a restored, never-written chunk) and writes after it;
 * 3. the quantisation bound holds: |cosine − estimate| ≤ bound for every vector and query.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Bitset } from '../structures/bitset.ts';
import { SnapshotReader, SnapshotWriter } from '../snapshot/format.ts';
import { ExactVectorIndex } from './exact-index.ts';
import { quantise, VectorColumn } from './vector-column.ts';

/** The oracle: every allowed vector's cosine, float64 sums over float32 values, best first, ties by id. */
function naive(vectors: Map<number, number[]>, query: number[], k: number, allowed: Set<number> | null): Array<{ doc: number; score: number }> {
  const q = query.map(Math.fround);
  const all: Array<{ doc: number; score: number }> = [];
  for (const [doc, raw] of vectors) {
    if (allowed !== null && !allowed.has(doc)) continue;
    const x = raw.map(Math.fround);
    let dot = 0;
    let qq = 0;
    let xx = 0;
    for (let i = 0; i < q.length; i++) {
      dot += q[i] * x[i];
      qq += q[i] * q[i];
      xx += x[i] * x[i];
    }
    all.push({ doc, score: dot / (Math.sqrt(qq) * Math.sqrt(xx)) });
  }
  all.sort((a, b) => b.score - a.score || a.doc - b.doc);
  return all.slice(0, Math.max(0, k));
}

const DOCS = 40;
const nonZero = (v: number[]) => v.some((x) => Math.fround(x) !== 0);
const fraction = fc.integer({ min: -20_000, max: 20_000 }).map((n) => n / 10_000);
/**
 * Small integers (ties and duplicates), or one large component beside fractions: the codes then round the
 * fractions away, and vectors close to each other swap places in the estimates (what the bounds must catch).
 */
const vectorOf = (dims: number, small: boolean) =>
  (small
    ? fc.array(fc.integer({ min: -3, max: 3 }), { minLength: dims, maxLength: dims })
    : fc.tuple(fc.integer({ min: 20, max: 200 }), fc.array(fraction, { minLength: dims - 1, maxLength: dims - 1 })).map(([big, rest]) => [big, ...rest])
  ).filter(nonZero);
const op = (dims: number, small: boolean) =>
  fc.oneof(
    fc.record({ kind: fc.constant('set' as const), doc: fc.nat(DOCS - 1), vector: vectorOf(dims, small) }),
    fc.record({ kind: fc.constant('delete' as const), doc: fc.nat(DOCS - 1) }),
  );
const scenario = fc
  .record({ dims: fc.integer({ min: 1, max: 12 }), small: fc.boolean() })
  .chain(({ dims, small }) =>
    fc.record({
      dims: fc.constant(dims),
      before: fc.array(op(dims, small), { maxLength: 80 }),
      after: fc.array(op(dims, small), { maxLength: 30 }),
      queries: fc.array(fc.record({ vector: vectorOf(dims, small), k: fc.oneof(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 0, max: 45 })), allowed: fc.option(fc.uniqueArray(fc.nat(DOCS - 1))) }), { minLength: 1, maxLength: 4 }),
    }),
  );

function apply(column: VectorColumn, truth: Map<number, number[]>, ops: ReadonlyArray<{ kind: 'set' | 'delete'; doc: number; vector?: number[] }>): void {
  for (const o of ops) {
    if (o.kind === 'set') {
      column.set(o.doc, Float32Array.from(o.vector!));
      truth.set(o.doc, o.vector!);
    } else {
      column.delete(o.doc);
      truth.delete(o.doc);
    }
  }
}

function check(column: VectorColumn, truth: Map<number, number[]>, queries: ReadonlyArray<{ vector: number[]; k: number; allowed: number[] | null }>): void {
  expect(column.count).toBe(truth.size);
  const index = new ExactVectorIndex(column);
  for (const { vector, k, allowed } of queries) {
    const set = allowed === null ? null : Bitset.fromIds(DOCS, allowed);
    expect(index.nearest(Float32Array.from(vector), k, set)).toEqual(naive(truth, vector, k, allowed === null ? null : new Set(allowed)));
  }
}

describe('exact vector search', () => {
  it('answers as a naive cosine over the float32 vectors', () => {
    fc.assert(
      fc.property(scenario, ({ dims, before, after, queries }) => {
        const column = new VectorColumn(dims);
        const truth = new Map<number, number[]>();
        apply(column, truth, [...before, ...after]);
        check(column, truth, queries);
      }),
      { numRuns: 400 },
    );
  });

  it('answers the same from a restored column, and after writes to it', () => {
    fc.assert(
      fc.property(scenario, ({ dims, before, after, queries }) => {
        const column = new VectorColumn(dims);
        const truth = new Map<number, number[]>();
        apply(column, truth, before);
        const w = new SnapshotWriter();
        column.save(w, 'v');
        const restored = VectorColumn.load(new SnapshotReader(w.finish()), 'v', dims, DOCS);
        check(restored, truth, queries);
        apply(restored, truth, after);
        check(restored, truth, queries);
      }),
      { numRuns: 300 },
    );
  });

  it('finds the nearest of thousands of 384-dimension vectors, filtered or not', () => {
    const dims = 384;
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
    const column = new VectorColumn(dims);
    const truth = new Map<number, number[]>();
    for (let doc = 0; doc < 3000; doc++) {
      const v = Array.from({ length: dims }, random);
      column.set(doc, Float32Array.from(v));
      truth.set(doc, v);
    }
    const query = Array.from({ length: dims }, random);
    const index = new ExactVectorIndex(column);
    expect(index.nearest(Float32Array.from(query), 10, null)).toEqual(naive(truth, query, 10, null));
    const brand = Array.from({ length: 300 }, (_, i) => i * 10);
    expect(index.nearest(Float32Array.from(query), 10, Bitset.fromIds(3000, brand))).toEqual(naive(truth, query, 10, new Set(brand)));
  });
});

describe('8-bit codes', () => {
  it('estimate the cosine within their bound', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 64 }).chain((dims) => fc.tuple(vectorOf(dims, false), vectorOf(dims, false))),
        ([x, q]) => {
          const vector = Float32Array.from(x);
          const codes = new Int8Array(vector.length);
          const { factor, bound } = quantise(vector, codes, 0);
          const query = Float32Array.from(q);
          let dot = 0;
          let qq = 0;
          for (let i = 0; i < query.length; i++) {
            dot += query[i] * codes[i];
            qq += query[i] * query[i];
          }
          const estimate = (dot * Math.fround(factor)) / Math.sqrt(qq);
          const exact = naive(new Map([[0, Array.from(vector)]]), Array.from(query), 1, null)[0].score;
          expect(Math.abs(exact - estimate)).toBeLessThanOrEqual(Math.fround(bound));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
