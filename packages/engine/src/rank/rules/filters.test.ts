/**
 * Properties checked (criterion `filters`):
 * - records matching optionalFilters rank first, by score (`<score=N>`), without filtering anything out;
 * - within an OR-group the best score counts, unless sumOrFiltersScores adds them up;
 * - separate optional filters add up;
 * - filter scores (`<score=N>` in `filters` and `facetFilters`) rank the records the filters keep the same way.
 */
import { describe, expect, it } from 'vitest';
import { ranked } from './fixture.ts';

const settings = { searchableAttributes: ['name'], attributesForFaceting: ['brand', 'color'] };
const records = [
  { objectID: 'f1', name: 'shoe', brand: 'Trail', color: 'red' }, // brand Trail (score 1) + red (1)
  { objectID: 'f2', name: 'shoe', brand: 'Acme', color: 'blue' }, // brand Acme (score 3)
  { objectID: 'f3', name: 'shoe', brand: 'Cosy', color: 'green' }, // nothing: last
  { objectID: 'f4', name: 'shoe', brand: 'Acme', color: 'red' }, // Acme (3) + red (1)
];

describe('filters criterion', () => {
  it('ranks by optional filter score and keeps non-matching records', () => {
    // f4: 3 + 1 = 4; f2: 3; f1: 1 (best of its OR-group) + 1 = 2; f3: 0.
    const params = { query: 'shoe', optionalFilters: [['brand:Acme<score=3>', 'brand:Trail'], 'color:red'] };
    expect(ranked(records, settings, params)).toEqual(['f4', 'f2', 'f1', 'f3']);
  });

  it('takes the best score of an OR-group, or their sum with sumOrFiltersScores', () => {
    const params = { query: 'shoe', optionalFilters: [['brand:Acme<score=2>', 'color:red<score=3>']] };
    // Best of group: f1 (red: 3) ties f4 (max(2, 3) = 3), both before f2 (2), then f3.
    expect(ranked(records, settings, params)).toEqual(['f1', 'f4', 'f2', 'f3']);
    // Sum: f4 = 5 first.
    expect(ranked(records, settings, { ...params, sumOrFiltersScores: true })).toEqual(['f4', 'f1', 'f2', 'f3']);
  });

  it('ranks by the filter scores of filters and facetFilters, keeping only what they keep', () => {
    const filters = '(brand:Trail<score=1> OR brand:Acme<score=4>) AND (color:red<score=2> OR color:blue)';
    // f4 Acme+red 4+2, f2 Acme+blue 4+1, f1 Trail+red 1+2; f3 filtered out.
    expect(ranked(records, settings, { query: 'shoe', filters })).toEqual(['f4', 'f2', 'f1']);
    const facetFilters = [['brand:Trail<score=1>', 'brand:Acme<score=4>'], ['color:red<score=2>', 'color:blue']];
    expect(ranked(records, settings, { query: 'shoe', facetFilters })).toEqual(['f4', 'f2', 'f1']);
    // Without scores the same filters rank nothing: the records keep their order.
    expect(ranked(records, settings, { query: 'shoe', filters: '(brand:Trail OR brand:Acme) AND (color:red OR color:blue)' })).toEqual(['f1', 'f2', 'f4']);
  });
});
