import { describe, expect, it } from 'vitest';
import { buildRecord, convertCell, parseColumn } from './csv-values.ts';
import type { Column } from './csv-values.ts';

const columns = (...headers: string[]) => headers.map((h) => parseColumn(h) as Column);

describe('CSV type inference', () => {
  it('infers numbers, booleans, JSON and lists, and keeps the rest as text', () => {
    expect(convertCell('12', 'auto')).toBe(12);
    expect(convertCell('-3.5', 'auto')).toBe(-3.5);
    expect(convertCell('1e3', 'auto')).toBe(1000);
    expect(convertCell('007', 'auto')).toBe('007');
    expect(convertCell('+1', 'auto')).toBe('+1');
    expect(convertCell('12345678901234567890', 'auto')).toBe('12345678901234567890');
    expect(convertCell('true', 'auto')).toBe(true);
    expect(convertCell('[1,"a"]', 'auto')).toEqual([1, 'a']);
    expect(convertCell('[not json', 'auto')).toBe('[not json');
    expect(convertCell('a | b|', 'auto')).toEqual(['a', 'b']);
    expect(convertCell('plain text', 'auto')).toBe('plain text');
  });

  it('honours forced types and explains misfits', () => {
    expect(convertCell('12', 'string')).toBe('12');
    expect(convertCell('one', 'list')).toEqual(['one']);
    expect(() => convertCell('abc', 'number')).toThrow(/not a number/);
    expect(() => convertCell('yes', 'boolean')).toThrow(/not a boolean/);
  });

  it('parses headers: type suffixes, nested paths, objectID always text', () => {
    expect(parseColumn('price:number')).toEqual({ path: ['price'], type: 'number' });
    expect(parseColumn('a.b')).toEqual({ path: ['a', 'b'], type: 'auto' });
    expect(parseColumn('objectID')).toEqual({ path: ['objectID'], type: 'string' });
    expect(parseColumn('time:12')).toEqual({ path: ['time:12'], type: 'auto' });
  });

  it('refuses header names that would reach an object prototype', () => {
    expect(parseColumn('__proto__.polluted')).toMatch(/not allowed/);
    expect(parseColumn('a.constructor')).toMatch(/not allowed/);
    expect(parseColumn(' ')).toMatch(/empty/);
  });

  it('builds nested records and leaves empty cells out', () => {
    expect(buildRecord(columns('objectID', 'h.lvl0', 'h.lvl1', 'n'), ['42', 'A', 'A > B', ''])).toEqual({
      objectID: '42',
      h: { lvl0: 'A', lvl1: 'A > B' },
    });
  });
});
