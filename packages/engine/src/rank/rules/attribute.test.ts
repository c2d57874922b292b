/**
 * Properties checked (criterion `attribute`):
 * - a match in an earlier searchable attribute ranks first;
 * - within an ordered attribute, a match nearer the start ranks first;
 * - `unordered(attr)` ignores the position; attributes listed together ("a,b") share a rank;
 * - restrictSearchableAttributes limits the attributes searched.
 */
import { describe, expect, it } from 'vitest';
import { ranked } from './fixture.ts';

describe('attribute criterion', () => {
  const settings = { searchableAttributes: ['name', 'brand,maker', 'unordered(description)'] };
  const records = [
    { objectID: 'a1', name: 'tent', description: 'a light acme tent' }, // description (rank 2): last
    { objectID: 'a2', name: 'the acme tent' }, // name, position 1: second
    { objectID: 'a3', name: 'tent', brand: 'acme' }, // brand (rank 1): third
    { objectID: 'a4', name: 'acme tent' }, // name, position 0: first
    { objectID: 'a5', name: 'tent', maker: 'acme' }, // maker shares brand's rank: ties a3, inserted later
    { objectID: 'a6', name: 'tent', description: 'acme' }, // ties a1 on attribute (unordered); exact (value alone) wins
  ];

  it('ranks by attribute, then position within ordered attributes', () => {
    expect(ranked(records, settings, { query: 'acme', queryType: 'prefixNone' })).toEqual(['a4', 'a2', 'a3', 'a5', 'a6', 'a1']);
  });

  it('searches only the restricted attributes', () => {
    expect(ranked(records, settings, { query: 'acme', queryType: 'prefixNone', restrictSearchableAttributes: ['brand'] })).toEqual(['a3']);
  });
});

describe('attribute criterion, position in unordered attributes', () => {
  it('ignores where the word sits in an unordered attribute', () => {
    const settings = { searchableAttributes: ['unordered(description)'] };
    const records = [
      { objectID: 'u1', description: 'a light and sturdy acme tent' }, // position 4, unordered: ties u2
      { objectID: 'u2', description: 'acme tent' }, // position 0, unordered: ties u1; inserted later
    ];
    expect(ranked(records, settings, { query: 'acme', queryType: 'prefixNone' })).toEqual(['u1', 'u2']);
  });
});
