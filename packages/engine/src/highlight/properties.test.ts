/**
 * Properties tested (fast-check), over text mixing ASCII, accents (composed and decomposed), ß, ligatures,
 * CJK, astral characters, HTML-looking text and separators:
 * - removing the tags from any highlighted value gives back the original value exactly;
 * - matchLevel agrees with matchedWords (none ⇔ no word, full ⇔ every word), fullyHighlighted is present
 *   exactly when something matched, and a value carries tags exactly when some word matched;
 * - the result mirrors the record's shape (objects, arrays, leaves) for random JSON records;
 * - snippets: at most N words (ellipsis aside), the snippet text is a slice of the value, nothing is cut when
 *   the value has at most N words, and the window holds as many distinct query words as the best window
 *   found by brute force.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeText, tokenize } from '../tokenize/index.ts';
import { highlightRecord, snippetRecord } from './index.ts';
import { matchedLength } from './match.ts';
import type { HighlightQuery, HighlightWord } from './types.ts';

// Tags that never occur in generated text, so stripping them is exact.
const PRE = '\u0001[';
const POST = ']\u0002';
const options = { preTag: PRE, postTag: POST, separatorsToIndex: '', ellipsis: '…' };
const ELLIPSIS = '\u0003';
const strip = (value: string) => value.split(PRE).join('').split(POST).join('');

const VOCABULARY = [
  'Apple', 'apple', 'Laptop', 'laptops', 'café', 'CAFE', 'e\u0301cole', 'École', 'Straße', 'strasse', 'ﬁne',
  'iPhone', 'naïve', '日本語', '𠀀x', '42', 'red', 'Red', 'shoes', '<b>bold</b>', 'a&amp;b',
];
const SEPARATORS = [' ', ', ', '-', '  ', '\n', ' / ', '…', '. '];

const textArbitrary = fc
  .array(fc.tuple(fc.oneof(fc.constantFrom(...VOCABULARY), fc.string({ maxLength: 4 })), fc.constantFrom(...SEPARATORS)), { maxLength: 25 })
  .map((parts) => parts.map(([w, s]) => w + s).join(''));

const wordArbitrary: fc.Arbitrary<HighlightWord> = fc
  .tuple(fc.constantFrom(...VOCABULARY, 'lapt', 'caf', 'stras', 'xyz'), fc.boolean(), fc.integer({ min: 0, max: 2 }), fc.boolean())
  .map(([text, prefix, maxTypos, withAlternative]) => ({
    original: text,
    term: normalizeText(text),
    prefix,
    maxTypos,
    ...(withAlternative ? { alternatives: [normalizeText(text) + 's'] } : {}),
  }))
  .filter((w) => w.term.length > 0 && tokenize(w.original).length === 1);

const queryArbitrary: fc.Arbitrary<HighlightQuery> = fc.array(wordArbitrary, { maxLength: 4 }).map((words) => ({ words }));

describe('highlighted values', () => {
  it('strip back to the original and report consistent match data', () => {
    fc.assert(
      fc.property(textArbitrary, queryArbitrary, (text, query) => {
        const result = highlightRecord({ text }, ['text'], query, options).text as {
          value: string;
          matchLevel: string;
          matchedWords: string[];
          fullyHighlighted?: boolean;
        };
        expect(strip(result.value)).toBe(text);
        const matched = result.matchedWords.length;
        expect(result.matchLevel).toBe(matched === 0 ? 'none' : matched === query.words.length ? 'full' : 'partial');
        expect(result.value.includes(PRE)).toBe(matched > 0);
        expect('fullyHighlighted' in result).toBe(matched > 0);
        // matchedWords: the originals of the words some token matches, in query order.
        const tokens = tokenize(text);
        const expected = query.words.filter((w) => tokens.some((t) => matchedLength(t.term, w) > 0)).map((w) => w.original);
        expect(result.matchedWords).toEqual(expected);
      }),
      { numRuns: 1500 },
    );
  });

  it('mirror the shape of the record', () => {
    type Shape = 'leaf' | Shape[] | { [key: string]: Shape };
    // Expected shape: strings and finite numbers are leaves; inside arrays every element is kept; in objects,
    // values without text (booleans, null) are left out.
    const shapeOf = (value: unknown, inArray: boolean): Shape | undefined => {
      if (typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))) return 'leaf';
      if (Array.isArray(value)) return value.map((item) => shapeOf(item, true)!);
      if (value !== null && typeof value === 'object') {
        // fromEntries, not assignment: a "__proto__" key (fc.jsonValue makes some) must stay a plain key.
        const entries: Array<[string, Shape]> = [];
        for (const [k, v] of Object.entries(value)) {
          const s = shapeOf(v, false);
          if (s !== undefined) entries.push([k, s]);
        }
        return Object.fromEntries(entries);
      }
      return inArray ? 'leaf' : undefined;
    };
    const shapeOfResult = (value: unknown): Shape => {
      if (Array.isArray(value)) return value.map(shapeOfResult);
      if (value !== null && typeof value === 'object' && 'matchLevel' in value) return 'leaf';
      return Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, shapeOfResult(v)]));
    };
    const key = fc.constantFrom('name', 'tags', 'meta', 'a', 'b', 'objectID', '_private');
    const record = fc.dictionary(key, fc.jsonValue({ maxDepth: 4 }), { maxKeys: 5 });
    fc.assert(
      fc.property(record, queryArbitrary, (rec, query) => {
        const result = highlightRecord(rec, ['*'], query, options);
        const expected: Record<string, Shape> = {};
        for (const [k, v] of Object.entries(rec)) {
          if (k === 'objectID' || k.startsWith('_')) continue;
          const s = shapeOf(v, false);
          if (s !== undefined) expected[k] = s;
        }
        expect(shapeOfResult(result)).toEqual(expected);
      }),
      { numRuns: 600 },
    );
  });
});

describe('snippets', () => {
  const matchedWordsIn = (text: string, query: HighlightQuery, from: number, to: number) => {
    const tokens = tokenize(text).slice(from, to);
    return query.words.filter((w) => tokens.some((t) => matchedLength(t.term, w) > 0)).length;
  };

  it('hold at most N words around the best window', () => {
    fc.assert(
      fc.property(textArbitrary, queryArbitrary, fc.integer({ min: 1, max: 8 }), (text, query, words) => {
        // An ellipsis marker that never occurs in the text, so it can be removed exactly.
        const snippet = snippetRecord({ text }, [{ attribute: 'text', words }], query, { ...options, ellipsis: ELLIPSIS }).text as {
          value: string;
          matchLevel: string;
        };
        const tokens = tokenize(text);
        let inner = strip(snippet.value);
        if (tokens.length <= words) {
          expect(inner).toBe(text);
          return;
        }
        // Remove the ellipses (and the space that stands for a cut on whitespace) to get a slice of the value.
        if (inner.startsWith(ELLIPSIS)) inner = inner.slice(1).replace(/^ /, '');
        if (inner.endsWith(ELLIPSIS)) inner = inner.slice(0, -1).replace(/ $/, '');
        expect(inner.includes(ELLIPSIS)).toBe(false);
        expect(text.includes(inner)).toBe(true);
        const snippetTokens = tokenize(inner);
        expect(snippetTokens.length).toBeLessThanOrEqual(words);
        let best = 0;
        for (let start = 0; start + words <= tokens.length; start++) best = Math.max(best, matchedWordsIn(text, query, start, start + words));
        expect(query.words.filter((w) => snippetTokens.some((t) => matchedLength(t.term, w) > 0)).length).toBe(best);
      }),
      { numRuns: 1500 },
    );
  });

  it('cuts with the ellipsis and keeps the value whole when short enough', () => {
    const query = { words: [{ original: 'fox', term: 'fox', prefix: false, maxTypos: 0 }] };
    const text = 'The quick brown fox jumps over the lazy dog.';
    const snip = (words: number, ellipsis = '…') =>
      snippetRecord({ text, list: [text, 'fox'] }, [{ attribute: 'text', words }, { attribute: 'list', words }], query, { ...options, preTag: '<em>', postTag: '</em>', ellipsis });
    expect(snip(3).text).toEqual({ value: '… brown <em>fox</em> jumps …', matchLevel: 'full' });
    expect(snip(3, '').text).toEqual({ value: 'brown <em>fox</em> jumps', matchLevel: 'full' });
    expect(snip(20).text).toEqual({ value: 'The quick brown <em>fox</em> jumps over the lazy dog.', matchLevel: 'full' });
    expect(snip(3).list).toEqual([
      { value: '… brown <em>fox</em> jumps …', matchLevel: 'full' },
      { value: '<em>fox</em>', matchLevel: 'full' },
    ]);
    const none = snippetRecord({ text }, [{ attribute: 'text', words: 4 }], { words: [] }, options).text;
    expect(none).toEqual({ value: 'The quick brown fox …', matchLevel: 'none' });
    const end = snippetRecord({ text }, [{ attribute: 'text', words: 2 }], { words: [{ original: 'dog', term: 'dog', prefix: false, maxTypos: 0 }] }, options).text;
    expect(end).toEqual({ value: `… lazy ${PRE}dog${POST}.`, matchLevel: 'full' });
  });

  it('merges dotted specs under one parent', () => {
    const record = { meta: { a: 'one two three', b: 'four five' } };
    expect(snippetRecord(record, [{ attribute: 'meta.a', words: 1 }, { attribute: 'meta.b', words: 5 }], { words: [] }, options)).toEqual({
      meta: { a: { value: 'one …', matchLevel: 'none' }, b: { value: 'four five', matchLevel: 'none' } },
    });
  });
});
