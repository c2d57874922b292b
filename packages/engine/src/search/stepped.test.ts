/**
 * Searches whose hits are built in steps (`searchInSteps`): the same answer as `search`, whatever the steps,
 * and a page as it was when the search started, whatever is written between steps (replacements, deletions,
 * a compaction swapping the store); such a page is not kept in the result cache.
 */
import { describe, expect, it } from 'vitest';
import type { IndexRecord, SearchParams, SearchResponse } from '@vitrine/protocol';
import { SearchIndex } from '../search-index.ts';

const SETTINGS = {
  searchableAttributes: ['name', 'description'],
  attributesForFaceting: ['brand', 'price'],
  customRanking: ['desc(popularity)'],
};

function product(id: number, version = 0): IndexRecord {
  return {
    objectID: String(id),
    name: `${['oak', 'pine', 'teak'][id % 3]} table ${id}${version > 0 ? ` v${version}` : ''}`,
    description: `A sturdy table for the kitchen, number ${id}, with a long description to snippet and highlight`,
    brand: ['Acme', 'Bolt'][id % 2],
    price: 10 + (id % 50),
    popularity: id,
  };
}

function newIndex(count: number): SearchIndex {
  const index = new SearchIndex(SETTINGS);
  index.saveObjects(Array.from({ length: count }, (_, i) => product(i)));
  return index;
}

/** A response without its timing, which differs between two runs of the same search. */
function comparable(response: SearchResponse): unknown {
  const { processingTimeMS: _time, ...rest } = response;
  return rest;
}

function inSteps(index: SearchIndex, params: SearchParams, count: number, between: () => void = () => {}): SearchResponse {
  const search = index.searchInSteps(params);
  while (!search.done) {
    search.buildHits(count);
    between();
  }
  return search.response;
}

const QUERIES: SearchParams[] = [
  { query: 'table', hitsPerPage: 50, facets: ['brand'], attributesToHighlight: ['*'], attributesToSnippet: ['description:4'] },
  { query: 'oak kitchen', hitsPerPage: 7, page: 2, getRankingInfo: true },
  { query: '', hitsPerPage: 0, facets: ['*'] },
  { query: 'pine', offset: 3, length: 9, attributesToRetrieve: ['name'], highlightPreTag: '[', highlightPostTag: ']' },
];

describe('searchInSteps', () => {
  it('answers as search does, whatever the steps', () => {
    for (const params of QUERIES) {
      const expected = comparable(newIndex(300).search(params));
      for (const count of [1, 3, 1000]) expect(comparable(inSteps(newIndex(300), params, count))).toEqual(expected);
    }
  });

  it('builds the page as it was when the search started, whatever is written between steps', () => {
    const params = { query: 'table', hitsPerPage: 40, attributesToSnippet: ['description:3'] };
    const expected = comparable(newIndex(200).search(params));
    const index = newIndex(200);
    // Tiny compactions, so that the deletions below swap the store for a new one while the page is built.
    const internals = index as unknown as { compactionPolicy: { minTombstones: number; perWrite: number; perSearch: number }; compactions: number };
    Object.assign(internals.compactionPolicy, { minTombstones: 3, perWrite: 50, perSearch: 50 });
    let round = 0;
    const response = inSteps(index, params, 2, () => {
      round++;
      // Products at the end of the page (built last) replaced or deleted before they are built, new products
      // outranking them all, and deletions enough for a compaction half way.
      index.saveObjects([product(159 + round, 1), product(1000 + round)]);
      index.deleteObjects([...Array.from({ length: 10 }, (_, i) => String((round - 1) * 10 + i)), String(180 + round)]);
    });
    expect(internals.compactions).toBeGreaterThan(0);
    expect(comparable(response)).toEqual(expected);
    expect(index.search(params).hits[0].objectID).toBe(String(1000 + round));
  });

  it('does not keep a page written to meanwhile in the result cache', () => {
    const index = newIndex(100);
    const params = { query: 'table', hitsPerPage: 10 };
    // Asked once before: the cache keeps a result asked a second time.
    index.search(params);
    let written = false;
    inSteps(index, params, 2, () => {
      if (!written) index.saveObjects([product(500)]);
      written = true;
    });
    expect(index.search(params).hits[0].objectID).toBe('500');
  });

  it('keeps a page built without writes in the result cache, as search does', () => {
    const index = newIndex(100);
    const params = { query: 'teak', hitsPerPage: 10 };
    inSteps(index, params, 2);
    inSteps(index, params, 2);
    const before = index.resultCacheStats().hits;
    const cached = index.searchInSteps(params);
    expect(cached.done).toBe(true);
    expect(index.resultCacheStats().hits).toBe(before + 1);
    expect(cached.response.hits).toHaveLength(10);
  });
});
