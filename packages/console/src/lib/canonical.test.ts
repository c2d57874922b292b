import { describe, expect, it } from 'vitest';
import { sameJson, splitList, withoutServerFields } from './canonical.ts';

describe('comparing JSON items as an operator would', () => {
  it('ignores key order and what states a default', () => {
    expect(sameJson({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 })).toBe(true);
    expect(sameJson({ objectID: 'r', enabled: true, conditions: [], consequence: { promote: [], params: {} }, description: '' }, { objectID: 'r', consequence: {} })).toBe(true);
    expect(sameJson({ pattern: 'x', alternatives: false }, { pattern: 'x' })).toBe(true);
  });

  it('tells apart what changes an item: values, order within lists, a rule disabled', () => {
    expect(sameJson({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
    expect(sameJson({ objectID: 'r', enabled: false }, { objectID: 'r' })).toBe(false);
    expect(sameJson({ alternatives: true }, {})).toBe(false);
    expect(sameJson({ a: 'x' }, { a: 'x ' })).toBe(false);
  });

  it('leaves out the fields the server adds, and splits lists typed with commas', () => {
    expect(withoutServerFields({ objectID: 'a', _highlightResult: {}, _metadata: {} })).toEqual({ objectID: 'a' });
    expect(splitList(' a, b ,, c,')).toEqual(['a', 'b', 'c']);
  });
});
