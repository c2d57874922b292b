/**
 * Properties tested:
 * - word matching: exact, alternatives, prefix (only the typed prefix is wrapped), typos (Damerau: a
 *   transposition is one edit; prefix words compared with a prefix of the token), diacritics and case folding
 *   with the *original* characters wrapped (é stays é, ß stays ß);
 * - tags are inserted verbatim, the value is not HTML-escaped, each matched word gets its own tag pair;
 * - matchLevel / matchedWords / fullyHighlighted as Algolia reports them;
 * - record walking: `*`, dotted paths, nested objects and arrays mirrored, booleans and nulls handled,
 *   `__proto__` keys kept as plain keys;
 * - search-for-facet-values highlighting;
 * - Damerau distance against a plain recursive definition (fast-check).
 */
import type { HighlightResultOption } from '@vitrine/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { highlightFacetValue, highlightRecord } from './index.ts';
import { editDistance, matchedLength } from './match.ts';
import type { HighlightWord } from './types.ts';

const options = { preTag: '<em>', postTag: '</em>', separatorsToIndex: '' };
const word = (original: string, extra: Partial<HighlightWord> = {}): HighlightWord => ({
  original,
  term: original.toLowerCase(),
  prefix: false,
  maxTypos: 0,
  ...extra,
});
const highlight = (text: string, ...words: HighlightWord[]) =>
  highlightRecord({ text }, ['text'], { words }, options).text as HighlightResultOption;

describe('matching a token', () => {
  it('matches exactly, through alternatives, and as a prefix', () => {
    expect(matchedLength('laptop', word('laptop'))).toBe(6);
    expect(matchedLength('laptops', word('laptop', { alternatives: ['laptops'] }))).toBe(7);
    expect(matchedLength('laptop', word('lapt', { prefix: true }))).toBe(4);
    expect(matchedLength('laptop', word('lapt'))).toBe(0);
    expect(matchedLength('lap', word('lapt', { prefix: true }))).toBe(0);
  });

  it('allows typos on whole words and on prefixes of similar length', () => {
    expect(matchedLength('iphone', word('iphnoe', { maxTypos: 1 }))).toBe(6); // transposition = 1
    expect(matchedLength('iphone', word('iphxne', { maxTypos: 1 }))).toBe(6);
    expect(matchedLength('iphone', word('ipxxne', { maxTypos: 1 }))).toBe(0);
    expect(matchedLength('iphone', word('ipxxne', { maxTypos: 2 }))).toBe(6);
    expect(matchedLength('laptop', word('lpat', { prefix: true, maxTypos: 1 }))).toBe(4);
    expect(matchedLength('laptop', word('laptoo', { prefix: true, maxTypos: 1 }))).toBe(6);
  });

  it('computes the optimal-string-alignment distance', () => {
    const reference = (a: string, b: string): number => {
      if (a.length === 0) return b.length;
      if (b.length === 0) return a.length;
      const cost = a[a.length - 1] === b[b.length - 1] ? 0 : 1;
      let best = Math.min(
        reference(a.slice(0, -1), b) + 1,
        reference(a, b.slice(0, -1)) + 1,
        reference(a.slice(0, -1), b.slice(0, -1)) + cost,
      );
      if (a.length > 1 && b.length > 1 && a[a.length - 1] === b[b.length - 2] && a[a.length - 2] === b[b.length - 1]) {
        best = Math.min(best, reference(a.slice(0, -2), b.slice(0, -2)) + 1);
      }
      return best;
    };
    const short = fc.string({ unit: fc.constantFrom('a', 'b', 'c'), maxLength: 6 });
    fc.assert(
      fc.property(short, short, fc.integer({ min: 0, max: 3 }), (a, b, max) => {
        expect(editDistance(a, b, max)).toBe(Math.min(reference(a, b), max + 1));
      }),
      { numRuns: 800 },
    );
  });
});

describe('highlighting a value', () => {
  it('wraps the original characters of folded matches', () => {
    expect(highlight('Un Café crème', word('cafe')).value).toBe('Un <em>Café</em> crème');
    expect(highlight('École', word('ecole')).value).toBe('<em>École</em>');
    // Decomposed é (e + combining acute): the accent stays inside the tag.
    expect(highlight('E\u0301cole', word('ec', { prefix: true })).value).toBe('<em>E\u0301c</em>ole');
    expect(highlight('Straße', word('strasse')).value).toBe('<em>Straße</em>');
    expect(highlight('Straße', word('stras', { prefix: true })).value).toBe('<em>Straß</em>e');
  });

  it('wraps only the typed prefix of a prefix match', () => {
    expect(highlight('Gaming Laptop', word('lapt', { prefix: true }))).toEqual({
      value: 'Gaming <em>Lapt</em>op',
      matchLevel: 'full',
      matchedWords: ['lapt'],
      fullyHighlighted: false,
    });
  });

  it('tags each matched word separately and inserts tags verbatim without escaping', () => {
    const result = highlightRecord(
      { name: 'Apple <iPhone> & co' },
      ['name'],
      { words: [word('apple'), word('iphone')] },
      { preTag: '<mark class="x">', postTag: '</mark>', separatorsToIndex: '' },
    );
    expect(result.name).toEqual({
      value: '<mark class="x">Apple</mark> <<mark class="x">iPhone</mark>> & co',
      matchLevel: 'full',
      matchedWords: ['apple', 'iphone'],
      fullyHighlighted: false,
    });
  });

  it('reports matchLevel, matchedWords in query order and fullyHighlighted', () => {
    const words = [word('red'), word('Shoes'), word('nike')];
    expect(highlight('Shoes, red', ...words)).toEqual({
      value: '<em>Shoes</em>, <em>red</em>',
      matchLevel: 'partial',
      matchedWords: ['red', 'Shoes'],
      fullyHighlighted: true,
    });
    expect(highlight('Nike red shoes', ...words).matchLevel).toBe('full');
    expect(highlight('Adidas', ...words)).toEqual({ value: 'Adidas', matchLevel: 'none', matchedWords: [] });
    expect(highlight('anything')).toEqual({ value: 'anything', matchLevel: 'none', matchedWords: [] });
  });

  it('honours separatorsToIndex', () => {
    const result = highlightRecord({ t: 'I like C++ and C#' }, ['t'], { words: [word('c++')] }, { ...options, separatorsToIndex: '+#' });
    expect(result.t).toMatchObject({ value: 'I like <em>C++</em> and C#' });
  });
});

describe('highlightRecord walks the record', () => {
  const query = { words: [word('blue')] };
  const record = {
    objectID: 'x1',
    _tags: ['blue'],
    name: 'Blue shirt',
    price: 12,
    inStock: true,
    colors: ['Blue', 'navy', null, false, 3],
    meta: { material: { name: 'cotton blue' }, ok: false },
    'a.b': 'literal blue',
  };

  it('highlights every top-level attribute but objectID and _-prefixed ones with *', () => {
    const result = highlightRecord(record, ['*'], query, options);
    expect(Object.keys(result)).toEqual(['name', 'price', 'colors', 'meta', 'a.b']);
    expect(result.price).toEqual({ value: '12', matchLevel: 'none', matchedWords: [] });
    expect(result.colors).toEqual([
      { value: '<em>Blue</em>', matchLevel: 'full', matchedWords: ['blue'], fullyHighlighted: true },
      { value: 'navy', matchLevel: 'none', matchedWords: [] },
      { value: '', matchLevel: 'none', matchedWords: [] },
      { value: 'false', matchLevel: 'none', matchedWords: [] },
      { value: '3', matchLevel: 'none', matchedWords: [] },
    ]);
    expect(result.meta).toEqual({
      material: { name: { value: 'cotton <em>blue</em>', matchLevel: 'full', matchedWords: ['blue'], fullyHighlighted: false } },
    });
  });

  it('follows dotted paths, through keys holding dots too, and skips missing attributes', () => {
    const result = highlightRecord(record, ['meta.material.name', 'a.b', 'missing', 'meta.nope', 'inStock'], query, options);
    expect(result).toEqual({
      meta: { material: { name: { value: 'cotton <em>blue</em>', matchLevel: 'full', matchedWords: ['blue'], fullyHighlighted: false } } },
      'a.b': { value: 'literal <em>blue</em>', matchLevel: 'full', matchedWords: ['blue'], fullyHighlighted: false },
    });
  });

  it('keeps a "__proto__" key as a plain key', () => {
    const hostile = JSON.parse('{"__proto__": {"polluted": "blue"}, "meta": {"__proto__": {"polluted": "blue"}}}') as Record<string, unknown>;
    const direct = highlightRecord(hostile, ['__proto__'], query, options);
    const nested = highlightRecord(hostile, ['*'], query, options).meta as Record<string, unknown>;
    for (const result of [direct, nested]) {
      expect(Object.hasOwn(result, '__proto__')).toBe(true);
      expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
      expect((result as Record<string, Record<string, unknown>>).__proto__.polluted).toMatchObject({ value: '<em>blue</em>' });
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('highlightFacetValue', () => {
  it('highlights the facet query as prefixes', () => {
    const query = { words: [word('sam', { prefix: true }), word('gal', { prefix: true })] };
    expect(highlightFacetValue('Samsung Galaxy', query, options)).toBe('<em>Sam</em>sung <em>Gal</em>axy');
    expect(highlightFacetValue('Apple', query, options)).toBe('Apple');
  });
});
