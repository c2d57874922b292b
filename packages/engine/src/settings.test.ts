/**
 * The parsed setting lists every search reads are memoised by content: the same content gives the same parse,
 * a list changed in place is parsed again, and a bad list is rejected every time (never cached).
 */
import { describe, expect, it } from 'vitest';
import { parseAttributesForFaceting, parseCustomRanking, parseRanking } from './settings.ts';

describe('memoised setting lists', () => {
  it('parses a list again once it changed in place', () => {
    const list = ['brand', 'searchable(color)'];
    const first = parseAttributesForFaceting(list);
    expect(parseAttributesForFaceting([...list])).toBe(first);
    list.push('filterOnly(price)');
    expect(parseAttributesForFaceting(list).map((f) => [f.attribute, f.searchable, f.filterOnly])).toEqual([
      ['brand', false, false],
      ['color', true, false],
      ['price', false, true],
    ]);
    const ranking = ['desc(popularity)'];
    expect(parseCustomRanking(ranking)).toEqual([{ attribute: 'popularity', path: ['popularity'], ascending: false }]);
    ranking[0] = 'asc(price)';
    expect(parseCustomRanking(ranking)).toEqual([{ attribute: 'price', path: ['price'], ascending: true }]);
  });

  it('rejects a bad list on every call', () => {
    for (let i = 0; i < 2; i++) {
      expect(() => parseRanking(['typo', 'sideways(price)'])).toThrow(/asc\(attribute\) or desc\(attribute\)/);
      expect(() => parseAttributesForFaceting(['unordered(brand)'])).toThrow(/unordered/);
    }
  });

  it('stays right past the number of lists it keeps', () => {
    for (let i = 0; i < 200; i++) expect(parseCustomRanking([`desc(a${i})`])[0].attribute).toBe(`a${i}`);
    expect(parseCustomRanking(['desc(a3)'])[0].attribute).toBe('a3');
  });
});
