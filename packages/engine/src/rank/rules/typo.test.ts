/**
 * Properties checked (criterion `typo`):
 * - fewer typos rank first; a swap of two adjacent letters is one typo;
 * - 1 typo from minWordSizefor1Typo (4) letters, 2 from minWordSizefor2Typos (8), none below;
 * - typoTolerance false / "min" / "strict"; disableTypoToleranceOnWords; allowTyposOnNumericTokens;
 *   disableTypoToleranceOnAttributes;
 * - typos are summed over the query words.
 */
import { describe, expect, it } from 'vitest';
import { ranked } from './fixture.ts';

const settings = { searchableAttributes: ['name', 'note'] };

describe('typo criterion', () => {
  it('ranks exact matches before one-typo matches', () => {
    const records = [
      { objectID: 't1', name: 'lapotp case' }, // "lapotp": two letters swapped, 1 typo
      { objectID: 't2', name: 'laptop stand' }, // exact: 0 typos, first
      { objectID: 't3', name: 'lptop bag' }, // one letter missing, 1 typo; ties with t1, inserted later
      { objectID: 't4', name: 'notebook' }, // no match
    ];
    expect(ranked(records, settings, { query: 'laptop', queryType: 'prefixNone' })).toEqual(['t2', 't1', 't3']);
  });

  it('allows two typos from 8 letters and none under 4', () => {
    const records = [
      { objectID: 'h1', name: 'hedphnes' }, // 2 typos from "headphones" (10 letters): allowed, last
      { objectID: 'h2', name: 'headphnes' }, // 1 typo
      { objectID: 'h3', name: 'hdphns' }, // 4 typos: no match
      { objectID: 'c1', name: 'car' }, // "cat" has 3 letters: no typo allowed
    ];
    expect(ranked(records, settings, { query: 'headphones', queryType: 'prefixNone' })).toEqual(['h2', 'h1']);
    expect(ranked(records, settings, { query: 'cat', queryType: 'prefixNone' })).toEqual([]);
    expect(ranked(records, { ...settings, minWordSizefor1Typo: 3 }, { query: 'cat', queryType: 'prefixNone' })).toEqual(['c1']);
  });

  it('sums typos over the words', () => {
    const records = [
      { objectID: 'w1', name: 'blak leathr boots' }, // 2 typos (one per word)
      { objectID: 'w2', name: 'black leathr boots' }, // 1 typo
      { objectID: 'w3', name: 'black leather boots' }, // 0 typos
    ];
    expect(ranked(records, settings, { query: 'black leather', queryType: 'prefixNone' })).toEqual(['w3', 'w2', 'w1']);
  });

  it('honours typoTolerance false, min and strict', () => {
    const records = [
      { objectID: 'a', name: 'phone' }, // 0 typos
      { objectID: 'b', name: 'phne' }, // 1 typo
      { objectID: 'c', name: 'phones' }, // 1 typo (insertion) without prefix matching
    ];
    const base = { query: 'phone', queryType: 'prefixNone' as const };
    expect(ranked(records, settings, { ...base, typoTolerance: false })).toEqual(['a']);
    expect(ranked(records, settings, { ...base, typoTolerance: 'min' })).toEqual(['a']);
    expect(ranked(records.slice(1), settings, { ...base, typoTolerance: 'min' })).toEqual(['b', 'c']);
    expect(ranked(records, settings, { ...base, typoTolerance: 'strict' })).toEqual(['a', 'b', 'c']);
  });

  it('turns typos off for listed words, numbers and attributes', () => {
    const records = [
      { objectID: 'n1', name: 'model 2024' }, // exact number
      { objectID: 'n2', name: 'model 2025' }, // one typo on a number
      { objectID: 'x1', name: 'other', note: 'phne' }, // typo in an attribute without typo tolerance
      { objectID: 'x2', name: 'phne' }, // same typo in a tolerant attribute
    ];
    expect(ranked(records, settings, { query: '2024', queryType: 'prefixNone' })).toEqual(['n1', 'n2']);
    expect(ranked(records, settings, { query: '2024', queryType: 'prefixNone', allowTyposOnNumericTokens: false })).toEqual(['n1']);
    expect(ranked(records, { ...settings, disableTypoToleranceOnWords: ['phone'] }, { query: 'phone', queryType: 'prefixNone' })).toEqual([]);
    expect(ranked(records, settings, { query: 'phone', queryType: 'prefixNone' })).toEqual(['x2', 'x1']);
    expect(ranked(records, { ...settings, disableTypoToleranceOnAttributes: ['note'] }, { query: 'phone', queryType: 'prefixNone' })).toEqual(['x2']);
  });
});
