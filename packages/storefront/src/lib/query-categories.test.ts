import { describe, expect, it } from 'vitest';
import { categorySuggestions } from './query-categories.ts';

const path = (...values: string[]) => values.map((facetValue, depth) => ({ facetName: `hierarchicalCategories.lvl${depth}`, facetValue, depth }));

describe('category suggestions from query categorization', () => {
  it('offers the predicted categories as menu paths, most confident first, weak ones left out', () => {
    const raw = {
      extensions: {
        queryCategorization: {
          normalizedQuery: 'lamp', count: 40, type: 'ambiguous',
          categories: [
            { bin: 'high', hierarchyPath: path('Home & Kitchen', 'Home & Kitchen > Lighting') },
            { bin: 'very low', hierarchyPath: path('Toys & Games') },
            { bin: 'low', hierarchyPath: path('Office') },
          ],
        },
      },
    };
    expect(categorySuggestions(raw)).toEqual([
      { path: ['Home & Kitchen', 'Lighting'], label: 'Lighting' },
      { path: ['Office'], label: 'Office' },
    ]);
  });

  it('has nothing to offer without the extension or a prediction', () => {
    expect(categorySuggestions({ hits: [] })).toEqual([]);
    expect(categorySuggestions({ extensions: { queryCategorization: {} } })).toEqual([]);
    expect(categorySuggestions(undefined)).toEqual([]);
  });
});
