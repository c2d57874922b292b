/**
 * Properties checked (criterion `exact`):
 * - more words matched as whole words (not merely as a prefix, not with a typo) rank first;
 * - plural forms (ignorePlurals) and single-word synonyms count as exact;
 * - for a one-word query (exactOnSingleWordQuery "attribute", the default) exact means an attribute value that
 *   is the word alone; with "word", any whole-word match.
 */
import { describe, expect, it } from 'vitest';
import { ranked } from './fixture.ts';

const settings = { searchableAttributes: ['name'] };

describe('exact criterion', () => {
  it('ranks whole-word matches before prefix matches', () => {
    const records = [
      { objectID: 'e1', name: 'blue shoes' }, // "shoe" only as a prefix of "shoes": 1 exact word
      { objectID: 'e2', name: 'blue shoe' }, // both words whole: first
    ];
    expect(ranked(records, settings, { query: 'blue shoe' })).toEqual(['e2', 'e1']);
    // With plurals ignored, "shoes" is as exact as "shoe": insertion order decides.
    expect(ranked(records, { ...settings, ignorePlurals: true }, { query: 'blue shoe' })).toEqual(['e1', 'e2']);
  });

  it('for one word, prefers a value that is the word alone', () => {
    const records = [
      { objectID: 'r1', name: 'road trip' }, // contains the word, not alone
      { objectID: 'r2', name: 'road' }, // the whole value: exact, first
    ];
    expect(ranked(records, settings, { query: 'road', queryType: 'prefixNone' })).toEqual(['r2', 'r1']);
    expect(ranked(records, { ...settings, exactOnSingleWordQuery: 'word' }, { query: 'road', queryType: 'prefixNone' })).toEqual(['r1', 'r2']);
  });
});
