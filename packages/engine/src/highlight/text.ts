import type { MatchLevel } from '@vitrine/protocol';
import { forEachToken, normalizeText } from '../tokenize/index.ts';
import { NO_MATCH, NO_WORDS, type WordMatcher } from './terms.ts';

/** One string analysed against a query: where its tokens are, which to wrap, and which query words it holds. */
export interface TextMatch {
  text: string;
  /** Per token, two entries: its start and end offsets in `text` (end exclusive). */
  bounds: number[];
  /**
   * Per token: the end of the range to wrap (it starts at the token's start) or -1, and the indexes of the
   * query words it matches. Both null when no token matched, the usual case, to spare the arrays.
   */
  marks: number[] | null;
  tokenWords: number[][] | null;
  /** How many words the query has. */
  wordTotal: number;
  matchLevel: MatchLevel;
  /** The originals of the query words some token matches, in query order. Never hand this array out. */
  matchedWords: string[];
  /** Every token is wholly highlighted (and there is at least one). */
  fullyCovered: boolean;
  /** The whole value as last rendered, and the tags it was rendered with (null: not yet). */
  rendered: string;
  renderedPre: string | null;
  renderedPost: string | null;
}

const NO_STRINGS: string[] = [];

const COMBINING_MARK = /\p{M}/u;

/**
 * Original characters of `original` (one token) covering its first `length` normalised characters.
 * Normalisation may change lengths (ß → ss, e + combining accent → e), so grow a prefix until its normal
 * form is long enough, then keep any combining marks that belong to the last letter.
 */
export function originalPrefixLength(original: string, length: number): number {
  // ASCII folds one character to one, and no ASCII character is a combining mark.
  let ascii = true;
  for (let i = 0; i < original.length && ascii; i++) ascii = original.charCodeAt(i) < 128;
  if (ascii && length > 0) return Math.min(length, original.length);
  let end = 0;
  for (const ch of original) {
    end += ch.length;
    if (normalizeText(original.slice(0, end)).length >= length) break;
  }
  while (end < original.length) {
    const next = String.fromCodePoint(original.codePointAt(end)!);
    if (!COMBINING_MARK.test(next)) break;
    end += next.length;
  }
  return end;
}

/**
 * Token bounds of pure-ASCII text, exactly as `forEachToken` (tokenize/) finds them, but without making a term
 * string per token. Highlighting needs the term only of tokens that may match a query word, which a look at
 * their first three characters usually rules out (`WordMatcher`, terms.ts), and snippets for a query without
 * words need no terms at all. Most catalogue text is ASCII, and there `forEachToken`'s rules are simple: a
 * token is a run of ASCII letters, digits and `separatorsToIndex` characters, and its term is the run in lower
 * case (never empty). `text.test.ts` holds this to `tokenize` on random ASCII text.
 */

/** ASCII letters and digits, by char code (the tokenizer's word characters below 128). */
const WORD = new Uint8Array(128);
for (let c = 48; c <= 57; c++) WORD[c] = 1;
for (let c = 65; c <= 90; c++) WORD[c] = 1;
for (let c = 97; c <= 122; c++) WORD[c] = 1;

/**
 * Appends each token's start and end to `bounds` and returns true, or returns false as soon as a character
 * is not ASCII (`bounds` then holds a partial result the caller must drop).
 */
export function asciiBounds(text: string, separatorsToIndex: string, bounds: number[]): boolean {
  const n = text.length;
  const separators = separatorsToIndex.length > 0;
  let start = -1;
  for (let i = 0; i < n; i++) {
    const code = text.charCodeAt(i);
    if (code >= 128) return false;
    const word = WORD[code] === 1 || (separators && separatorsToIndex.includes(text[i]));
    if (word) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      bounds.push(start, i);
      start = -1;
    }
  }
  if (start >= 0) bounds.push(start, n);
  return true;
}

/** Tokenises and matches `text`; without a matcher (no query words) only the token bounds are found. */
export function analyseText(text: string, matcher: WordMatcher | null, separatorsToIndex: string): TextMatch {
  // Tokens first, matching after, in a plain loop: cheaper than doing the work inside the visitor. ASCII
  // text is cut without making terms; only tokens that may match get one.
  let bounds: number[] = [];
  let terms: string[] | null = null;
  if (!asciiBounds(text, separatorsToIndex, bounds)) {
    const found: number[] = [];
    const foundTerms: string[] = [];
    forEachToken(text, separatorsToIndex, (term, _position, start, end) => {
      found.push(start, end);
      foundTerms.push(term);
    });
    bounds = found;
    terms = foundTerms;
  }
  const count = bounds.length / 2;
  const words = matcher === null ? [] : matcher.words;
  const wordTotal = words.length;
  let marks: number[] | null = null;
  let tokenWords: number[][] | null = null;
  let wordMatched: number[] | null = null;
  let fullyCovered = count > 0;
  if (matcher !== null && wordTotal > 0) {
    for (let t = 0; t < count; t++) {
      const start = bounds[2 * t];
      const end = bounds[2 * t + 1];
      let match = NO_MATCH;
      // An ASCII term has the token's length.
      let termLength = end - start;
      if (terms !== null) {
        match = matcher.match(terms[t]);
        termLength = terms[t].length;
      } else if (matcher.mayMatchAscii(text, start, end)) {
        match = matcher.lookUp(text.slice(start, end).toLowerCase());
      }
      if (match.best === 0) {
        fullyCovered = false;
        if (marks !== null) {
          marks.push(-1);
          tokenWords!.push(NO_WORDS);
        }
        continue;
      }
      if (marks === null) {
        // First match: the tokens before it matched nothing.
        marks = [];
        tokenWords = [];
        for (let before = 0; before < t; before++) {
          marks.push(-1);
          tokenWords.push(NO_WORDS);
        }
        wordMatched = new Array<number>(wordTotal).fill(0);
      }
      tokenWords!.push(match.words);
      for (let i = 0; i < match.words.length; i++) wordMatched![match.words[i]] = 1;
      if (match.best >= termLength) {
        marks.push(end);
      } else {
        marks.push(start + originalPrefixLength(text.slice(start, end), match.best));
        fullyCovered = false;
      }
    }
  } else {
    fullyCovered = false;
  }
  let matchedWords = NO_STRINGS;
  if (wordMatched !== null) {
    matchedWords = [];
    for (let w = 0; w < wordTotal; w++) if (wordMatched[w] === 1) matchedWords.push(words[w].original);
  }
  const matchLevel: MatchLevel = matchedWords.length === 0 ? 'none' : matchedWords.length === wordTotal ? 'full' : 'partial';
  return { text, bounds, marks, tokenWords, wordTotal, matchLevel, matchedWords, fullyCovered, rendered: text, renderedPre: null, renderedPost: null };
}

/**
 * The text between `from` and `to` with each highlighted range wrapped in the tags, verbatim: no HTML
 * escaping (Algolia does none; the UI escapes). Each matched word gets its own tag pair, as Algolia does —
 * separators between two matched words stay outside the tags.
 */
export function renderText(match: TextMatch, preTag: string, postTag: string, from = 0, to = match.text.length): string {
  const { text, bounds, marks } = match;
  if (marks === null) return from === 0 && to === text.length ? text : text.slice(from, to);
  let out = '';
  let cursor = from;
  for (let t = 0; t < marks.length; t++) {
    const start = bounds[2 * t];
    const end = marks[t];
    if (end < 0 || start < from || end > to) continue;
    out += text.slice(cursor, start) + preTag + text.slice(start, end) + postTag;
    cursor = end;
  }
  return out + text.slice(cursor, to);
}

/** The whole value highlighted; rendered once per page and set of tags. */
export function renderWhole(match: TextMatch, preTag: string, postTag: string): string {
  if (match.marks === null) return match.text;
  if (match.renderedPre !== preTag || match.renderedPost !== postTag) {
    match.rendered = renderText(match, preTag, postTag);
    match.renderedPre = preTag;
    match.renderedPost = postTag;
  }
  return match.rendered;
}
