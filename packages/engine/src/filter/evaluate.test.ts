/**
 * Properties tested:
 * - evaluateFilter agrees with a brute-force per-record evaluator (`recordMatches`) on random trees over random
 *   small record sets with deleted slots — the oracle is plain boolean logic, the evaluator bitset algebra;
 * - the sets a source hands out are never mutated, and the returned set belongs to the caller;
 * - NOT never resurrects deleted documents; empty AND/OR groups and constants have their logical meaning;
 * - very wide and very deep trees evaluate without recursion limits;
 * - evaluateFilterConjuncts: the intersection of its sets minus its subtracted sets is the filter's documents;
 * - andFilterNodes / buildFilterNode combine forms with AND and cannot be widened by a request.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ArrayFilterSource, bruteForceIds } from './array-source.ts';
import { andFilterNodes, buildFilterNode, evaluateFilter, evaluateFilterConjuncts, parseFilterString } from './index.ts';
import { Bitset, intersectInto } from '../structures/bitset.ts';
import { recordsArbitrary, treeArbitrary } from './test-arbitraries.ts';
import type { FilterNode } from './types.ts';

const records = [
  { objectID: 'a', brand: 'Apple', price: 10, _tags: ['new'] },
  undefined, // deleted
  { objectID: 'c', brand: 'Sony', price: [5, 50], _tags: ['sale'] },
  { objectID: 'd', brand: 'apple', price: 3, free: true },
  { objectID: 'e', brand: 'Émile', price: 20 },
];

function ids(filter: string | FilterNode): number[] {
  const node = typeof filter === 'string' ? parseFilterString(filter) : filter;
  return evaluateFilter(node, new ArrayFilterSource(records)).toArray();
}

describe('evaluateFilter', () => {
  it('evaluates leaves through the source', () => {
    expect(ids('brand:APPLE')).toEqual([0, 3]);
    expect(ids('brand:emile')).toEqual([4]);
    expect(ids('price > 40')).toEqual([2]);
    expect(ids('price:3 TO 10')).toEqual([0, 2, 3]);
    expect(ids('free:true')).toEqual([3]);
    expect(ids('objectID:c')).toEqual([2]);
    expect(ids('sale')).toEqual([2]);
  });

  it('combines with AND, OR and NOT, never returning deleted documents', () => {
    expect(ids('brand:apple AND price < 5')).toEqual([3]);
    expect(ids('brand:sony OR free:true')).toEqual([2, 3]);
    expect(ids('NOT brand:apple')).toEqual([2, 4]);
    expect(ids('NOT NOT brand:apple')).toEqual([0, 3]);
    expect(ids('NOT brand:apple AND NOT brand:sony')).toEqual([4]);
    expect(ids('NOT (brand:apple OR price > 15)')).toEqual([]);
    expect(ids('brand:apple AND (NOT price:10 OR _tags:new)')).toEqual([0, 3]);
  });

  it('gives constants and empty groups their logical meaning', () => {
    expect(ids({ kind: 'boolean', value: true })).toEqual([0, 2, 3, 4]);
    expect(ids({ kind: 'boolean', value: false })).toEqual([]);
    expect(ids({ kind: 'and', children: [] })).toEqual([0, 2, 3, 4]);
    expect(ids({ kind: 'or', children: [] })).toEqual([]);
    expect(ids({ kind: 'not', child: { kind: 'or', children: [] } })).toEqual([0, 2, 3, 4]);
  });

  it('never mutates the sets of the source and returns a set of its own', () => {
    const source = new ArrayFilterSource(records);
    const before = (node: FilterNode) => {
      evaluateFilter(node, source);
      return source.handedOut().map(([key, set]) => [key, set.toArray()]);
    };
    const snapshot = before(parseFilterString('brand:apple OR price > 1 OR NOT sale'));
    const result = evaluateFilter(parseFilterString('brand:apple AND price > 1 AND NOT sale'), source);
    result.add(1);
    result.add(2);
    const single = evaluateFilter(parseFilterString('brand:apple'), source);
    single.add(4);
    expect(source.handedOut().filter(([key]) => snapshot.some(([k]) => k === key)).map(([key, set]) => [key, set.toArray()])).toEqual(snapshot);
    expect(source.all().toArray()).toEqual([0, 2, 3, 4]);
  });

  it('handles a 100,000-deep NOT chain and a 20,000-wide OR without recursion', () => {
    let deep: FilterNode = { kind: 'facet', attribute: 'brand', value: 'apple' };
    for (let i = 0; i < 100_000; i++) deep = { kind: 'not', child: deep };
    expect(ids(deep)).toEqual([0, 3]);
    const wide: FilterNode = {
      kind: 'or',
      children: Array.from({ length: 20_000 }, (_, i) => ({ kind: 'numeric', attribute: 'price', operator: '=', value: i }) as FilterNode),
    };
    expect(ids(wide)).toEqual([0, 2, 3, 4]);
  });

  it('agrees with a brute-force evaluator on random trees and records', () => {
    fc.assert(
      fc.property(recordsArbitrary, treeArbitrary, (recs, tree) => {
        const source = new ArrayFilterSource(recs);
        const shared = () => source.handedOut().map(([key, set]) => `${key}=${set.toArray().join(',')}`);
        const got = evaluateFilter(tree, source).toArray();
        const handed = shared();
        // A second evaluation on the same (now warm) cache must not see sets changed by the first.
        expect(evaluateFilter(tree, source).toArray()).toEqual(got);
        expect(shared()).toEqual(handed);
        expect(got).toEqual(bruteForceIds(recs, tree));
      }),
      { numRuns: 1500 },
    );
  });
});

describe('evaluateFilterConjuncts', () => {
  const fresh = { acquire: (capacity: number) => new Bitset(capacity), scratch: (capacity: number) => Bitset.full(capacity), copy: (set: Bitset) => set.clone() };

  /** What a search does with the conjuncts: intersect the included sets, subtract the excluded ones. */
  function combined(tree: FilterNode, source: ArrayFilterSource): number[] {
    const { include, exclude } = evaluateFilterConjuncts(tree, source, fresh);
    const result = Bitset.full(source.capacity);
    intersectInto(result, include);
    for (const set of exclude) result.andNotCount(set);
    return result.toArray();
  }

  it('splits a top-level AND into the sets to intersect and those to subtract', () => {
    const source = new ArrayFilterSource(records);
    const { include, exclude } = evaluateFilterConjuncts(parseFilterString('brand:apple AND (price > 40 OR sale) AND NOT new'), source, fresh);
    expect(include.map((set) => set.toArray())).toEqual([[0, 3], [2]]);
    expect(exclude.map((set) => set.toArray())).toEqual([[0]]);
    expect(combined(parseFilterString('NOT new AND NOT sale'), source)).toEqual([3, 4]);
    expect(combined(parseFilterString('brand:sony OR price = 3'), source)).toEqual([2, 3]);
  });

  it('agrees with a brute-force evaluator on random trees and records, and leaves the source sets as they were', () => {
    fc.assert(
      fc.property(recordsArbitrary, treeArbitrary, (recs, tree) => {
        const source = new ArrayFilterSource(recs);
        const before = evaluateFilter(tree, source).toArray();
        // By key, not as "key=ids" text: keys hold filter values, which may contain "=" themselves.
        const handed = new Map(source.handedOut().map(([key, set]) => [key, set.toArray()]));
        expect(combined(tree, source)).toEqual(bruteForceIds(recs, tree));
        expect(before).toEqual(bruteForceIds(recs, tree));
        const after = new Map(source.handedOut().filter(([key]) => handed.has(key)).map(([key, set]) => [key, set.toArray()]));
        expect(after).toEqual(handed);
      }),
      { numRuns: 1500 },
    );
  });
});

describe('andFilterNodes and buildFilterNode', () => {
  it('ANDs present nodes, flattening top-level ANDs without mutating them', () => {
    const a = parseFilterString('a:1 AND b:2');
    const frozen = JSON.stringify(a);
    const c = parseFilterString('c:3 OR d:4');
    expect(andFilterNodes(a, null, c, undefined)).toEqual({ kind: 'and', children: [...(a.kind === 'and' ? a.children : []), c] });
    expect(JSON.stringify(a)).toBe(frozen);
    expect(andFilterNodes(null, undefined)).toBeNull();
    expect(andFilterNodes(c)).toBe(c);
    expect(andFilterNodes(c, { kind: 'boolean', value: true })).toBe(c);
    expect(andFilterNodes(c, { kind: 'boolean', value: false })).toEqual({ kind: 'boolean', value: false });
  });

  it('keeps a forced filter in force whatever the request filter is', () => {
    const forced = parseFilterString('brand:sony');
    // Text concatenation would turn this into "brand:sony AND brand:x OR price > 0", matching everything.
    const request = parseFilterString('brand:x OR price > 0');
    expect(ids(andFilterNodes(forced, request)!)).toEqual([2]);
  });

  it('ANDs every present form and returns null when nothing filters', () => {
    const node = buildFilterNode({
      filters: 'price > 1',
      facetFilters: [['brand:apple', 'brand:sony']],
      numericFilters: ['price<=10'],
      tagFilters: ['-sale'],
    });
    expect(ids(node!)).toEqual([0, 3]);
    expect(buildFilterNode({})).toBeNull();
    expect(buildFilterNode({ filters: '  ', facetFilters: [], numericFilters: '[]' })).toBeNull();
    expect(() => buildFilterNode({ filters: 3 as unknown as string })).toThrow('Invalid value for "filters": expected a string');
  });
});
