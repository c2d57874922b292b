/**
 * Filter scoring: the terms `filterScoreTerms` returns, summed over those a record matches, give the record's
 * score as Algolia defines it — an OR group's best matching element (or the sum with sumOrFiltersScores), the
 * parts of an AND added. Checked against a direct computation over random scored groups (fast-check), and on
 * hand-worked examples; a filter without scores gives no terms.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { recordMatches } from './array-source.ts';
import { facetFiltersToNode, filterScoreTerms, parseFilterString } from './index.ts';
import type { FilterNode } from './types.ts';

const scoreOf = (record: Record<string, unknown>, node: FilterNode, sumOrFiltersScores = false) =>
  filterScoreTerms(node, { sumOrFiltersScores }).reduce((sum, term) => sum + (recordMatches(record, term.node) ? term.score : 0), 0);

describe('filterScoreTerms', () => {
  const filter = parseFilterString('(company:Google<score=3> OR company:Amazon<score=2> OR company:Facebook)');
  const portfolios = [
    { company: ['Google', 'Amazon', 'Facebook'] },
    { company: ['Amazon', 'Facebook'] },
    { company: ['Facebook'] },
    { company: ['Google'] },
  ];

  it("scores an OR group by its best matching element, unscored ones counting 1", () => {
    expect(portfolios.map((record) => scoreOf(record, filter))).toEqual([3, 2, 1, 3]);
  });

  it('adds up the matched elements with sumOrFiltersScores', () => {
    expect(portfolios.map((record) => scoreOf(record, filter, true))).toEqual([6, 3, 1, 3]);
  });

  it('adds the OR groups of an AND, from filters and facetFilters alike', () => {
    const both = parseFilterString('(brand:A<score=5> OR brand:B) AND (color:red<score=2> OR color:blue<score=4>) AND price > 3');
    const records = [
      { brand: 'A', color: 'red', price: 5 },
      { brand: 'B', color: 'blue', price: 5 },
      { brand: 'B', color: ['red', 'blue'], price: 5 },
    ];
    expect(records.map((record) => scoreOf(record, both))).toEqual([7, 5, 5]);
    const asList = facetFiltersToNode([['brand:A<score=5>', 'brand:B'], ['color:red<score=2>', 'color:blue<score=4>']])!;
    expect(records.map((record) => scoreOf(record, asList))).toEqual([7, 5, 5]);
  });

  it('gives no terms, and so costs nothing, to a filter without scores', () => {
    expect(filterScoreTerms(parseFilterString('(brand:A OR brand:B) AND price > 3'))).toEqual([]);
    expect(filterScoreTerms(null)).toEqual([]);
  });

  it('equals the sum over groups of the best (or summed) matching score, for any scores and kept records', () => {
    const group = fc.array(fc.record({ value: fc.constantFrom('a', 'b', 'c', 'd'), score: fc.option(fc.integer({ min: 0, max: 20 }), { nil: undefined }) }), { minLength: 1, maxLength: 5 });
    fc.assert(
      fc.property(fc.array(group, { minLength: 1, maxLength: 3 }), fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { maxLength: 4 }), fc.boolean(), (groups, values, sum) => {
        const node = facetFiltersToNode(groups.map((elements) => elements.map((e) => `tag:${e.value}${e.score === undefined ? '' : `<score=${e.score}>`}`)));
        const record = { tag: values };
        // Only the records the filter keeps are ranked.
        if (!recordMatches(record, node!)) return;
        const anyScore = groups.some((elements) => elements.some((e) => e.score !== undefined));
        const expected = !anyScore
          ? 0
          : groups.reduce((total, elements) => {
              // A lone unscored condition adds nothing: every record kept matches it.
              if (elements.length === 1 && elements[0].score === undefined) return total;
              const matched = elements.filter((e) => values.includes(e.value)).map((e) => e.score ?? 1);
              const groupScore = sum ? matched.reduce((a, b) => a + b, 0) : Math.max(0, ...matched);
              return total + groupScore;
            }, 0);
        expect(scoreOf(record, node!, sum)).toBe(expected);
      }),
    );
  });
});
