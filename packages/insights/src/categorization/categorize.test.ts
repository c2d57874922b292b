/** Query categorization's predictions against values worked out by hand (the rules are in `categorize.ts`). */
import { describe, expect, it } from 'vitest';
import { binOf, categorize } from './categorize.ts';

const LEVELS = ['c.lvl0', 'c.lvl1', 'c.lvl2'];

describe('query categorization', () => {
  it('follows the path down while a value holds half the engagement: narrow, binned by the deepest share', () => {
    const records = [
      { weight: 6, path: ['Home', 'Home > Lighting', 'Home > Lighting > Lamps'] },
      { weight: 3, path: ['Home', 'Home > Lighting', 'Home > Lighting > Shades'] },
      { weight: 1, path: ['Toys', 'Toys > Blocks', undefined] },
    ];
    // Home 0.9, Home > Lighting 0.9, Lamps 0.6 (high); Toys 0.1 is below 0.25, not predicted.
    expect(categorize('lamp', 42, records, LEVELS)).toEqual({
      normalizedQuery: 'lamp', count: 42, type: 'narrow',
      categories: [{ bin: 'high', hierarchyPath: [
        { facetName: 'c.lvl0', facetValue: 'Home', depth: 0 },
        { facetName: 'c.lvl1', facetValue: 'Home > Lighting', depth: 1 },
        { facetName: 'c.lvl2', facetValue: 'Home > Lighting > Lamps', depth: 2 },
      ] }],
    });
  });

  it('predicts every broad category holding a quarter: ambiguous', () => {
    const records = [
      { weight: 5, path: ['A', 'A > x'] },
      { weight: 4, path: ['B', 'B > y'] },
      { weight: 1, path: ['C', undefined] },
    ];
    // A 0.5 then A > x 0.5 (high); B 0.4, B > y 0.4 < 0.5 stops there (low); C 0.1 left out.
    expect(categorize('gift', 7, records, ['c.lvl0', 'c.lvl1'])).toEqual({
      normalizedQuery: 'gift', count: 7, type: 'ambiguous',
      categories: [
        { bin: 'high', hierarchyPath: [{ facetName: 'c.lvl0', facetValue: 'A', depth: 0 }, { facetName: 'c.lvl1', facetValue: 'A > x', depth: 1 }] },
        { bin: 'low', hierarchyPath: [{ facetName: 'c.lvl0', facetValue: 'B', depth: 0 }] },
      ],
    });
  });

  it('is broad when no level below the broadest holds half', () => {
    // A > x holds 3 / 8, under half.
    const records = [{ weight: 3, path: ['A', 'A > x'] }, { weight: 3, path: ['A', 'A > y'] }, { weight: 2, path: ['A', 'A > z'] }];
    expect(categorize('a', 1, records, ['c.lvl0', 'c.lvl1'])).toMatchObject({ type: 'broad', categories: [{ bin: 'certain', hierarchyPath: [{ facetValue: 'A' }] }] });
  });

  it('says nothing under the minimum evidence or without categories', () => {
    expect(categorize('x', 3, [{ weight: 4, path: ['A'] }], LEVELS)).toEqual({});
    expect(categorize('x', 3, [{ weight: 10, path: [undefined] }], LEVELS)).toEqual({});
  });

  it('bins shares at 0.9, 0.75, 0.5 and 0.25', () => {
    expect([0.95, 0.9, 0.8, 0.75, 0.6, 0.5, 0.3, 0.25, 0.2].map(binOf)).toEqual(['certain', 'certain', 'very high', 'very high', 'high', 'high', 'low', 'low', 'very low']);
  });
});
