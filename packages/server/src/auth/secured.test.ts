import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeSecuredKey, parseRestrictions, verifySecuredKey } from './secured.ts';

function secured(parent: string, params: string): string {
  return Buffer.from(createHmac('sha256', parent).update(params).digest('hex') + params).toString('base64');
}

describe('secured API keys', () => {
  const parent = 'a'.repeat(32);

  it('verifies the HMAC against the parent key only', () => {
    const key = secured(parent, 'filters=brand%3AApple&validUntil=2000000000');
    const decoded = decodeSecuredKey(key)!;
    expect(decoded.params).toBe('filters=brand%3AApple&validUntil=2000000000');
    expect(verifySecuredKey(parent, decoded)).toBe(true);
    expect(verifySecuredKey('b'.repeat(32), decoded)).toBe(false);
  });

  it('rejects tampered params', () => {
    const decoded = decodeSecuredKey(secured(parent, 'filters=brand%3AApple'))!;
    expect(verifySecuredKey(parent, { ...decoded, params: 'filters=brand%3ASony' })).toBe(false);
  });

  it('does not take ordinary keys for secured ones', () => {
    expect(decodeSecuredKey('0123456789abcdef0123456789abcdef')).toBeUndefined();
  });

  it('parses v5 (comma lists) and v4 (JSON lists) restrictions alike', () => {
    const v5 = parseRestrictions('restrictIndices=a%2Cb&validUntil=42&userToken=u1');
    const v4 = parseRestrictions(`restrictIndices=${encodeURIComponent('["a","b"]')}&validUntil=42&userToken=u1`);
    for (const parsed of [v5, v4]) {
      expect(parsed.restrictIndices).toEqual(['a', 'b']);
      expect(parsed.validUntil).toBe(42);
      expect(parsed.userToken).toBe('u1');
      expect(parsed.searchParams).toEqual({});
    }
  });

  it('keeps an empty restrictIndices as an empty list (no index), apart from an absent one', () => {
    for (const params of ['restrictIndices=', `restrictIndices=${encodeURIComponent('[]')}`, `restrictIndices=${encodeURIComponent('[""]')}`, 'restrictIndices=%2C%20']) {
      expect(parseRestrictions(params).restrictIndices, params).toEqual([]);
    }
    expect(parseRestrictions(`restrictIndices=${encodeURIComponent('["", "a"]')}`).restrictIndices).toEqual(['a']);
    expect(parseRestrictions('filters=x').restrictIndices).toBeUndefined();
  });

  it('keeps other parameters as forced search parameters', () => {
    const parsed = parseRestrictions(`filters=${encodeURIComponent('price < 10')}&hitsPerPage=5&facetFilters=${encodeURIComponent('["brand:Apple"]')}&restrictSources=10.0.0.0%2F8`);
    expect(parsed.searchParams).toEqual({ filters: 'price < 10', hitsPerPage: 5, facetFilters: ['brand:Apple'] });
    expect(parsed.restrictSources).toBe('10.0.0.0/8');
  });
});
