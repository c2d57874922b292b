import { describe, expect, it } from 'vitest';
import { parseJsonSafely } from './json.ts';

describe('parseJsonSafely', () => {
  it('parses ordinary JSON', () => {
    expect(parseJsonSafely('{"a":[1,{"b":2}]}', 64)).toEqual({ a: [1, { b: 2 }] });
  });
  it('rejects malformed JSON with a 400', () => {
    expect(() => parseJsonSafely('{"a":', 64)).toThrow(expect.objectContaining({ status: 400, message: expect.stringMatching(/^Invalid JSON body/) }));
  });
  it('rejects nesting past the cap, even a million levels deep', () => {
    expect(() => parseJsonSafely('['.repeat(65) + ']'.repeat(65), 64)).toThrow(/nesting deeper than 64/);
    expect(() => parseJsonSafely('['.repeat(1e6) + ']'.repeat(1e6), 64)).toThrow(/nesting deeper than 64/);
    expect(parseJsonSafely('['.repeat(64) + ']'.repeat(64), 64)).toBeInstanceOf(Array);
  });
  it('rejects prototype-poisoning keys, including escaped ones', () => {
    expect(() => parseJsonSafely('{"a":{"__proto__":{"x":1}}}', 64)).toThrow(/__proto__/);
    expect(() => parseJsonSafely('{"\\u005f_proto__":{"x":1}}', 64)).toThrow(/__proto__/);
    expect(() => parseJsonSafely('{"constructor":{"prototype":{"x":1}}}', 64)).toThrow(/constructor/);
    expect(parseJsonSafely('{"constructor":"Acme"}', 64)).toEqual({ constructor: 'Acme' });
  });
});
