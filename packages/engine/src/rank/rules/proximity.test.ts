/**
 * Properties checked (criterion `proximity`):
 * - query words next to each other rank before words further apart;
 * - words in reverse order cost one more than in order;
 * - words in different attributes count as far apart (the cap);
 * - minProximity makes nearby distances tie.
 */
import { describe, expect, it } from 'vitest';
import { ranked } from './fixture.ts';

const settings = { searchableAttributes: ['name', 'brand'] };

describe('proximity criterion', () => {
  const records = [
    { objectID: 'p1', name: 'shoe for running' }, // reversed, two apart: distance 3
    { objectID: 'p2', name: 'running trail shoe' }, // in order, two apart: distance 2
    { objectID: 'p3', name: 'running shoe' }, // adjacent: distance 1, first
    { objectID: 'p4', name: 'running', brand: 'shoe' }, // different attributes: capped, last
  ];

  it('ranks closer words first', () => {
    expect(ranked(records, settings, { query: 'running shoe', queryType: 'prefixNone' })).toEqual(['p3', 'p2', 'p1', 'p4']);
  });

  it('ties distances under minProximity', () => {
    // minProximity 3: p1, p2 and p3 all count as 3 and fall back to insertion order (the attribute
    // criterion sees them all in the first attribute at position 0).
    expect(ranked(records, { ...settings, minProximity: 3 }, { query: 'running shoe', queryType: 'prefixNone' })).toEqual(['p1', 'p2', 'p3', 'p4']);
  });
});
