/**
 * Facet rows (the interleaved value ids walked by `countFacets`) are stored in the narrowest element that holds
 * the ids, and extended in place after writes: extending must give the rows a fresh build would, including
 * when new values outgrow the element (one byte → two bytes) and when "no value" moves to a new id.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Bitset } from '../structures/bitset.ts';
import { parsePath } from '../index/attributes.ts';
import { FacetColumn } from '../index/facet-column.ts';
import type { DocId } from '../structures/ids.ts';
import { buildFacetRows, countFacets, extendFacetRows } from './count.ts';

function columnWith(values: Array<string | undefined>): FacetColumn {
  const column = new FacetColumn('v', parsePath('v'));
  values.forEach((value, doc) => column.add(doc as DocId, value === undefined ? {} : { v: value }));
  return column;
}

function addAll(column: FacetColumn, from: number, values: Array<string | undefined>): void {
  values.forEach((value, i) => column.add((from + i) as DocId, value === undefined ? {} : { v: value }));
}

describe('facet rows', () => {
  it('uses one byte per value while the ids fit, two bytes past 255 values', () => {
    const small = columnWith(['a', 'b', undefined]);
    expect(buildFacetRows([small], 3).rows).toBeInstanceOf(Uint8Array);
    const large = columnWith(Array.from({ length: 300 }, (_, i) => `v${i}`));
    const rows = buildFacetRows([large], 300).rows;
    expect(rows).toBeInstanceOf(Uint16Array);
    expect(rows[299]).toBe(299);
  });

  it('extends like a fresh build, across the one-byte limit and with "no value" moving', () => {
    const initial = [...Array.from({ length: 200 }, (_, i) => `v${i}`), undefined, 'v3'];
    const other = columnWith(initial.map((v, i) => (i % 3 === 0 ? undefined : 'x')));
    const column = columnWith(initial);
    const before = buildFacetRows([column, other], initial.length);
    expect(before.rows).toBeInstanceOf(Uint8Array);
    // 100 new values: 300 in all, past what one byte holds; the old "no value" id (200) becomes a real value.
    const added = [...Array.from({ length: 100 }, (_, i) => `w${i}`), undefined];
    addAll(column, initial.length, added);
    addAll(other, initial.length, added.map(() => 'x'));
    const total = initial.length + added.length;
    const extended = extendFacetRows(before, [column, other], initial.length, total);
    const fresh = buildFacetRows([column, other], total);
    expect(extended.rows).toBeInstanceOf(Uint16Array);
    expect(Array.from(extended.rows)).toEqual(Array.from(fresh.rows));
    expect(extended.none).toEqual([300, 1]);
  });

  it('extends in place while the ids still fit', () => {
    const column = columnWith(['a', 'b']);
    const before = buildFacetRows([column], 2);
    addAll(column, 2, ['c', undefined, 'a']);
    const extended = extendFacetRows(before, [column], 2, 5);
    expect(extended.rows).toBeInstanceOf(Uint8Array);
    expect(Array.from(extended.rows)).toEqual([0, 1, 2, 3, 0]);
    expect(Array.from(extended.rows)).toEqual(Array.from(buildFacetRows([column], 5).rows));
  });
});

describe('countFacets over rows', () => {
  it('counts like a document-by-document tally, for 1 to 6 walked columns (wider rows take several passes), from rows of those columns or of more, in another order', () => {
    const documents = 3200;
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 1000 }),
        fc.uniqueArray(fc.integer({ min: 0, max: documents - 1 }), { minLength: 200, maxLength: 600 }),
        fc.boolean(),
        (width, seed, matched, shared) => {
          // 200 values per column (7 is prime to 200), some documents without one: for up to 600 matches,
          // walking beats popcounts (see the cost model in count.ts), so every column is walked.
          const columns = Array.from({ length: width }, (_, c) =>
            columnWith(Array.from({ length: documents }, (_, d) => ((d * (c + 7) + seed) % 53 < 50 ? `v${(d * 7 + c * 13 + seed) % 200}` : undefined))),
          );
          const matches = Bitset.fromIds(documents, matched);
          let walkedWidth = 0;
          // Shared rows: an unwalked column first, then the walked ones in reverse order.
          const other = columnWith(Array.from({ length: documents }, (_, d) => `o${d % 5}`));
          const counts = countFacets(columns, matches, matched.length, (walked) => {
            walkedWidth = walked.length;
            const inRows = shared ? [other, ...[...walked].reverse()] : walked;
            return { rows: buildFacetRows(inRows, documents), positions: walked.map((column) => inRows.indexOf(column)) };
          });
          expect(walkedWidth).toBe(width);
          columns.forEach((column, c) => {
            const expected = new Uint32Array(column.valueCount);
            for (const doc of matched) {
              const value = column.singleValued()![doc];
              if (value < column.valueCount) expected[value]++;
            }
            expect(Array.from(counts[c])).toEqual(Array.from(expected));
          });
        },
      ),
      { numRuns: 60, endOnFailure: true },
    );
  });
});
