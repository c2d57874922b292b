import { describe, expect, it } from 'vitest';
import { toSuggestions } from './suggestions.ts';

const record = (query: string, categories?: string[]) => ({
  objectID: query,
  query,
  popularity: 10,
  _highlightResult: { query: { value: `__vt-hl__${query.slice(0, 2)}__/vt-hl__${query.slice(2)}` } },
  ...(categories
    ? { products: { exact_nb_hits: 4, facets: { exact_matches: { 'hierarchicalCategories.lvl0': categories.map((value, i) => ({ value, count: 9 - i })) } } } }
    : {}),
});

describe('toSuggestions', () => {
  it('reads the query, its highlight and the top category of the source index', () => {
    expect(toSuggestions([record('lamp', ['Lighting', 'Home']), record('lamp shade')], 'la', 'products')).toEqual([
      { query: 'lamp', highlighted: '__vt-hl__la__/vt-hl__mp', category: 'Lighting' },
      { query: 'lamp shade', highlighted: '__vt-hl__la__/vt-hl__mp shade' },
    ]);
  });

  it('leaves out the typed query itself, malformed records and other source indices', () => {
    const hits = [record('Lamp', ['Lighting']), { objectID: 'x', query: 42 }, record('desk', ['Office'])];
    expect(toSuggestions(hits, ' lamp ', 'products')).toEqual([{ query: 'desk', highlighted: '__vt-hl__de__/vt-hl__sk', category: 'Office' }]);
    expect(toSuggestions([record('desk', ['Office'])], '', 'other_index')).toEqual([{ query: 'desk', highlighted: '__vt-hl__de__/vt-hl__sk' }]);
  });

  it('falls back to the plain query without a highlight', () => {
    expect(toSuggestions([{ query: 'sofa' }], 's', 'products')).toEqual([{ query: 'sofa', highlighted: 'sofa' }]);
  });
});
