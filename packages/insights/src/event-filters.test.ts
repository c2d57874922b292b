import { describe, expect, it } from 'vitest';
import { parseEventFilter } from './event-filters.ts';

describe('parseEventFilter', () => {
  it('reads facet filters at their first colon', () => {
    expect(parseEventFilter('brand:Apple')).toEqual({ attribute: 'brand', operator: ':', value: 'Apple' });
    expect(parseEventFilter('categories.lvl1:Home > Lighting')).toEqual({ attribute: 'categories.lvl1', operator: ':', value: 'Home > Lighting' });
    expect(parseEventFilter('time:10:30')).toEqual({ attribute: 'time', operator: ':', value: '10:30' });
    // A colon first makes it a facet filter whatever the value holds.
    expect(parseEventFilter('category:5>=4')).toEqual({ attribute: 'category', operator: ':', value: '5>=4' });
  });

  it('reads numeric filters with every operator of the search API', () => {
    expect(parseEventFilter('rating>=4')).toEqual({ attribute: 'rating', operator: '>=', value: '4' });
    expect(parseEventFilter('price <= 10.5')).toEqual({ attribute: 'price', operator: '<=', value: '10.5' });
    expect(['a<1', 'a<=1', 'a=1', 'a!=1', 'a>1', 'a>=1'].map((filter) => parseEventFilter(filter)?.operator)).toEqual(['<', '<=', '=', '!=', '>', '>=']);
    expect(parseEventFilter('delta>-0.5')).toEqual({ attribute: 'delta', operator: '>', value: '-0.5' });
  });

  it('refuses what is neither', () => {
    for (const filter of ['rating', ':value', 'rating>=', 'rating>=four', '>=4', 'rating=>4', 'rating>=4 stars']) {
      expect(parseEventFilter(filter), filter).toBeNull();
    }
  });
});
