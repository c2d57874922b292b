/**
 * Properties checked, against a full sort: however documents are appended (batches of any size, merged into the
 * order or left pending), walking the order visits every document once, sorted by (key, id), and ranks rise
 * strictly along the walk (so rank comparisons agree with the order); merging the pending documents keeps the
 * walk and makes every rank its position.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { appendToOrder, mergePending, walkOrder, type CustomOrder } from './custom-rank.ts';

function walked(order: CustomOrder): number[] {
  const docs: number[] = [];
  walkOrder(order, (doc) => {
    docs.push(doc);
    return true;
  });
  return docs;
}

describe('custom order with pending documents', () => {
  it('walks in sorted order with rising ranks, whatever the batches and merges', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.integer({ min: 0, max: 12 }), { maxLength: 25 }), { minLength: 1, maxLength: 12 }),
        fc.constantFrom(0, 3, 1000),
        (batches, maxPending) => {
          const keys: number[] = [];
          const compare = (a: number, b: number): number => keys[a] - keys[b] || a - b;
          let order: CustomOrder = { rank: new Float64Array(0), order: new Uint32Array(0), pending: [] };
          for (const batch of batches) {
            const from = keys.length;
            keys.push(...batch);
            order = appendToOrder(order, from, keys.length, compare, maxPending);
            const expected = keys.map((_, doc) => doc).sort(compare);
            const docs = walked(order);
            expect(docs).toEqual(expected);
            for (let i = 1; i < docs.length; i++) expect(order.rank[docs[i]]).toBeGreaterThan(order.rank[docs[i - 1]]);
            expect(order.order.length + order.pending.length).toBe(keys.length);
          }
          const merged = mergePending(order);
          const docs = walked(merged);
          expect(docs).toEqual(keys.map((_, doc) => doc).sort(compare));
          docs.forEach((doc, position) => expect(merged.rank[doc]).toBe(position));
          expect(merged.pending).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
  });
});
