import { describe, expect, it } from 'vitest';
import { ChecksumAccumulator, comparisonTable } from './checksum.ts';
import type { StoredRecord } from '../importer/index-content.ts';

function checksumOf(records: StoredRecord[]) {
  const accumulator = new ChecksumAccumulator();
  for (const record of records) accumulator.add(record);
  return accumulator.result();
}

const a = { objectID: 'a', name: 'Alpha', tags: ['x', 'y'], meta: { size: 1, colour: 'red' } };
const b = { objectID: 'b', name: 'Beta', price: 12.5 };

describe('record checksum', () => {
  it('ignores the order of records and of attributes', () => {
    const reordered = { meta: { colour: 'red', size: 1 }, tags: ['x', 'y'], name: 'Alpha', objectID: 'a' };
    expect(checksumOf([b, reordered])).toEqual(checksumOf([a, b]));
    expect(checksumOf([a, b]).records).toBe(2);
  });

  it('changes with any value, with the order inside a list, and with a repeated record', () => {
    const base = checksumOf([a, b]).checksum;
    expect(checksumOf([a, { ...b, price: 12.51 }]).checksum).not.toBe(base);
    expect(checksumOf([{ ...a, tags: ['y', 'x'] }, b]).checksum).not.toBe(base);
    expect(checksumOf([{ ...a, objectID: 'c' }, b]).checksum).not.toBe(base);
    // A sum, not XOR: the same record twice does not cancel out to an empty index.
    expect(checksumOf([a, a]).checksum).not.toBe(checksumOf([]).checksum);
  });

  it('prints one row per index, marking differences', () => {
    const same = checksumOf([a]);
    const table = comparisonTable([
      { indexName: 'shop', source: same, destination: same },
      { indexName: 'blog', source: checksumOf([a, b]), destination: same },
    ]);
    expect(table.split('\n')[2]).toMatch(/^shop\s+1\s+1\s+[0-9a-f]{16}\s+[0-9a-f]{16}\s+identical$/);
    expect(table.split('\n')[3]).toMatch(/^blog\s+2\s+1\s.*DIFFERENT$/);
  });
});
