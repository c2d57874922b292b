/**
 * Attribute paths against records whose keys may hold dots. Properties tested:
 * - a path names every value whose keys, joined with dots, spell it: nested objects, dotted keys, any mix;
 * - when a record spells a path both ways, both values count, the longest key's first;
 * - arrays are entered element by element at any depth, and an object at the path's end gives all its leaves;
 * - `leaves` equals a naive oracle that tries every cut of the path into keys (as multisets: the walk goes
 *   element by element through arrays, the oracle cut by cut), and `keyPathsIn` the cuts the record's objects
 *   hold, in the same order;
 * - compiled paths compare and print as their segments.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { facetValues, keyPathsIn, leaves, parsePath } from './attributes.ts';
import { pathCuts } from './path-cuts.ts';

/** A query-suggestions record as Algolia's and Vitrine's builds write it. */
const suggestion = {
  objectID: 'lamp',
  query: 'lamp',
  instant_search: {
    exact_nb_hits: 12,
    facets: {
      exact_matches: { 'hierarchicalCategories.lvl0': [{ value: 'Home', count: 9 }, { value: 'Garden', count: 3 }] },
      analytics: {},
    },
  },
};

describe('attribute paths', () => {
  it('read values under keys that hold dots', () => {
    const path = parsePath('instant_search.facets.exact_matches.hierarchicalCategories.lvl0.value');
    expect(facetValues(suggestion, path)).toEqual(['Home', 'Garden']);
    expect(leaves(suggestion, parsePath('instant_search.facets.exact_matches.hierarchicalCategories.lvl0.count'))).toEqual([9, 3]);
    expect(leaves(suggestion, parsePath('instant_search.facets.exact_matches.hierarchicalCategories'))).toEqual([]);
  });

  it('read nested objects, dotted keys and mixes of both alike', () => {
    const path = parsePath('a.b.c');
    expect(leaves({ a: { b: { c: 1 } } }, path)).toEqual([1]);
    expect(leaves({ 'a.b.c': 1 }, path)).toEqual([1]);
    expect(leaves({ 'a.b': { c: 1 } }, path)).toEqual([1]);
    expect(leaves({ a: { 'b.c': 1 } }, path)).toEqual([1]);
    expect(leaves({ a: [{ 'b.c': 1 }, { b: [{ c: 2 }, { c: [3, 4] }] }] }, path)).toEqual([1, 2, 3, 4]);
    expect(leaves({ 'a.b': 1 }, path)).toEqual([]);
  });

  it('count both values when a record spells the path both ways, the longest key first', () => {
    expect(leaves({ a: { b: 2 }, 'a.b': 1 }, parsePath('a.b'))).toEqual([1, 2]);
    expect(leaves({ a: { b: { c: 3 }, 'b.c': 2 }, 'a.b.c': 1 }, parsePath('a.b.c'))).toEqual([1, 2, 3]);
    expect(keyPathsIn({ a: { b: 2 }, 'a.b': 1 }, parsePath('a.b'))).toEqual([['a.b'], ['a', 'b']]);
  });

  it('give every leaf of an object at the end of the path', () => {
    expect(leaves(suggestion, parsePath('instant_search.facets.exact_matches'))).toEqual(['Home', 9, 'Garden', 3]);
  });

  it('find key paths through objects only', () => {
    const path = parsePath('a.b.c');
    expect(keyPathsIn({ a: { 'b.c': { d: 1 } } }, path)).toEqual([['a', 'b.c']]);
    expect(keyPathsIn({ a: [{ b: { c: 1 } }] }, path)).toEqual([]);
    expect(keyPathsIn({ a: { b: null } }, path)).toEqual([]);
    // Own keys only: nothing on Object.prototype is a record's attribute.
    expect(keyPathsIn({ a: {} }, parsePath('a.constructor'))).toEqual([]);
  });

  it('compile a path once and compare it as its segments', () => {
    const path = parsePath('a.b.c');
    expect(parsePath('a.b.c')).toBe(path);
    expect(path).toEqual(['a', 'b', 'c']);
    expect(JSON.stringify(path)).toBe('["a","b","c"]');
    expect(path.keys[0]).toEqual(['a.b.c', 'a.b', 'a']);
    expect(path.depths[1]).toEqual([3, 2]);
  });
});

// The oracle: every way of cutting the path into keys, each walked as a plain key sequence.

function plainWalk(value: unknown, keys: string[], out: unknown[]): void {
  if (value === undefined || value === null) return;
  if (Array.isArray(value)) return value.forEach((item) => plainWalk(item, keys, out));
  if (typeof value === 'object') {
    const object = value as Record<string, unknown>;
    if (keys.length > 0) plainWalk(Object.hasOwn(object, keys[0]) ? object[keys[0]] : undefined, keys.slice(1), out);
    else for (const key of Object.keys(object)) plainWalk(object[key], keys, out);
    return;
  }
  if (keys.length === 0) out.push(value);
}

function oracleLeaves(record: Record<string, unknown>, attribute: string): unknown[] {
  const out: unknown[] = [];
  for (const keys of pathCuts(attribute.split('.'))) plainWalk(record, keys, out);
  return out;
}

function oracleKeyPaths(record: Record<string, unknown>, attribute: string): string[][] {
  return pathCuts(attribute.split('.')).filter((keys) => {
    let node: unknown = record;
    for (const key of keys) {
      if (node === null || typeof node !== 'object' || Array.isArray(node) || !Object.hasOwn(node, key)) return false;
      node = (node as Record<string, unknown>)[key];
    }
    return true;
  });
}

const KEYS = ['a', 'b', 'c', 'a.b', 'b.c', 'a.b.c', 'c.a'];
const leaf = fc.oneof(fc.integer({ min: 0, max: 9 }), fc.constantFrom('x', 'y'), fc.boolean(), fc.constant(null));
const valueArbitrary = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom(...KEYS), tie('value'), { maxKeys: 4 }),
  ),
})).value;
const recordArbitrary = fc.dictionary(fc.constantFrom(...KEYS), valueArbitrary, { maxKeys: 5 });
const attributeArbitrary = fc.array(fc.constantFrom('a', 'b', 'c'), { minLength: 1, maxLength: 4 }).map((segments) => segments.join('.'));

const sorted = (values: unknown[]): string[] => values.map((v) => JSON.stringify(v)).sort();

describe('attribute paths against a naive oracle of every cut', () => {
  it('give the same leaves', () => {
    fc.assert(
      fc.property(recordArbitrary, attributeArbitrary, (record, attribute) => {
        expect(sorted(leaves(record, parsePath(attribute)))).toEqual(sorted(oracleLeaves(record, attribute)));
      }),
      { numRuns: 2000 },
    );
  });

  it('give the same key paths, in the same order', () => {
    fc.assert(
      fc.property(recordArbitrary, attributeArbitrary, (record, attribute) => {
        expect(keyPathsIn(record, parsePath(attribute))).toEqual(oracleKeyPaths(record, attribute));
      }),
      { numRuns: 2000 },
    );
  });
});
