/**
 * Learning (re-ranking's boosts, a shopper's affinities) orders hits and nothing else: a search that asks for no
 * hits — the facet counts InstantSearch asks beside each page with a refined disjunctive facet — answers the
 * same for every shopper, is cached once for all of them, and still has its parameters checked. A virtual
 * replica's relevant sort is the exception: its count ranks records, learning included.
 */
import { describe, expect, it } from 'vitest';
import type { IndexRecord, IndexSettings, SearchParams } from '@vitrine/protocol';
import { SearchIndex } from '../search-index.ts';
import type { SearchOptions } from '../api.ts';

const SETTINGS: IndexSettings = {
  searchableAttributes: ['name'],
  attributesForFaceting: ['brand', 'color'],
  customRanking: ['desc(popularity)'],
  enableReRanking: true,
  enablePersonalization: true,
};
const BRANDS = ['Lumio', 'Nordlys', 'Oakhaus'];
const COLORS = ['red', 'blue'];

function index(): SearchIndex {
  const records: IndexRecord[] = Array.from({ length: 60 }, (_, i) => ({
    objectID: String(i),
    name: i % 2 === 0 ? 'desk lamp' : 'floor lamp',
    brand: BRANDS[i % BRANDS.length],
    color: COLORS[i % COLORS.length],
    popularity: 60 - i,
  }));
  const built = new SearchIndex(SETTINGS);
  built.saveObjects(records);
  return built;
}

/** Three shoppers: each with their own affinities and the query's boosts as a model would hand them. */
const SHOPPERS: SearchOptions[] = BRANDS.map((brand, i) => ({
  personalization: { impact: 100, affinities: [['brand', brand, 90], ['color', COLORS[i % 2], 40]] },
  reRanking: { query: 'lamp', boosts: [{ objectID: String(50 + i), score: 3, clicks: 9, conversions: 1, expectedClicks: 2 }] },
}));

const COUNTS: SearchParams = { query: 'lamp', hitsPerPage: 0, facets: ['brand', 'color'], facetFilters: [['color:red']] };

describe('learning and searches without hits', () => {
  it('answers the facet counts the same for every shopper, and caches them once for all', () => {
    const cached = index();
    const plain = index().search(COUNTS);
    for (const shopper of SHOPPERS) {
      const answer = cached.search(COUNTS, undefined, shopper);
      expect(answer.facets).toEqual(plain.facets);
      expect(answer.nbHits).toBe(plain.nbHits);
    }
    // The cache keeps a key asked twice: the third shopper's counts are the second's.
    expect(cached.resultCacheStats().hits).toBe(1);
  });

  it('still keys searches with hits by their shopper: their order is theirs', () => {
    const cached = index();
    const page: SearchParams = { ...COUNTS, hitsPerPage: 5 };
    const orders = SHOPPERS.map((shopper) => cached.search(page, undefined, shopper).hits.map((hit) => hit.brand));
    expect(cached.resultCacheStats().hits).toBe(0);
    expect(orders[0][0]).toBe('Lumio');
    expect(orders[1][0]).toBe('Nordlys');
  });

  it('keeps learning in a virtual replica\'s relevant count, which ranks', () => {
    const cached = index();
    const replica: IndexSettings = { customRanking: ['asc(popularity)'], relevancyStrictness: 90 };
    for (const shopper of SHOPPERS) cached.search(COUNTS, replica, shopper);
    expect(cached.resultCacheStats().hits).toBe(0);
  });

  it('still refuses a malformed reRankingApplyFilter on a search without hits', () => {
    expect(() => index().search({ ...COUNTS, reRankingApplyFilter: 'brand:(' }, undefined, SHOPPERS[0])).toThrow(/Unexpected token/);
  });
});
