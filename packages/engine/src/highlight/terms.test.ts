/**
 * Properties tested (fast-check, against brute force and the frozen reference):
 * - `WordMatcher.match` (first-letters filter + memo) gives what trying every word with `matchedLength` gives,
 *   for terms made from the words by 0–3 random edits (so typo matches at the first letters, where the filter
 *   decides, come up often), over an alphabet with accents and astral characters;
 * - the same holds when one matcher serves many terms in a row (memo hits);
 * - the test on raw ASCII tokens (any case) never turns away a token whose term matches;
 * - `matchedLength` (one distance table for every prefix length) agrees with the reference implementation's
 *   (one table per prefix length), including around surrogate pairs.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchedLength } from './match.ts';
import { matchedLength as referenceMatchedLength } from './reference/match.ts';
import { WordMatcher } from './terms.ts';
import type { HighlightWord } from './types.ts';

const ALPHABET = ['a', 'b', 'c', 'd', 'é', 'ß', '𠀀', '\uD800'];
const letters = (max: number) => fc.array(fc.constantFrom(...ALPHABET), { maxLength: max }).map((parts) => parts.join(''));

/** One random edit: substitute, insert, delete or swap two neighbours, at a random code unit. */
const edit = (text: string, kind: number, at: number, letter: string): string => {
  const i = text.length === 0 ? 0 : at % text.length;
  switch (kind) {
    case 0:
      return text.slice(0, i) + letter + text.slice(i + 1);
    case 1:
      return text.slice(0, i) + letter + text.slice(i);
    case 2:
      return text.slice(0, i) + text.slice(i + 1);
    default:
      return i + 1 < text.length ? text.slice(0, i) + text[i + 1] + text[i] + text.slice(i + 2) : text;
  }
};
const edits = fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.nat(20), fc.constantFrom(...ALPHABET)), { maxLength: 3 });

const wordOf = (spelling: fc.Arbitrary<string>, typos: fc.Arbitrary<number>): fc.Arbitrary<HighlightWord> =>
  fc
    .record({ term: spelling, prefix: fc.boolean(), maxTypos: typos, alternatives: fc.option(fc.array(spelling, { maxLength: 2 }), { nil: undefined }) })
    .map((w) => ({ original: w.term, term: w.term, prefix: w.prefix, maxTypos: w.maxTypos, ...(w.alternatives === undefined ? {} : { alternatives: w.alternatives }) }));
const wordArbitrary = wordOf(letters(9), fc.constantFrom(0, 1, 1, 2));
/** Words the first-letters filter applies to (no surrogates, at most one typo); their terms may have any. */
const filteredWordArbitrary = wordOf(
  fc.array(fc.constantFrom('a', 'b', 'c', 'é'), { minLength: 1, maxLength: 7 }).map((parts) => parts.join('')),
  fc.constantFrom(0, 1),
);

/** A term near one of the words (or a longer term it prefixes, or an alternative), or an unrelated one. */
const termNear = (words: HighlightWord[]) =>
  fc
    .tuple(fc.nat(), fc.constantFrom('word', 'prefix', 'alternative', 'random'), edits, letters(6), letters(3))
    .map(([pick, kind, changes, random, tail]) => {
      const word = words[pick % words.length];
      let base = kind === 'random' ? random : kind === 'alternative' ? (word.alternatives?.[0] ?? random) : word.term;
      if (kind === 'prefix') base += tail;
      for (const [k, at, letter] of changes) base = edit(base, k, at, letter);
      return base;
    })
    .filter((term) => term.length > 0);

const bruteForce = (term: string, words: HighlightWord[]) => {
  let best = 0;
  const matched: number[] = [];
  words.forEach((word, w) => {
    const length = matchedLength(term, word);
    if (length > 0) matched.push(w);
    best = Math.max(best, length);
  });
  return { best, words: matched };
};

describe('WordMatcher', () => {
  const scenario = (word: fc.Arbitrary<HighlightWord>) =>
    fc.array(word, { minLength: 1, maxLength: 3 }).chain((words) => fc.tuple(fc.constant(words), fc.array(termNear(words), { minLength: 1, maxLength: 30 })));
  const check = ([words, terms]: [HighlightWord[], string[]]) => {
    const matcher = new WordMatcher(words);
    // Twice over: first computed, then from the memo.
    for (const term of [...terms, ...terms]) {
      const expected = bruteForce(term, words);
      expect(matcher.match(term)).toEqual(expected);
      // ASCII text is tested before its term is made, on the raw token: any case must do.
      const raw = [...term].map((ch, i) => (i % 2 === term.length % 2 ? ch.toUpperCase() : ch)).join('');
      if (/^[a-z]*$/.test(term) && expected.best > 0) expect(matcher.mayMatchAscii(`(${raw})`, 1, raw.length + 1)).toBe(true);
    }
  };

  it('matches every term exactly as trying each word would', () => {
    fc.assert(fc.property(scenario(wordArbitrary), check), { numRuns: 2000 });
    fc.assert(fc.property(scenario(filteredWordArbitrary), check), { numRuns: 2000 });
  });

  it('turns unrelated terms away only when no word can match them', () => {
    const words: HighlightWord[] = [{ original: 'laptop', term: 'laptop', prefix: true, maxTypos: 1 }];
    const matcher = new WordMatcher(words);
    // Typos at the first letters still match: swap, substitution, insertion before, deletion of the first.
    for (const term of ['alptop', 'xaptop', 'xlaptop', 'aptop', 'laptops', '𠀀aptop']) expect(matcher.match(term).best).toBeGreaterThan(0);
    expect(matcher.match('desk')).toEqual({ best: 0, words: [] });
  });
});

describe('matchedLength', () => {
  it('agrees with the reference implementation', () => {
    fc.assert(
      fc.property(wordArbitrary, letters(12), edits, fc.boolean(), (word, random, changes, near) => {
        let term = near ? word.term + random.slice(0, 3) : random;
        for (const [k, at, letter] of changes) term = edit(term, k, at, letter);
        expect(matchedLength(term, word)).toBe(referenceMatchedLength(term, word));
      }),
      { numRuns: 5000 },
    );
  });
});
