import { describe, expect, it } from 'vitest';
import { buildOptions, clampActive, moveActive } from './combobox.ts';

describe('combobox options', () => {
  it('lists recent searches, then suggestions, with the first suggestion also in its category', () => {
    const options = buildOptions(
      ['desk lamp'],
      [
        { query: 'lamp', highlighted: '<em>la</em>mp', category: 'Lighting' },
        { query: 'Desk Lamp', highlighted: 'desk lamp', category: 'Office' },
        { query: 'lamp shade', highlighted: 'lamp shade', category: 'Lighting' },
      ],
    );
    expect(options).toEqual([
      { kind: 'recent', query: 'desk lamp' },
      { kind: 'suggestion', query: 'lamp', highlighted: '<em>la</em>mp' },
      { kind: 'category', query: 'lamp', category: 'Lighting' },
      { kind: 'suggestion', query: 'lamp shade', highlighted: 'lamp shade' },
    ]);
  });

  it('keeps the category entry when the first suggestion is a recent search', () => {
    const options = buildOptions(['Lamp'], [{ query: 'lamp', highlighted: 'lamp', category: 'Lighting' }, { query: 'lamps', highlighted: 'lamps' }]);
    expect(options).toEqual([
      { kind: 'recent', query: 'Lamp' },
      { kind: 'category', query: 'lamp', category: 'Lighting' },
      { kind: 'suggestion', query: 'lamps', highlighted: 'lamps' },
    ]);
  });

  it('adds no category entry when the first suggestion has none', () => {
    const options = buildOptions([], [{ query: 'lamp', highlighted: 'lamp' }, { query: 'sofa', highlighted: 'sofa', category: 'Living' }]);
    expect(options.map((option) => option.kind)).toEqual(['suggestion', 'suggestion']);
  });
});

describe('combobox keys', () => {
  it('cycles down and up through the options and the text box', () => {
    const downs: number[] = [];
    let active = -1;
    for (let i = 0; i < 4; i++) downs.push((active = moveActive(active, 3, 'ArrowDown')));
    expect(downs).toEqual([0, 1, 2, -1]);
    const ups: number[] = [];
    for (let i = 0; i < 4; i++) ups.push((active = moveActive(active, 3, 'ArrowUp')));
    expect(ups).toEqual([2, 1, 0, -1]);
    expect(moveActive(0, 0, 'ArrowDown')).toBe(-1);
  });

  it('drops an active option the list no longer has', () => {
    expect(clampActive(2, 3)).toBe(2);
    expect(clampActive(3, 3)).toBe(-1);
    expect(clampActive(-1, 0)).toBe(-1);
  });
});

describe('products in the dropdown', () => {
  it('come after every query option, named by the product', () => {
    const product = { objectID: 'p1', slug: 'desk-lamp', name: 'Desk Lamp', image: '/i.svg', price: 19.99 };
    const options = buildOptions(['lamp'], [{ query: 'lamps', highlighted: 'lamps' }], [product]);
    expect(options.map((option) => option.kind)).toEqual(['recent', 'suggestion', 'product']);
    expect(options[2]).toEqual({ kind: 'product', query: 'Desk Lamp', product });
  });
});
