import { describe, expect, it } from 'vitest';
import { isHomeState } from './recommend.ts';

describe('isHomeState', () => {
  it('is the search page with nothing asked for', () => {
    expect(isHomeState({}, 'products')).toBe(true);
    expect(isHomeState({ query: '  ', page: 1, sortBy: 'products', hitsPerPage: 40 }, 'products')).toBe(true);
  });

  it('is not home once there is a query, a refinement, a later page or another sort', () => {
    expect(isHomeState({ query: 'lamp' }, 'products')).toBe(false);
    expect(isHomeState({ refinementList: { brand: ['Acme'] } }, 'products')).toBe(false);
    expect(isHomeState({ hierarchicalMenu: { 'hierarchicalCategories.lvl0': ['Lighting'] } }, 'products')).toBe(false);
    expect(isHomeState({ toggle: { free_shipping: true } }, 'products')).toBe(false);
    expect(isHomeState({ page: 2 }, 'products')).toBe(false);
    expect(isHomeState({ sortBy: 'products_price_asc' }, 'products')).toBe(false);
  });
});
