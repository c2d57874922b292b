/**
 * removeStopWords (English): stop words leave the query unless read as a prefix or quoted; other languages'
 * stop words (dictionaries.test.ts) leave English words alone.
 */
import { describe, expect, it } from 'vitest';
import { SearchIndex } from '../search-index.ts';

function shop(settings: Record<string, unknown> = {}): SearchIndex {
  const index = new SearchIndex({ searchableAttributes: ['name'], ...settings });
  index.saveObjects([
    { objectID: '1', name: 'lamp for the desk' },
    { objectID: '2', name: 'desk lamp' },
    { objectID: '3', name: 'the lamp' },
  ]);
  return index;
}

const ids = (index: SearchIndex, params: Record<string, unknown>): string[] => index.search({ hitsPerPage: 10, ...params }).hits.map((hit) => hit.objectID).sort();

describe('removeStopWords', () => {
  it('drops stop words that are not prefixes', () => {
    // "for" and "the" would exclude record 2; removed, "lamp" and "desk" match it too.
    expect(ids(shop(), { query: 'lamp for the desk' })).toEqual(['1']);
    expect(ids(shop(), { query: 'lamp for the desk', removeStopWords: true })).toEqual(['1', '2']);
    expect(ids(shop({ removeStopWords: ['en'] }), { query: 'lamp for the desk' })).toEqual(['1', '2']);
  });

  it('keeps the last word, read as a prefix, and quoted words', () => {
    // "the" is being typed: it may become "theme", so it stays (and matches records 1 and 3).
    expect(ids(shop(), { query: 'lamp the', removeStopWords: true })).toEqual(['1', '3']);
    expect(ids(shop(), { query: '"the lamp" desk', removeStopWords: true, advancedSyntax: true })).toEqual([]);
    expect(ids(shop(), { query: 'the lamp ', removeStopWords: true })).toEqual(['1', '2', '3']);
  });

  it('leaves English stop words alone for other languages, or when English is not a query language', () => {
    expect(ids(shop(), { query: 'lamp for the desk', removeStopWords: ['fr'] })).toEqual(['1']);
    expect(ids(shop(), { query: 'lamp for the desk', removeStopWords: true, queryLanguages: ['de'] })).toEqual(['1']);
  });

  it('leaves stop words out of matchedWords', () => {
    const hit = shop().search({ query: 'lamp for the desk', removeStopWords: true }).hits.find((h) => h.objectID === '2')!;
    const name = (hit._highlightResult as Record<string, { matchedWords: string[] }>).name;
    expect(name.matchedWords).toEqual(['lamp', 'desk']);
  });
});
