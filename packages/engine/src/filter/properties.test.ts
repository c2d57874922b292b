/**
 * Properties tested (fast-check):
 * 1. printing is faithful: for random trees, parse(filterToString(tree)) selects the same documents as the
 *    tree, and printing is a fixed point after one round (canonical text);
 * 2. the same condition written as `filters`, as `facetFilters` / `tagFilters` and as `numericFilters` selects
 *    the same documents;
 * 3. (in evaluate.test.ts) the evaluator agrees with a brute-force evaluator;
 * 4. fuzzing: whatever the input — random text, token soup, random JSON for the list forms — the only error
 *    ever thrown is an `EngineError` (bench/fuzz-filters.ts runs the same checks a million times and more).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EngineError } from '../errors.ts';
import { ArrayFilterSource, bruteForceIds } from './array-source.ts';
import {
  buildFilterNode,
  type FilterParams,
  evaluateFilter,
  facetFiltersToNode,
  filterToString,
  numericFiltersToNode,
  optionalFiltersToNodes,
  parseFilterString,
  tagFiltersToNode,
} from './index.ts';
import { OPERATORS, recordsArbitrary, TRICKY_VALUES, treeArbitrary } from './test-arbitraries.ts';

const generous = { maxDepth: 10_000, maxTerms: 100_000, maxLength: 10_000_000 };

describe('filterToString', () => {
  it('prints text that parses back to an equivalent tree', () => {
    fc.assert(
      fc.property(recordsArbitrary, treeArbitrary, (records, tree) => {
        const text = filterToString(tree);
        const reparsed = parseFilterString(text, generous);
        const source = new ArrayFilterSource(records);
        expect(evaluateFilter(reparsed, source).toArray()).toEqual(bruteForceIds(records, tree));
        expect(filterToString(reparsed)).toBe(filterToString(parseFilterString(filterToString(reparsed), generous)));
      }),
      { numRuns: 1500 },
    );
  });

  it('prints readable canonical text', () => {
    expect(filterToString(parseFilterString('price<3 AND (brand:"Dr. Martens" OR NOT _tags:sale)'))).toBe(
      'price < 3 AND (brand:"Dr. Martens" OR NOT _tags:sale)',
    );
    expect(filterToString(parseFilterString('(a:1 AND b:2) OR c:TO_x OR d:"TO"'))).toBe('(a:1 AND b:2) OR c:TO_x OR d:"TO"');
    expect(filterToString(parseFilterString('x:1 TO 2.5'))).toBe('x:1 TO 2.5');
    expect(filterToString({ kind: 'facet', attribute: 'q', value: 'say "hi" \\o/' })).toBe('q:"say \\"hi\\" \\\\o/"');
  });
});

describe('the same condition in every syntax', () => {
  // Facet conditions: [attribute, value, negated]. Values never start with a backslash, the one character
  // facetFilters cannot express at the start of a value (`\-` is the dash escape).
  const attribute = fc.constantFrom('brand', 'color', 'two words', 'objectID');
  const value = fc.oneof(fc.constantFrom(...TRICKY_VALUES), fc.string({ maxLength: 5 })).filter((v) => !v.startsWith('\\'));
  const facetGroups = fc.array(fc.array(fc.tuple(attribute, value, fc.boolean()), { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 });
  const quote = (text: string) => `"${text.replace(/[\\"]/g, '\\$&')}"`;

  it('facetFilters ≡ filters', () => {
    fc.assert(
      fc.property(recordsArbitrary, facetGroups, (records, groups) => {
        const asList = groups.map((group) => group.map(([a, v, neg]) => `${a}:${neg ? '-' : v.startsWith('-') ? '\\' : ''}${v}`));
        const asText = groups
          .map((group) => `(${group.map(([a, v, neg]) => `${neg ? 'NOT ' : ''}${quote(a)}:${quote(v)}`).join(' OR ')})`)
          .join(' AND ');
        const source = new ArrayFilterSource(records);
        const fromList = evaluateFilter(facetFiltersToNode(asList)!, source).toArray();
        expect(fromList).toEqual(evaluateFilter(parseFilterString(asText), source).toArray());
        // The JSON-string form v4 clients send inside `params` says the same.
        expect(evaluateFilter(facetFiltersToNode(JSON.stringify(asList))!, source).toArray()).toEqual(fromList);
      }),
      { numRuns: 500 },
    );
  });

  it('tagFilters ≡ _tags: filters', () => {
    const tag = fc.constantFrom('new', 'New', 'sale', '-x', 'a:b', '');
    const tagGroups = fc.array(fc.array(fc.tuple(tag, fc.boolean()), { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 });
    fc.assert(
      fc.property(recordsArbitrary, tagGroups, (records, groups) => {
        const asList = groups.map((group) => group.map(([t, neg]) => `${neg ? '-' : t.startsWith('-') ? '\\' : ''}${t}`));
        const asText = groups.map((group) => `(${group.map(([t, neg]) => `${neg ? 'NOT ' : ''}_tags:${quote(t)}`).join(' OR ')})`).join(' AND ');
        const source = new ArrayFilterSource(records);
        expect(evaluateFilter(tagFiltersToNode(asList)!, source).toArray()).toEqual(evaluateFilter(parseFilterString(asText), source).toArray());
      }),
      { numRuns: 300 },
    );
  });

  it('numericFilters ≡ filters', () => {
    const bound = fc.oneof(fc.integer({ min: -6, max: 11 }), fc.constantFrom(0.5, -2.25, 1.5));
    const condition = fc.oneof(
      fc.tuple(fc.constantFrom('price', 'rating'), fc.constantFrom(...OPERATORS), bound).map(([a, op, v]) => ({
        list: `${a}${op}${v}`,
        text: `${a} ${op} ${v}`,
      })),
      fc.tuple(fc.constantFrom('price', 'rating'), bound, bound).map(([a, lo, hi]) => ({ list: `${a}:${lo} TO ${hi}`, text: `${a}:${lo} TO ${hi}` })),
    );
    const groups = fc.array(fc.array(condition, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 });
    fc.assert(
      fc.property(recordsArbitrary, groups, (records, gs) => {
        const asList = gs.map((group) => group.map((c) => c.list));
        const asText = gs.map((group) => `(${group.map((c) => c.text).join(' OR ')})`).join(' AND ');
        const source = new ArrayFilterSource(records);
        expect(evaluateFilter(numericFiltersToNode(asList)!, source).toArray()).toEqual(
          evaluateFilter(parseFilterString(asText), source).toArray(),
        );
      }),
      { numRuns: 500 },
    );
  });
});

describe('fuzzing: only EngineError escapes', () => {
  function onlyEngineErrors(run: () => unknown): void {
    try {
      run();
    } catch (error) {
      if (!(error instanceof EngineError)) throw error;
      expect(['FILTER_SYNTAX', 'FILTER_TOO_LARGE', 'INVALID_PARAMETER']).toContain(error.code);
    }
  }

  const piece = fc.oneof(
    fc.constantFrom('(', ')', ' ', 'AND', 'OR', 'NOT', 'TO', ':', '<', '<=', '=', '!=', '>=', '>', '!', '"', "'", '\\', '-', '.', 'e'),
    fc.constantFrom('price', 'brand', '_tags', 'Apple', '10', '-1.5', '1e5', '1e999', '.5', '"a b"', "'x'", 'é', '\u00a0', '\n'),
    fc.string({ maxLength: 3, unit: 'binary' }),
  );
  const soup = fc.array(piece, { maxLength: 30 }).map((parts) => parts.join(''));

  it('parseFilterString on token soup and random text', () => {
    fc.assert(
      fc.property(fc.oneof(soup, fc.string({ unit: 'binary', maxLength: 40 })), (input) => {
        onlyEngineErrors(() => {
          const node = parseFilterString(input, { maxDepth: 6, maxTerms: 8 });
          // Whatever parses must print and re-parse.
          parseFilterString(filterToString(node), generous);
        });
      }),
      { numRuns: 4000 },
    );
  });

  it('the list forms and buildFilterNode on random JSON values', () => {
    const list = fc.oneof(
      fc.jsonValue(),
      soup,
      fc.array(fc.oneof(soup, fc.array(soup, { maxLength: 3 }), fc.jsonValue()), { maxLength: 4 }),
      fc.array(fc.oneof(soup, fc.array(soup, { maxLength: 3 })), { maxLength: 4 }).map((v) => JSON.stringify(v)),
    );
    fc.assert(
      fc.property(list, list, list, list, (filters, facetFilters, numericFilters, tagFilters) => {
        for (const run of [
          () => buildFilterNode({ filters, facetFilters, numericFilters, tagFilters } as unknown as FilterParams),
          () => optionalFiltersToNodes(facetFilters as string),
          () => optionalFiltersToNodes(tagFilters as string, { sumOrFiltersScores: true }),
        ]) {
          try {
            run();
          } catch (error) {
            if (!(error instanceof EngineError)) throw error;
          }
        }
      }),
      { numRuns: 2000 },
    );
  });
});
