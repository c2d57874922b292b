/**
 * Properties checked, against a full sort: however documents are appended (batches of any size, merged into the
 * order or left pending), walking the order visits every document once, sorted by (key, id), and ranks rise
 * strictly along the walk (so rank comparisons agree with the order); merging the pending documents keeps the
 * walk and makes every rank its position. The same once documents also move (a record changed in place: new
 * key, same id), leaving stale slots behind. Built in steps (as snapshots build orders no search built), the
 * orders are exactly the full sort's, keys included.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SearchIndex } from '../search-index.ts';
import { appendToOrder, computeCustomOrder, customOrdersInSteps, mergePending, moveInOrder, walkOrder, type CustomOrder } from './custom-rank.ts';
import { RecordList } from '../index/record-list.ts';
import { parseCustomRanking } from '../settings.ts';

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

  it('walks in sorted order after documents move to new keys, between appends and merges', () => {
    type Step = { kind: 'append'; keys: number[] } | { kind: 'move'; at: number; key: number } | { kind: 'merge' };
    const step: fc.Arbitrary<Step> = fc.oneof(
      fc.array(fc.integer({ min: 0, max: 12 }), { minLength: 1, maxLength: 8 }).map((keys): Step => ({ kind: 'append', keys })),
      { weight: 3, arbitrary: fc.record({ at: fc.nat(), key: fc.integer({ min: 0, max: 12 }) }).map(({ at, key }): Step => ({ kind: 'move', at, key })) },
      fc.constant<Step>({ kind: 'merge' }),
    );
    let moves = 0;
    let staleSeen = 0;
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 40 }), fc.constantFrom(2, 5, 1000), (steps, maxPending) => {
        const keys: number[] = [];
        const compare = (a: number, b: number): number => keys[a] - keys[b] || a - b;
        let order: CustomOrder = { rank: new Float64Array(0), order: new Uint32Array(0), pending: [] };
        for (const s of steps) {
          if (s.kind === 'append') {
            const from = keys.length;
            keys.push(...s.keys);
            order = appendToOrder(order, from, keys.length, compare, maxPending);
          } else if (s.kind === 'move' && keys.length > 0) {
            keys[s.at % keys.length] = s.key;
            order = moveInOrder(order, s.at % keys.length, compare, maxPending);
            moves++;
          } else if (s.kind === 'merge') order = mergePending(order);
          if ((order.stale ?? 0) > 0) staleSeen++;
          const docs = walked(order);
          expect(docs).toEqual(keys.map((_, doc) => doc).sort(compare));
          for (let i = 1; i < docs.length; i++) expect(order.rank[docs[i]]).toBeGreaterThan(order.rank[docs[i - 1]]);
          expect(order.order.length - (order.stale ?? 0) + order.pending.length).toBe(keys.length);
        }
        const merged = mergePending(order);
        const docs = walked(merged);
        expect(docs).toEqual(keys.map((_, doc) => doc).sort(compare));
        docs.forEach((doc, position) => expect(merged.rank[doc]).toBe(position));
        expect(merged.order.length).toBe(keys.length);
      }),
      { numRuns: 400 },
    );
    // The walk was checked with stale slots in the order, not only after merges.
    expect(moves).toBeGreaterThan(300);
    expect(staleSeen).toBeGreaterThan(100);
  });
});

describe('customRanking key columns', () => {
  // Numbers first (held as numbers only), then strings, booleans and missing keys, appended after searches and
  // changed in place: the order must stay the one an index built from the same records gives.
  it('keeps the order when a column of numbers meets strings, in both directions', () => {
    const value = fc.oneof(fc.integer({ min: -5, max: 5 }), fc.constantFrom('a', 'b', 'zz'), fc.boolean(), fc.constant(undefined));
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -5, max: 5 }), { minLength: 1, maxLength: 12 }), fc.array(fc.tuple(fc.nat(30), value), { maxLength: 20 }), fc.boolean(), (first, later, ascending) => {
        const settings = { searchableAttributes: ['name'], customRanking: [`${ascending ? 'asc' : 'desc'}(rank)`] };
        const index = new SearchIndex(settings);
        index.saveObjects(first.map((rank, i) => ({ objectID: String(i), name: 'lamp', rank })));
        const order = (target: SearchIndex): string[] => target.search({ query: 'lamp', hitsPerPage: 100 }).hits.map((hit) => hit.objectID);
        order(index);
        for (const [id, rank] of later) index.saveObjects([{ objectID: String(id), name: 'lamp', rank }]);
        const fresh = new SearchIndex(settings);
        fresh.saveObjects([...index.records()]);
        expect(order(index)).toEqual(order(fresh));
      }),
      { numRuns: 200 },
    );
  });
});

describe('customRanking orders built in steps', () => {
  // Values of every kind a key can come from: numbers, booleans, strings, lists (their first), nested, missing.
  const value = fc.oneof(
    fc.integer({ min: -4, max: 4 }),
    fc.double({ min: -10, max: 10, noNaN: true }),
    fc.boolean(),
    fc.constantFrom('a', 'b', 'B', 'zz', ''),
    fc.array(fc.oneof(fc.integer({ min: 0, max: 3 }), fc.constantFrom('a', 'c')), { maxLength: 2 }),
    fc.constant(null),
    fc.constant(undefined),
  );
  const record = fc.record({ price: value, brand: value, meta: fc.option(fc.record({ rank: value }), { nil: undefined }) });
  type Write = { kind: 'add'; fields: Record<string, unknown> } | { kind: 'delete'; at: number } | { kind: 'replace'; at: number; fields: Record<string, unknown> };
  const write: fc.Arbitrary<Write> = fc.oneof(
    { weight: 6, arbitrary: record.map((fields): Write => ({ kind: 'add', fields })) },
    fc.nat().map((at): Write => ({ kind: 'delete', at })),
    fc.tuple(fc.nat(), record).map(([at, fields]): Write => ({ kind: 'replace', at, fields })),
  );
  // The index's own list, one for a virtual replica, one of strings, one nested: built together (one parse each).
  const lists = [['desc(price)', 'asc(brand)'], ['asc(price)'], ['asc(brand)', 'desc(meta.rank)'], ['desc(meta.rank)']].map((list) => parseCustomRanking(list));

  it('gives exactly the full sort (order, ranks, keys) for every list, whatever the steps, with deletions', () => {
    fc.assert(
      fc.property(
        fc.array(write, { maxLength: 60 }),
        fc.record({ keysPerStep: fc.integer({ min: 1, max: 7 }), run: fc.integer({ min: 1, max: 9 }), mergePerStep: fc.integer({ min: 1, max: 13 }) }),
        (writes, steps) => {
          const records = new RecordList();
          for (const w of writes) {
            const live = (at: number): number | undefined => {
              for (let k = 0; k < records.length; k++) if (!records.isDeleted((at + k) % records.length)) return (at + k) % records.length;
              return undefined;
            };
            if (w.kind === 'add') records.push({ objectID: String(records.length), ...w.fields });
            else if (records.length > 0) {
              const doc = live(w.at);
              if (doc === undefined) continue;
              if (w.kind === 'delete') records.delete(doc);
              else records.replace(doc, { objectID: String(doc), ...w.fields });
            }
          }
          const building = customOrdersInSteps(records, lists, steps);
          let pauses = 0;
          let next = building.next();
          for (; !next.done; next = building.next()) pauses++;
          const built = next.value;
          expect(pauses).toBeGreaterThanOrEqual(Math.ceil(records.length / steps.keysPerStep));
          lists.forEach((specs, i) => {
            const expected = computeCustomOrder(records, specs);
            expect(Array.from(built[i].order)).toEqual(Array.from(expected.order));
            expect(Array.from(built[i].rank)).toEqual(Array.from(expected.rank));
            expect(built[i].columns).toEqual(expected.columns);
            expect(built[i].pending).toEqual([]);
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('sorts runs and merges them at the default step sizes', () => {
    // More documents than a run, so that several levels of merging are gone through; ties on purpose.
    const records = new RecordList();
    for (let doc = 0; doc < 70_000; doc++) records.push({ objectID: String(doc), price: (doc * 7919) % 1000, brand: doc % 3 === 0 ? undefined : `b${doc % 17}` });
    for (let doc = 0; doc < 70_000; doc += 5) records.delete(doc);
    const building = customOrdersInSteps(records, lists.slice(0, 2));
    let next = building.next();
    while (!next.done) next = building.next();
    lists.slice(0, 2).forEach((specs, i) => expect(Array.from(next.value![i].order)).toEqual(Array.from(computeCustomOrder(records, specs).order)));
  });
});
