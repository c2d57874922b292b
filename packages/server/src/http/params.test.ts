import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultLimits } from '../config.ts';
import { ApiError } from '../errors.ts';
import { countParams, mergeParams, parseParamsString, validateSearchParams } from './params.ts';

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

  it('counts JSON fields and params entries together against maxSearchParameters, and refuses past it before decoding any', () => {
    const junk = (count: number) => Array.from({ length: count }, (_, i) => `j${i}=%5B1%5D`).join('&');
    const limit = defaultLimits.maxSearchParameters;
    expect(Object.keys(mergeParams({ indexName: 'i', params: junk(limit) }, 64, limit))).toHaveLength(limit);
    const refusal = `Too many parameters: ${limit + 1}, the limit is ${limit} per search`;
    expect(() => mergeParams({ indexName: 'i', query: 'a', params: junk(limit) }, 64, limit)).toThrow(refusal);
    expect(() => mergeParams({ params: `${junk(limit)}&query=a` }, 64, limit)).toThrow(refusal);
    expect(() => mergeParams({ params: Object.fromEntries(Array.from({ length: limit + 1 }, (_, i) => [`j${i}`, 1])) }, 64, limit)).toThrow(refusal);
    expect(() => parseParamsString(junk(limit + 1))).toThrow(ApiError);
    // Empty entries are no parameters (URLSearchParams skips them); a 30,000-entry string is refused at once.
    expect(countParams('&a=1&&b&')).toBe(2);
    const started = performance.now();
    expect(() => mergeParams({ params: junk(30_000) }, 64, limit)).toThrow(ApiError);
    expect(performance.now() - started).toBeLessThan(50);
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

  it('refuses a list parameter past maxListEntries, filters counted to their second level', () => {
    const names = (count: number) => Array.from({ length: count }, (_, i) => `a${i}`);
    const max = defaultLimits.maxListEntries;
    expect(validateSearchParams({ attributesToHighlight: names(max), facets: names(max) }, defaultLimits).facets).toHaveLength(max);
    expect(() => validateSearchParams({ attributesToHighlight: names(60_000) }, defaultLimits)).toThrow(`Parameter too long: "attributesToHighlight" has 60000 entries, the limit is ${max}`);
    expect(() => validateSearchParams(parseParamsString(`attributesToRetrieve=${names(max + 1).join(',')}`), defaultLimits)).toThrow(/"attributesToRetrieve" has 1001 entries/);
    expect(() => validateSearchParams({ facetFilters: [names(max / 2), names(max / 2), 'brand:x'] }, defaultLimits)).toThrow(/"facetFilters" has 1001 entries/);
    expect(() => validateSearchParams({ optionalWords: names(max + 1) }, { ...defaultLimits, maxListEntries: max + 1 })).not.toThrow();
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
