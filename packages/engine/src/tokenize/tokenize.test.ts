/**
 * Properties checked: the tokenizer's ASCII fast path splits and folds exactly like a plain per-character
 * reference (Unicode letters/numbers/marks are word characters, `separatorsToIndex` characters too; terms are
 * `normalizeText` of the word; offsets point into the original text; positions count words), on random mixes
 * of ASCII, accented, astral and punctuation characters.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { normalizeText } from './normalize.ts';
import { terms, tokenize, type Token } from './tokenize.ts';

function reference(text: string, separators: string): Token[] {
  const tokens: Token[] = [];
  let start = -1;
  let position = 0;
  let index = 0;
  const push = (end: number): void => {
    const term = normalizeText(text.slice(start, end));
    if (term.length > 0) tokens.push({ term, start, end, position });
    position++;
  };
  for (const ch of text) {
    const word = /[\p{L}\p{N}\p{M}]/u.test(ch) || (separators.length > 0 && separators.includes(ch));
    if (word && start < 0) start = index;
    if (!word && start >= 0) {
      push(index);
      start = -1;
    }
    index += ch.length;
  }
  if (start >= 0) push(index);
  return tokens;
}

const pieces = fc.constantFrom('a', 'Z', 'q', '7', ' ', '-', '+', '#', '.', 'é', 'É', 'ß', 'Æ', 'ñ', '\u0301', '中', '𠀀', "'", '\t', 'Ω');
const text = fc.array(pieces, { maxLength: 30 }).map((parts) => parts.join(''));

describe('tokenize', () => {
  it('matches the per-character reference', () => {
    fc.assert(
      fc.property(text, fc.constantFrom('', '+', '#+', '-'), (value, separators) => {
        expect(tokenize(value, separators)).toEqual(reference(value, separators));
        expect(terms(value, separators)).toEqual(reference(value, separators).map((t) => t.term));
      }),
      { numRuns: 500 },
    );
  });

  it('folds case and diacritics and keeps offsets on the original text', () => {
    expect(tokenize('Crème BRÛLÉE, c++ 42')).toEqual([
      { term: 'creme', start: 0, end: 5, position: 0 },
      { term: 'brulee', start: 6, end: 12, position: 1 },
      { term: 'c', start: 14, end: 15, position: 2 },
      { term: '42', start: 18, end: 20, position: 3 },
    ]);
    expect(terms('c++ primer', '+')).toEqual(['c++', 'primer']);
  });
});
