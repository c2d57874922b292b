/**
 * Properties tested:
 * - facetFilters: AND of entries, nested arrays as OR groups, first-colon split, `-` negation and `\-` escape,
 *   `_tags:` entries as tags, the JSON-string form v4 clients send in `params`, empty groups ignored;
 * - numericFilters: every operator with and without spaces, ranges, nested OR groups;
 * - tagFilters: plain, negated and escaped tags in OR groups;
 * - optionalFilters: one optional filter per entry or group, `<score=N>`, negative entries, mixed-score groups
 *   scored as their best element (or summed with sumOrFiltersScores);
 * - malformed lists and entries throw the matching typed error; the term limit holds.
 */
import { describe, expect, it } from 'vitest';
import { EngineError } from '../errors.ts';
import { bruteForceIds } from './array-source.ts';
import { facetFiltersToNode, numericFiltersToNode, optionalFiltersToNodes, tagFiltersToNode } from './index.ts';
import type { FilterNode } from './types.ts';

const facet = (attribute: string, value: string): FilterNode => ({ kind: 'facet', attribute, value });
const not = (child: FilterNode): FilterNode => ({ kind: 'not', child });

function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof EngineError) return `${error.code}: ${error.message}`;
    throw error;
  }
  return 'no error';
}

describe('facetFiltersToNode', () => {
  it('ANDs entries and ORs nested arrays', () => {
    expect(facetFiltersToNode([['category:Book', 'category:Movie'], 'author:John Doe'])).toEqual({
      kind: 'and',
      children: [{ kind: 'or', children: [facet('category', 'Book'), facet('category', 'Movie')] }, facet('author', 'John Doe')],
    });
    expect(facetFiltersToNode('brand:Apple')).toEqual(facet('brand', 'Apple'));
    expect(facetFiltersToNode([])).toBeNull();
    expect(facetFiltersToNode([[], 'a:b'])).toEqual(facet('a', 'b'));
  });

  it('splits on the first unescaped colon: values keep theirs, attributes may escape one', () => {
    expect(facetFiltersToNode('time:12:30')).toEqual(facet('time', '12:30'));
    expect(facetFiltersToNode('ns\\:key:v')).toEqual(facet('ns:key', 'v'));
  });

  it('negates `attr:-value` and keeps an escaped leading dash', () => {
    expect(facetFiltersToNode(['genre:-comedy', 'category:\\-Movie', 'count:\\-12'])).toEqual({
      kind: 'and',
      children: [not(facet('genre', 'comedy')), facet('category', '-Movie'), facet('count', '-12')],
    });
  });

  it('reads `_tags:` entries as tags', () => {
    expect(facetFiltersToNode(['_tags:new'])).toEqual({ kind: 'tag', value: 'new' });
  });

  it('accepts the JSON-string form', () => {
    expect(facetFiltersToNode('["a:b",["c:d","c:e"]]')).toEqual(facetFiltersToNode(['a:b', ['c:d', 'c:e']]));
  });

  it('matches values case-insensitively through the source', () => {
    const records = [{ brand: 'Apple' }, { brand: 'SAMSUNG' }, { brand: 'Sony' }];
    expect(bruteForceIds(records, facetFiltersToNode([['brand:apple', 'brand:samsung']])!)).toEqual([0, 1]);
  });

  it.each<[unknown, string]>([
    ['brand', 'INVALID_FACET_FILTER: Invalid facetFilters: "brand" is not of the form attribute:value'],
    [[':x'], 'INVALID_FACET_FILTER: Invalid facetFilters: ":x" has no attribute name'],
    [[42], 'INVALID_FACET_FILTER: Invalid facetFilters: expected a string or an array of strings and arrays'],
    [[['a:b', [7]]], 'INVALID_FACET_FILTER: Invalid facetFilters: OR groups may only contain strings and arrays of strings'],
    [['a:b<score=high>'], 'INVALID_FACET_FILTER: Invalid facetFilters: "a:b<score=high>" has an invalid score (expected <score=N>, N an integer from 0 to 65535)'],
    [['a:b<score=70000>'], 'INVALID_FACET_FILTER: Invalid facetFilters: "a:b<score=70000>" has an invalid score (expected <score=N>, N an integer from 0 to 65535)'],
    ['[not json', 'INVALID_FACET_FILTER: Invalid facetFilters: a string starting with "[" must be a JSON array'],
    [{ a: 1 }, 'INVALID_FACET_FILTER: Invalid facetFilters: expected a string or an array of strings and arrays'],
  ])('rejects %j', (list, expected) => {
    expect(codeOf(() => facetFiltersToNode(list as string))).toBe(expected);
  });

  it('adds the strings of arrays nested in an OR group to that group, as Algolia accepts them', () => {
    expect(facetFiltersToNode(['a:1', ['b:2', ['c:3', ['d:4']]]])).toEqual({
      kind: 'and',
      children: [facet('a', '1'), { kind: 'or', children: [facet('b', '2'), facet('c', '3'), facet('d', '4')] }],
    });
    const deep: unknown[] = ['x:0'];
    let inner = deep;
    for (let level = 0; level < 100; level++) inner.push((inner = [`x:${level + 1}`]));
    expect(codeOf(() => facetFiltersToNode([deep] as unknown as string[]))).toBe('INVALID_FACET_FILTER: Invalid facetFilters: nested deeper than 64 levels');
  });

  it('reads a filter score, which ranks and never filters', () => {
    expect(facetFiltersToNode([['brand:Apple<score=3>', 'brand:Sony']])).toEqual({
      kind: 'or',
      children: [{ ...facet('brand', 'Apple'), score: 3 }, facet('brand', 'Sony')],
    });
    const records = [{ brand: 'Apple' }, { brand: 'Sony' }, { brand: 'LG' }];
    expect(bruteForceIds(records, facetFiltersToNode([['brand:Apple<score=3>', 'brand:Sony']])!)).toEqual([0, 1]);
  });

  it('enforces the term limit, OR groups included', () => {
    const many = Array.from({ length: 1001 }, (_, i) => `a:${i}`);
    expect(codeOf(() => facetFiltersToNode([many]))).toBe('INVALID_FACET_FILTER: Invalid facetFilters: too many filters (the limit is 1000)');
    expect(facetFiltersToNode([many.slice(0, 1000)])).not.toBeNull();
  });
});

describe('numericFiltersToNode', () => {
  it('reads comparisons and ranges, spaced or not', () => {
    expect(numericFiltersToNode(['price>=10', 'price != 3', 'rating:1 TO 5', 'x<-0.5'])).toEqual({
      kind: 'and',
      children: [
        { kind: 'numeric', attribute: 'price', operator: '>=', value: 10 },
        { kind: 'numeric', attribute: 'price', operator: '!=', value: 3 },
        { kind: 'range', attribute: 'rating', lower: 1, upper: 5 },
        { kind: 'numeric', attribute: 'x', operator: '<', value: -0.5 },
      ],
    });
    expect(numericFiltersToNode([['a=1', 'b>2']])).toEqual({
      kind: 'or',
      children: [
        { kind: 'numeric', attribute: 'a', operator: '=', value: 1 },
        { kind: 'numeric', attribute: 'b', operator: '>', value: 2 },
      ],
    });
  });

  it.each<[string, string]>([
    ['price', '"price" has no operator (expected <, <=, =, !=, >=, > or attr:lower TO upper)'],
    ['>3', '">3" has no attribute name'],
    ['price>cheap', '"price>cheap" needs a number, got "cheap"'],
    ['price!3', '"price!3" has "!" without "="'],
    ['price==3', '"price==3" has "==" (use "=")'],
    ['price:1-5', '"price:1-5" is not of the form attr:lower TO upper'],
    ['price:a TO 5', '"price:a TO 5" needs a number, got "a"'],
  ])('rejects %j', (entry, why) => {
    expect(codeOf(() => numericFiltersToNode([entry]))).toBe(`INVALID_NUMERIC_FILTER: Invalid numericFilters: ${why}`);
  });
});

describe('tagFiltersToNode', () => {
  it('reads plain, negated and escaped tags', () => {
    expect(tagFiltersToNode(['a', ['b', '-c'], '\\-d'])).toEqual({
      kind: 'and',
      children: [
        { kind: 'tag', value: 'a' },
        { kind: 'or', children: [{ kind: 'tag', value: 'b' }, not({ kind: 'tag', value: 'c' })] },
        { kind: 'tag', value: '-d' },
      ],
    });
    expect(tagFiltersToNode('["x"]')).toEqual({ kind: 'tag', value: 'x' });
  });

  it('rejects non-string entries', () => {
    expect(codeOf(() => tagFiltersToNode([true] as unknown as string[]))).toBe(
      'INVALID_TAG_FILTER: Invalid tagFilters: expected a string or an array of strings and arrays',
    );
  });
});

describe('optionalFiltersToNodes', () => {
  it('makes one optional filter per entry or equal-score group, default score 1', () => {
    expect(optionalFiltersToNodes(['brand:Apple<score=3>', ['color:red', 'color:blue'], 'brand:-Sony'])).toEqual([
      { node: facet('brand', 'Apple'), score: 3 },
      { node: { kind: 'or', children: [facet('color', 'red'), facet('color', 'blue')] }, score: 1 },
      { node: not(facet('brand', 'Sony')), score: 1 },
    ]);
  });

  it('scores a mixed-score group as its best matching element, or the sum when asked', () => {
    const group = [['a:x<score=5>', 'a:y<score=2>', 'a:z']];
    const ladder = optionalFiltersToNodes(group);
    const records = [{ a: 'x' }, { a: 'y' }, { a: 'z' }, { a: ['y', 'z'] }, { a: 'w' }];
    const scoreOf = (filters: typeof ladder, id: number) =>
      filters.reduce((sum, f) => sum + (bruteForceIds(records, f.node).includes(id) ? f.score : 0), 0);
    expect(records.map((_, id) => scoreOf(ladder, id))).toEqual([5, 2, 1, 2, 0]);
    const summed = optionalFiltersToNodes(group, { sumOrFiltersScores: true });
    expect(records.map((_, id) => scoreOf(summed, id))).toEqual([5, 2, 1, 3, 0]);
  });

  it('rejects a malformed score', () => {
    expect(codeOf(() => optionalFiltersToNodes(['a:b<score=high>']))).toBe(
      'INVALID_OPTIONAL_FILTER: Invalid optionalFilters: "a:b<score=high>" has an invalid score (expected <score=N>, N ≥ 0)',
    );
  });
});
