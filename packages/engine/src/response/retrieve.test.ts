/**
 * Property tested: `encodeParams` writes what `URLSearchParams` writes for the same parameters, in the same
 * order, for any names and values (any Unicode, lone surrogates, the characters the two encodings treat apart,
 * spaces), objects and arrays as JSON, undefined values left out.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeParams } from './retrieve.ts';

const tricky = fc.constantFrom(' ', '!', "'", '(', ')', '~', '*', '-', '.', '_', '+', '&', '=', '%', '\ud800', '\udc00', '😀', 'é', '\n');
const text = fc.oneof(fc.string({ unit: 'binary', maxLength: 12 }), fc.array(tricky, { maxLength: 8 }).map((chars) => chars.join('')));
const value = fc.oneof(text, fc.integer(), fc.boolean(), fc.constant(undefined), fc.array(text, { maxLength: 3 }), fc.dictionary(text, text, { maxKeys: 2 }));

function viaSearchParams(params: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [key, v] of Object.entries(params)) if (v !== undefined) search.append(key, typeof v === 'string' ? v : JSON.stringify(v));
  return search.toString();
}

describe('encodeParams', () => {
  it('encodes as URLSearchParams does', () => {
    fc.assert(
      fc.property(fc.dictionary(text, value, { maxKeys: 5 }), (params) => {
        expect(encodeParams(params)).toBe(viaSearchParams(params));
      }),
      { numRuns: 2000 },
    );
  });
});
