import { describe, expect, it } from 'vitest';
import { listRefinements, searchParamsFor } from './refinements.ts';
import type { StorefrontIndexUiState } from './search-state.ts';

const state: StorefrontIndexUiState = {
  query: 'lamp',
  page: 3,
  hierarchicalMenu: { 'hierarchicalCategories.lvl0': ['Home & Kitchen', 'Lighting'] },
  refinementList: { brand: ['Acme', '-Dash'], color: ['red'] },
  range: { price: '10:200', rating: '4:' },
  toggle: { free_shipping: true },
};

describe('refinements', () => {
  it('lists every active refinement with a readable label', () => {
    expect(listRefinements(state).map((refinement) => refinement.label)).toEqual([
      'Category: Home & Kitchen › Lighting',
      'Brand: Acme',
      'Brand: -Dash',
      'Color: red',
      'Price: 10 – 200',
      'Rating: 4 & up',
      'Free shipping',
    ]);
  });

  it('removes exactly one refinement and goes back to the first page', () => {
    const [, acme] = listRefinements(state);
    const without = acme.remove(state);
    expect(without.refinementList).toEqual({ brand: ['-Dash'], color: ['red'] });
    expect(without.page).toBeUndefined();
    expect(without.range).toEqual(state.range);
  });

  it('turns a state into search parameters (OR within a facet, AND across)', () => {
    expect(searchParamsFor(state)).toEqual({
      query: 'lamp',
      facetFilters: [
        ['hierarchicalCategories.lvl1:Home & Kitchen > Lighting'],
        ['brand:Acme', 'brand:\\-Dash'],
        ['color:red'],
        ['free_shipping:true'],
      ],
      numericFilters: ['price>=10', 'price<=200', 'rating>=4'],
    });
    expect(searchParamsFor({})).toEqual({ query: '', facetFilters: [], numericFilters: [] });
  });
});
