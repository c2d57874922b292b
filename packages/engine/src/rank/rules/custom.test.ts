/**
 * Properties checked (criterion `custom`):
 * - customRanking orders records that tie on every textual criterion: desc/asc, then the next attribute;
 * - records missing the attribute come last, whatever the direction;
 * - booleans sort as 0/1; it decides the order of an empty query.
 */
import { describe, expect, it } from 'vitest';
import { ranked } from './fixture.ts';

describe('custom criterion', () => {
  const records = [
    { objectID: 'c1', name: 'lamp', popularity: 5, price: 30 }, // popularity 5, cheaper than c3: second
    { objectID: 'c2', name: 'lamp' }, // no popularity: last
    { objectID: 'c3', name: 'lamp', popularity: 5, price: 40 }, // popularity 5, dearer: third
    { objectID: 'c4', name: 'lamp', popularity: 9, price: 99 }, // most popular: first
  ];
  const settings = { searchableAttributes: ['name'], customRanking: ['desc(popularity)', 'asc(price)'] };

  it('orders ties by the custom criteria', () => {
    expect(ranked(records, settings, { query: 'lamp' })).toEqual(['c4', 'c1', 'c3', 'c2']);
    expect(ranked(records, settings, { query: '' })).toEqual(['c4', 'c1', 'c3', 'c2']);
  });

  it('puts missing values last in ascending order too, and sorts booleans', () => {
    const asc = { searchableAttributes: ['name'], customRanking: ['asc(popularity)'] };
    expect(ranked(records, asc, { query: '' })).toEqual(['c1', 'c3', 'c4', 'c2']);
    const flags = [
      { objectID: 'b1', name: 'x', inStock: false }, // false = 0: after b2
      { objectID: 'b2', name: 'x', inStock: true }, // true = 1: first with desc
    ];
    expect(ranked(flags, { customRanking: ['desc(inStock)'] }, { query: '' })).toEqual(['b2', 'b1']);
  });

  it('comes after the textual criteria', () => {
    const textual = [
      { objectID: 'x1', name: 'desk lamp', popularity: 100 }, // lamp at position 1: after x2 despite popularity
      { objectID: 'x2', name: 'lamp', popularity: 1 }, // lamp at position 0 (and exact): first
    ];
    expect(ranked(textual, { searchableAttributes: ['name'], customRanking: ['desc(popularity)'] }, { query: 'lamp' })).toEqual(['x2', 'x1']);
  });
});
