import { describe, expect, it } from 'vitest';
import { numericCandidates } from './warm-up.ts';

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
