/**
 * Properties checked (criterion `words`):
 * - with optionalWords, records matching more query words rank first, and records missing an optional word
 *   still match;
 * - without optional words every record matches every word, so the criterion decides nothing.
 */
import { describe, expect, it } from 'vitest';
import { ranked } from './fixture.ts';

const settings = { searchableAttributes: ['name'] };

describe('words criterion', () => {
  it('ranks records matching more words first when words are optional', () => {
    const records = [
      { objectID: 'o1', name: 'running shoe' }, // misses optional "red": 2 of 3 words, after o2
      { objectID: 'o2', name: 'red running shoe' }, // all 3 words: first
      { objectID: 'o3', name: 'red sock' }, // misses the required "shoe": no match
    ];
    const params = { query: 'red running shoe', optionalWords: ['red'] };
    expect(ranked(records, settings, params)).toEqual(['o2', 'o1']);
    expect(ranked(records, settings, { query: 'red running shoe' })).toEqual(['o2']);
  });

  it('ORs the words when all of them are optional', () => {
    const records = [
      { objectID: 'a', name: 'red' }, // 1 word: after b
      { objectID: 'b', name: 'red shoe' }, // 2 words: first
      { objectID: 'c', name: 'blue' }, // no word: no match
    ];
    expect(ranked(records, settings, { query: 'red shoe', optionalWords: 'red shoe' })).toEqual(['b', 'a']);
  });
});
