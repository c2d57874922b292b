/**
 * Properties tested (fast-check, against the tokenizer itself, so a change to its rules shows up here first):
 * - on any ASCII text and any separatorsToIndex, `asciiBounds` finds exactly `tokenize`'s token offsets, and
 *   each term is the token's text in lower case;
 * - on text with a non-ASCII character it gives up (returns -1);
 * - `tokenBounds` finds `tokenize`'s token offsets on any text, however many tokens (the scratch grows).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tokenize, type Token } from '../tokenize/index.ts';
import { asciiBounds, scratchBounds, tokenBounds } from './text.ts';

const asciiChar = fc.integer({ min: 0, max: 127 }).map((code) => String.fromCharCode(code));
const wordy = fc.constantFrom('a', 'Z', '9', ' ', '-', '+', '#', '_', '.', '\u0000', '\u007f');
const asciiText = fc.array(fc.oneof(asciiChar, wordy), { maxLength: 40 }).map((chars) => chars.join(''));
const separators = fc.oneof(fc.constant(''), fc.array(fc.oneof(asciiChar, fc.constantFrom('+', '#', '-', 'é')), { maxLength: 4 }).map((c) => c.join('')));

/** Checks that `count` tokens in the scratch bounds are `tokenize`'s; returns the tokens. */
function expectTokenizerBounds(count: number, text: string, separatorsToIndex: string): Token[] {
  const tokens = tokenize(text, separatorsToIndex);
  expect(count).toBe(tokens.length);
  expect([...scratchBounds().subarray(0, 2 * count)]).toEqual(tokens.flatMap((token) => [token.start, token.end]));
  return tokens;
}

describe('asciiBounds', () => {
  it('finds the tokenizer tokens of ASCII text', () => {
    fc.assert(
      fc.property(asciiText, separators, (text, separatorsToIndex) => {
        const tokens = expectTokenizerBounds(asciiBounds(text, separatorsToIndex), text, separatorsToIndex);
        for (const token of tokens) expect(text.slice(token.start, token.end).toLowerCase()).toBe(token.term);
      }),
      { numRuns: 3000 },
    );
  });

  it('gives up on text with any non-ASCII character', () => {
    fc.assert(
      fc.property(asciiText, fc.constantFrom('é', '\u0080', '日', '𠀀', '\u00a0'), asciiText, (before, odd, after) => {
        expect(asciiBounds(before + odd + after, '')).toBe(-1);
      }),
      { numRuns: 300 },
    );
  });

  it('tokenBounds finds the tokenizer tokens of any text', () => {
    const anyText = fc.oneof(asciiText, fc.string({ maxLength: 40 }), fc.array(fc.constantFrom('é', 'ab ', '日本 ', '𠀀', 'x-y '), { maxLength: 300 }).map((p) => p.join('')));
    fc.assert(
      fc.property(anyText, separators, (text, separatorsToIndex) => {
        expectTokenizerBounds(tokenBounds(text, separatorsToIndex), text, separatorsToIndex);
      }),
      { numRuns: 1000 },
    );
  });
});
