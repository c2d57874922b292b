import { describe, expect, it } from 'vitest';
import { applyPartial, partialBodyError } from './partial.ts';

describe('applyPartial', () => {
  const record = { objectID: 'a', stock: 5, tags: ['x', 'y'], name: 'Lamp' };

  it('replaces plain attributes and keeps the others', () => {
    expect(applyPartial(record, { name: 'Desk lamp' }, 'a')).toEqual({ ...record, name: 'Desk lamp' });
  });

  it('never mutates the current record', () => {
    const copy = structuredClone(record);
    applyPartial(record, { stock: { _operation: 'Increment', value: 1 }, tags: { _operation: 'Add', value: 'z' } }, 'a');
    expect(record).toEqual(copy);
  });

  it('computes Increment and Decrement, from 0 when missing', () => {
    expect(applyPartial(record, { stock: { _operation: 'Increment', value: 2 } }, 'a').stock).toBe(7);
    expect(applyPartial(record, { stock: { _operation: 'Decrement', value: 2 } }, 'a').stock).toBe(3);
    expect(applyPartial(record, { sold: { _operation: 'Increment', value: 3 } }, 'a').sold).toBe(3);
  });

  it('applies IncrementFrom only when the current value is the expected one', () => {
    expect(applyPartial(record, { stock: { _operation: 'IncrementFrom', value: 5 } }, 'a').stock).toBe(6);
    expect(applyPartial(record, { stock: { _operation: 'IncrementFrom', value: 4 } }, 'a').stock).toBe(5);
    expect(applyPartial(record, { version: { _operation: 'IncrementFrom', value: 0 } }, 'a').version).toBe(1);
  });

  it('applies IncrementSet only upwards', () => {
    expect(applyPartial(record, { stock: { _operation: 'IncrementSet', value: 9 } }, 'a').stock).toBe(9);
    expect(applyPartial(record, { stock: { _operation: 'IncrementSet', value: 2 } }, 'a').stock).toBe(5);
  });

  it('handles Add, AddUnique and Remove on arrays', () => {
    expect(applyPartial(record, { tags: { _operation: 'Add', value: 'x' } }, 'a').tags).toEqual(['x', 'y', 'x']);
    expect(applyPartial(record, { tags: { _operation: 'AddUnique', value: 'x' } }, 'a').tags).toEqual(['x', 'y']);
    expect(applyPartial(record, { tags: { _operation: 'AddUnique', value: 'z' } }, 'a').tags).toEqual(['x', 'y', 'z']);
    expect(applyPartial(record, { tags: { _operation: 'Remove', value: 'x' } }, 'a').tags).toEqual(['y']);
    expect(applyPartial(record, { colors: { _operation: 'Add', value: 'red' } }, 'a').colors).toEqual(['red']);
  });

  it('creates the record from the objectID when there is none', () => {
    expect(applyPartial(undefined, { name: 'New', objectID: 'ignored' }, 'b')).toEqual({ objectID: 'b', name: 'New' });
  });

  it('ignores a __proto__ attribute instead of changing the prototype', () => {
    const body = JSON.parse('{"__proto__": {"polluted": true}, "name": "x"}') as Record<string, unknown>;
    const next = applyPartial(record, body, 'a');
    expect(Object.getPrototypeOf(next)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('partialBodyError', () => {
  it('accepts plain values and known operations', () => {
    expect(partialBodyError({ a: 1, b: { nested: true }, c: { _operation: 'Add', value: 'x' } })).toBeUndefined();
  });
  it('rejects unknown operations and non-numeric increments', () => {
    expect(partialBodyError({ a: { _operation: 'Multiply', value: 2 } })).toMatch(/unknown _operation "Multiply"/);
    expect(partialBodyError({ a: { _operation: 'Increment', value: '2' } })).toMatch(/needs a numeric value/);
  });
});
