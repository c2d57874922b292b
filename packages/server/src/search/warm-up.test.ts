import { describe, expect, it } from 'vitest';
import { SearchIndex } from '@vitrine/engine';
import { numericCandidates, sampleSearches } from './warm-up.ts';

describe('warm-up before a search thread is ready', () => {
  const settings = {
    attributesForFaceting: ['searchable(brand)', 'price', 'rating', 'free_shipping', 'filterOnly(dimensions.width)', 'tags'],
    numericAttributesForFiltering: ['stock'],
    customRanking: ['desc(popularity)', 'desc(rating)'],
  };
  const sample = { objectID: '1', brand: 'Kaltek', price: 12.5, rating: 4, free_shipping: true, dimensions: { width: 30 }, tags: [1, 2], stock: 3, popularity: 900 };

  it('builds numeric columns for faceted or filtered attributes holding numbers only', () => {
    // Not popularity (customRanking only: its order is built by the first ranking), nor booleans or strings.
    expect(numericCandidates(settings, sample).sort()).toEqual(['dimensions.width', 'price', 'rating', 'stock', 'tags']);
  });

  it('keeps every declared attribute when no record tells their types', () => {
    expect(numericCandidates(settings, undefined)).toHaveLength(7);
  });
});

describe("a shopper's first searches, made of a sample record", () => {
  const settings = {
    searchableAttributes: ['unordered(name)', 'brand,categories'],
    attributesForFaceting: ['searchable(brand)', 'categories', 'price', 'free_shipping', 'filterOnly(groupID)'],
  };
  const sample = { objectID: '1', name: 'Oak desk lamp', brand: 'Kaltek', categories: ['Lighting', 'Desks'], price: 40, free_shipping: true, groupID: 'g1' };

  it('types two words of its first text, then refines each faceted attribute on its value', () => {
    expect(sampleSearches(settings, sample)).toEqual([
      { query: 'Oak de', hitsPerPage: 20, facets: ['*'] },
      { query: '', hitsPerPage: 0, facets: ['*'], facetFilters: [['brand:Kaltek']] },
      { query: '', hitsPerPage: 0, facetFilters: [['categories:Lighting']] },
      { query: '', hitsPerPage: 0, facetFilters: [['free_shipping:true']] },
      { query: '', hitsPerPage: 0, facetFilters: [['groupID:g1']] },
    ]);
  });

  it('finds the sample with every one of them', () => {
    const engine = new SearchIndex(settings);
    engine.saveObjects([sample, { objectID: '2', name: 'Steel chair', brand: 'Norra', categories: ['Chairs'], price: 90, free_shipping: false, groupID: 'g2' }]);
    // The other record shares no word nor value with the sample: each search finds the sample alone.
    for (const params of sampleSearches(settings, sample)) expect(engine.search(params).nbHits, JSON.stringify(params)).toBe(1);
  });

  it('skips what the sample has no text or value for', () => {
    expect(sampleSearches({ attributesForFaceting: ['brand'] }, { objectID: '1', price: 3 })).toEqual([]);
  });
});
