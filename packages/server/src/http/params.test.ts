import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultLimits } from '../config.ts';
import { ApiError } from '../errors.ts';
import { mergeParams, parseParamsString, validateSearchParams } from './params.ts';

describe('parseParamsString (v4 params)', () => {
  it('coerces numbers, booleans, JSON arrays and comma lists by parameter', () => {
    const params = parseParamsString(
      'query=123&hitsPerPage=20&page=0&getRankingInfo=true&facetFilters=%5B%22brand%3AApple%22%2C%5B%22color%3Ared%22%2C%22color%3Ablue%22%5D%5D&attributesToRetrieve=name,brand&facets=%5B%22brand%22%5D&filters=price%20%3E%2010',
    );
    expect(params).toEqual({
      query: '123',
      hitsPerPage: 20,
      page: 0,
      getRankingInfo: true,
      facetFilters: ['brand:Apple', ['color:red', 'color:blue']],
      attributesToRetrieve: ['name', 'brand'],
      facets: ['brand'],
      filters: 'price > 10',
    });
  });

  it('keeps typoTolerance strings and distinct numbers', () => {
    expect(parseParamsString('typoTolerance=min&distinct=2&ignorePlurals=true')).toEqual({ typoTolerance: 'min', distinct: 2, ignorePlurals: true });
  });

  it('keeps unknown parameters, JSON-decoded when they look like JSON', () => {
    expect(parseParamsString('custom=abc&tagsJson=%5B1%5D')).toEqual({ custom: 'abc', tagsJson: [1] });
  });

  it('rejects a non-numeric number with a 400', () => {
    expect(() => parseParamsString('hitsPerPage=lots')).toThrow(ApiError);
    expect(() => parseParamsString('hitsPerPage=lots')).toThrow(/hitsPerPage/);
  });

  it('never sets prototype keys', () => {
    const params = parseParamsString('__proto__=x&constructor=y&query=q');
    expect(Object.getPrototypeOf(params)).toBe(Object.prototype);
    expect(params).toEqual({ query: 'q' });
  });
});

describe('mergeParams', () => {
  it('lets the params string override JSON fields and drops routing fields', () => {
    expect(mergeParams({ indexName: 'i', type: 'default', query: 'a', hitsPerPage: 5, params: 'query=b' })).toEqual({ query: 'b', hitsPerPage: 5 });
  });
  it('accepts params given as an object', () => {
    expect(mergeParams({ params: { query: 'x' } })).toEqual({ query: 'x' });
  });
});

describe('validateSearchParams', () => {
  it('enforces the query length and hitsPerPage limits', () => {
    expect(() => validateSearchParams({ query: 'x'.repeat(513) }, defaultLimits)).toThrow(/Query too long: 513 bytes/);
    expect(() => validateSearchParams({ hitsPerPage: 1001 }, defaultLimits)).toThrow(/hitsPerPage/);
    expect(() => validateSearchParams({ page: -1 }, defaultLimits)).toThrow(/page/);
    expect(validateSearchParams({ query: 'é'.repeat(256), hitsPerPage: 1000 }, defaultLimits).hitsPerPage).toBe(1000);
  });

  it('bounds what the search log stores: analytics tags and the user token', () => {
    // Each tag set and user token becomes part of analytics rows' keys: a public search key must not grow them at will.
    expect(() => validateSearchParams({ analyticsTags: Array.from({ length: 101 }, (_, i) => `t${i}`) }, defaultLimits)).toThrow(/analyticsTags/);
    expect(() => validateSearchParams({ analyticsTags: ['x'.repeat(130)] }, defaultLimits)).toThrow(/analyticsTags/);
    expect(() => validateSearchParams({ analyticsTags: 'mobile' } as never, defaultLimits)).toThrow(ApiError);
    expect(() => validateSearchParams({ userToken: 'u'.repeat(130) }, defaultLimits)).toThrow(/userToken/);
    expect(validateSearchParams({ analyticsTags: ['mobile', 'x'.repeat(129)], userToken: 'u'.repeat(129) }, defaultLimits).userToken).toHaveLength(129);
    expect(validateSearchParams(parseParamsString('analyticsTags=mobile,fr'), defaultLimits).analyticsTags).toEqual(['mobile', 'fr']);
  });

  it('throws only ApiErrors (4xx) on arbitrary params strings', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), fc.constantFrom('hitsPerPage', 'facetFilters', 'query', 'page', 'distinct', 'attributesToRetrieve', 'getRankingInfo'), (value, name) => {
        try {
          validateSearchParams(parseParamsString(`${name}=${encodeURIComponent(value)}`), defaultLimits);
        } catch (error) {
          expect(error).toBeInstanceOf(ApiError);
          expect((error as ApiError).status).toBeLessThan(500);
        }
      }),
      { numRuns: 500 },
    );
  });
});
