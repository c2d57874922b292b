/**
 * The optimised highlighting must answer byte-for-byte what the pre-optimisation code did (kept verbatim in
 * `reference/`). Properties tested:
 * - random records (nested objects, arrays, numbers, booleans, nulls, `__proto__` keys) × random queries
 *   (exact, prefix, typo, alternative words; empty) × random tags, separators and ellipses: the same
 *   `_highlightResult`, `_snippetResult` and facet highlight, compared as JSON (so key order counts too);
 * - one query object reused for a whole page of records, as a search does, so anything memoised per query
 *   (term matches, analysed values) is exercised across hits and options;
 * - demo catalogue records with realistic queries: name prefixes, typos, several words, plurals, empty;
 * - hits never share result objects, even when they hold the same value.
 */
import { generateProducts } from '@vitrine/demo';
import type { HighlightResultOption } from '@vitrine/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeText, tokenize } from '../tokenize/index.ts';
import * as optimised from './index.ts';
import * as reference from './reference/index.ts';
import type { HighlightQuery, HighlightWord, SnippetOptions } from './types.ts';

const VOCABULARY = [
  'Apple', 'apple', 'Laptop', 'laptops', 'lap', 'café', 'CAFE', 'e\u0301cole', 'École', 'Straße', 'strasse', 'ﬁne',
  'iPhone', 'iphnoe', 'naïve', '日本語', '𠀀x', 'x𠀀y', '42', '4.5', 'red', 'Red', 'shoes', 'shoe', '<b>bold</b>',
  'C++', 'c#', 'wi-fi', 'Bike', 'bikes', 'biek', '\u0301', 'Œuvre', 'ŁÓDŹ',
];
const SEPARATORS = [' ', ', ', '-', '  ', '\n', ' / ', '…', '. ', ''];

const textArbitrary = fc
  .array(fc.tuple(fc.oneof(fc.constantFrom(...VOCABULARY), fc.string({ maxLength: 4 })), fc.constantFrom(...SEPARATORS)), { maxLength: 30 })
  .map((parts) => parts.map(([w, s]) => w + s).join(''));

const wordArbitrary: fc.Arbitrary<HighlightWord> = fc
  .tuple(
    fc.oneof(fc.constantFrom(...VOCABULARY, 'lapt', 'caf', 'stras', 'xyz', 'b', '𠀀'), fc.string({ minLength: 1, maxLength: 5 })),
    fc.boolean(),
    fc.integer({ min: 0, max: 2 }),
    fc.array(fc.constantFrom(...VOCABULARY).map(normalizeText), { maxLength: 2 }),
  )
  .map(([text, prefix, maxTypos, alternatives]) => ({
    original: text,
    term: normalizeText(text),
    prefix,
    maxTypos,
    ...(alternatives.length > 0 ? { alternatives } : {}),
  }));

const queryArbitrary: fc.Arbitrary<HighlightQuery> = fc.array(wordArbitrary, { maxLength: 4 }).map((words) => ({ words }));

const leaf = fc.oneof(textArbitrary, fc.integer(), fc.double(), fc.boolean(), fc.constant(null));
const valueArbitrary = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom('a', 'b', 'name', '__proto__', 'x.y'), tie('value'), { maxKeys: 3 }),
  ),
})).value;
const recordArbitrary = fc.dictionary(fc.constantFrom('name', 'tags', 'meta', 'a', 'objectID', '_private', '__proto__', 'a.b'), valueArbitrary, { maxKeys: 5 });
const attributesArbitrary = fc.array(fc.constantFrom('*', 'name', 'tags', 'meta', 'meta.a', 'meta.b', 'a.b', 'a', '__proto__', 'missing'), { minLength: 1, maxLength: 3 });

const optionsArbitrary: fc.Arbitrary<SnippetOptions> = fc.record({
  preTag: fc.constantFrom('<em>', '', '<mark class="x">', '$'),
  postTag: fc.constantFrom('</em>', '', '</mark>', '$'),
  separatorsToIndex: fc.constantFrom('', '+#', '-', '.'),
  ellipsis: fc.constantFrom('…', '', '...'),
});

const json = (value: unknown) => JSON.stringify(value);

/** Every output of one page of records for one query, from one implementation. */
function page(impl: typeof reference, records: Record<string, unknown>[], attributes: string[], query: HighlightQuery, options: SnippetOptions, words: number): string[] {
  const specs = attributes.map((attribute, i) => ({ attribute, words: words + i }));
  return records.flatMap((record) => [
    json(impl.highlightRecord(record, attributes, query, options)),
    json(impl.snippetRecord(record, specs, query, options)),
    json(typeof record.name === 'string' ? impl.highlightFacetValue(record.name, query, options) : null),
  ]);
}

describe('optimised highlighting matches the reference implementation', () => {
  it('on random records, queries and options', () => {
    fc.assert(
      fc.property(fc.array(recordArbitrary, { minLength: 1, maxLength: 4 }), attributesArbitrary, queryArbitrary, optionsArbitrary, fc.integer({ min: 1, max: 6 }), (records, attributes, query, options, words) => {
        // Each implementation gets its own query object, reused across the page.
        const expected = page(reference, records, attributes, structuredClone(query), options, words);
        expect(page(optimised, records, attributes, query, options, words)).toEqual(expected);
      }),
      { numRuns: 1500 },
    );
  });

  it('when one query object serves several option sets in turn', () => {
    fc.assert(
      fc.property(fc.array(textArbitrary, { minLength: 1, maxLength: 6 }), queryArbitrary, fc.array(optionsArbitrary, { minLength: 2, maxLength: 3 }), (texts, query, optionSets) => {
        const records = texts.map((text) => ({ name: text, copy: text }));
        const mine = structuredClone(query);
        for (const options of optionSets) {
          expect(page(optimised, records, ['*'], mine, options, 3)).toEqual(page(reference, records, ['*'], query, options, 3));
        }
      }),
      { numRuns: 500 },
    );
  });

  it('on demo catalogue records with realistic queries', () => {
    const products = [...generateProducts(400, 3)] as unknown as Record<string, unknown>[];
    const attributes = ['name', 'brand', 'categories', 'hierarchicalCategories.lvl0', 'hierarchicalCategories.lvl1', 'hierarchicalCategories.lvl2', 'description'];
    const options = { preTag: '<em>', postTag: '</em>', separatorsToIndex: '', ellipsis: '…' };
    // Queries as the search stage builds them: prefix on the last word, typos from 4 and 8 letters, plurals.
    const toQuery = (text: string): HighlightQuery => {
      const terms = tokenize(text);
      return {
        words: terms.map((t, i) => ({
          original: text.slice(t.start, t.end),
          term: t.term,
          prefix: i === terms.length - 1,
          maxTypos: t.term.length >= 8 ? 2 : t.term.length >= 4 ? 1 : 0,
          ...(t.term.endsWith('s') ? {} : { alternatives: [t.term + 's'] }),
        })),
      };
    };
    const typo = (word: string, at: number) => (word.length < 4 ? word : word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: products.length - 20 }), fc.integer({ min: 0, max: 10 }), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 6 }), fc.constantFrom('prefix', 'typo', 'whole', 'empty', 'other'), (first, pick, count, cut, kind) => {
        const records = products.slice(first, first + 20);
        const name = String(records[pick].name).split(' ');
        let text = name.slice(0, count).join(' ');
        if (kind === 'prefix') text = text.slice(0, Math.max(1, text.length - cut));
        if (kind === 'typo') text = name.slice(0, count).map((w) => typo(w, cut % Math.max(1, w.length - 1))).join(' ');
        if (kind === 'empty') text = '';
        if (kind === 'other') text = ['red shoes', 'wireless headphnoes', 'building', 'bike', 'stainless steel', 'grey'][cut % 6];
        const query = toQuery(text);
        expect(page(optimised, records, attributes, query, options, 20)).toEqual(page(reference, records, attributes, structuredClone(query), options, 20));
      }),
      { numRuns: 300 },
    );
  });
});

describe('results are fresh objects', () => {
  it('never shares an option, its matchedWords or a nested result between hits', () => {
    const query = { words: [{ original: 'red', term: 'red', prefix: true, maxTypos: 0 }] };
    const options = { preTag: '<em>', postTag: '</em>', separatorsToIndex: '', ellipsis: '…' };
    const record = { name: 'Red shoes', tags: ['red', 'red'], meta: { a: 'red' } };
    type Result = { name: HighlightResultOption; tags: HighlightResultOption[]; meta: object };
    const first = optimised.highlightRecord(record, ['*'], query, options) as unknown as Result;
    const second = optimised.highlightRecord(record, ['*'], query, options) as unknown as Result;
    expect(second).toEqual(first);
    expect(second.name).not.toBe(first.name);
    expect(second.name.matchedWords).not.toBe(first.name.matchedWords);
    expect(first.tags[1]).not.toBe(first.tags[0]);
    expect(first.tags[1].matchedWords).not.toBe(first.tags[0].matchedWords);
    expect(second.meta).not.toBe(first.meta);
    const snippet = optimised.snippetRecord(record, [{ attribute: 'name', words: 1 }], query, options);
    expect(optimised.snippetRecord(record, [{ attribute: 'name', words: 1 }], query, options).name).not.toBe(snippet.name);
  });
});
