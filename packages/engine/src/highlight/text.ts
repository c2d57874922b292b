import type { MatchLevel } from '@vitrine/protocol';
import { forEachToken, normalizeText } from '../tokenize/index.ts';
import { NO_MATCH, type WordMatcher } from './terms.ts';
import type { HighlightWord } from './types.ts';

/**
 * One string analysed against a query: how many tokens it has, which to wrap, and which query words it holds.
 * Sparse: only the matched tokens are kept (a page's values have dozens of tokens, of which a few match), so an
 * analysis allocates next to nothing beyond its own object; the other tokens' offsets are found again
 * (`tokenBounds`) when a snippet has to cut the value.
 */
export interface TextMatch {
  text: string;
  /** How many tokens `text` has. */
  tokenCount: number;
  /**
   * Per matched token, in order, three numbers: its index among the tokens, its start offset in `text`, and the
   * end of the range to wrap (which starts at the token's start). Null when no token matched, the usual case.
   */
  marks: number[] | null;
  /** How many words the query has. */
  wordTotal: number;
  /** `text` is pure ASCII. */
  ascii: boolean;
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
const NO_HIGHLIGHT_WORDS: HighlightWord[] = [];

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

/*
 * Scratch space shared by every analysis (the engine is synchronous, and each search thread has its own copy of
 * this module): token offsets, and the matches of the value being analysed before they are copied out at their
 * exact size. Allocating these per value was most of what highlighting allocated per search.
 */
let bounds = new Int32Array(256);
let matchedScratch = new Uint8Array(16);
const markScratch: number[] = [];

/** Token t of the last `tokenBounds` or `asciiBounds` call spans `scratchBounds()[2t] .. [2t + 1]` (until the next call). */
export function scratchBounds(): Int32Array {
  return bounds;
}

function boundsRoom(count: number): void {
  if (2 * count + 2 <= bounds.length) return;
  const grown = new Int32Array(Math.max(2 * count + 2, bounds.length * 2));
  grown.set(bounds);
  bounds = grown;
}

/**
 * Writes each token's start and end into the scratch bounds and returns how many tokens there are, or returns
 * -1 as soon as a character is not ASCII (the scratch then holds a partial result).
 */
export function asciiBounds(text: string, separatorsToIndex: string): number {
  const n = text.length;
  const separators = separatorsToIndex.length > 0;
  let start = -1;
  let count = 0;
  for (let i = 0; i < n; i++) {
    const code = text.charCodeAt(i);
    if (code >= 128) return -1;
    const word = WORD[code] === 1 || (separators && separatorsToIndex.includes(text[i]));
    if (word) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      boundsRoom(count);
      bounds[2 * count] = start;
      bounds[2 * count + 1] = i;
      count++;
      start = -1;
    }
  }
  if (start >= 0) {
    boundsRoom(count);
    bounds[2 * count] = start;
    bounds[2 * count + 1] = n;
    count++;
  }
  return count;
}

/** The tokens of any text into the scratch bounds (`scratchBounds`), as `forEachToken` finds them; returns their count. */
export function tokenBounds(text: string, separatorsToIndex: string): number {
  const ascii = asciiBounds(text, separatorsToIndex);
  return ascii >= 0 ? ascii : visitedBounds(text, separatorsToIndex, null);
}

/** `tokenBounds` through the tokenizer itself (text that is not pure ASCII), each token's term pushed to `terms`. */
function visitedBounds(text: string, separatorsToIndex: string, terms: string[] | null): number {
  let count = 0;
  forEachToken(text, separatorsToIndex, (term, _position, start, end) => {
    boundsRoom(count);
    bounds[2 * count] = start;
    bounds[2 * count + 1] = end;
    count++;
    terms?.push(term);
  });
  return count;
}

/** Tokenises and matches `text`; without a matcher (no query words) only the tokens are counted. */
export function analyseText(text: string, matcher: WordMatcher | null, separatorsToIndex: string): TextMatch {
  // Tokens first, matching after, in a plain loop: cheaper than doing the work inside the visitor. ASCII
  // text is cut without making terms; only tokens that may match get one.
  let terms: string[] | null = null;
  let count = asciiBounds(text, separatorsToIndex);
  if (count < 0) {
    terms = [];
    count = visitedBounds(text, separatorsToIndex, terms);
  }
  const words = matcher === null ? NO_HIGHLIGHT_WORDS : matcher.words;
  const wordTotal = words.length;
  if (matcher === null || wordTotal === 0 || count === 0) return textMatch(text, count, terms === null, null, wordTotal, NO_STRINGS, false);
  if (matchedScratch.length < wordTotal) matchedScratch = new Uint8Array(Math.max(wordTotal, matchedScratch.length * 2));
  matchedScratch.fill(0, 0, wordTotal);
  let marked = 0;
  let fullyCovered = true;
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
      match = matcher.lookUpAscii(text, start, end);
    }
    if (match.best === 0) {
      fullyCovered = false;
      continue;
    }
    for (let i = 0; i < match.words.length; i++) matchedScratch[match.words[i]] = 1;
    let markEnd = end;
    if (match.best < termLength) {
      // ASCII text folds one character to one: no need to look at (or slice) the token.
      markEnd = start + (terms === null ? match.best : originalPrefixLength(text.slice(start, end), match.best));
      fullyCovered = false;
    }
    markScratch[3 * marked] = t;
    markScratch[3 * marked + 1] = start;
    markScratch[3 * marked + 2] = markEnd;
    marked++;
  }
  if (marked === 0) return textMatch(text, count, terms === null, null, wordTotal, NO_STRINGS, false);
  // At their exact size, as the copies below (an array grown by pushes allocates room for 17 at its first).
  let matchedCount = 0;
  for (let w = 0; w < wordTotal; w++) matchedCount += matchedScratch[w];
  const matchedWords = new Array<string>(matchedCount);
  for (let w = 0, m = 0; w < wordTotal; w++) if (matchedScratch[w] === 1) matchedWords[m++] = words[w].original;
  return textMatch(text, count, terms === null, markScratch.slice(0, 3 * marked), wordTotal, matchedWords, fullyCovered);
}

function textMatch(
  text: string,
  tokenCount: number,
  ascii: boolean,
  marks: number[] | null,
  wordTotal: number,
  matchedWords: string[],
  fullyCovered: boolean,
): TextMatch {
  const matchLevel: MatchLevel = matchedWords.length === 0 ? 'none' : matchedWords.length === wordTotal ? 'full' : 'partial';
  return { text, tokenCount, marks, wordTotal, ascii, matchLevel, matchedWords, fullyCovered, rendered: text, renderedPre: null, renderedPost: null };
}

/**
 * Per matched token of `match` (a triple of `marks`), the indexes of the query words it matches: only a snippet
 * cutting a long value needs them, so they are found again then (the matches are memoised) rather than kept by
 * every analysis. Leaves the value's token offsets in the scratch bounds.
 */
export function markWordsOf(match: TextMatch, matcher: WordMatcher, separatorsToIndex: string): number[][] {
  const marks = match.marks!;
  const { text } = match;
  const terms: string[] | null = match.ascii ? null : [];
  if (terms === null) asciiBounds(text, separatorsToIndex);
  else visitedBounds(text, separatorsToIndex, terms);
  const words = new Array<number[]>(marks.length / 3);
  for (let m = 0; m < words.length; m++) {
    const t = marks[3 * m];
    words[m] = (terms === null ? matcher.lookUpAscii(text, bounds[2 * t], bounds[2 * t + 1]) : matcher.match(terms[t])).words;
  }
  return words;
}

/**
 * The text between `from` and `to` with each highlighted range wrapped in the tags, verbatim: no HTML
 * escaping (Algolia does none; the UI escapes). Each matched word gets its own tag pair, as Algolia does —
 * separators between two matched words stay outside the tags.
 */
export function renderText(match: TextMatch, preTag: string, postTag: string, from = 0, to = match.text.length): string {
  const { text, marks } = match;
  if (marks === null) return from === 0 && to === text.length ? text : text.slice(from, to);
  if (match.ascii && isAscii(preTag) && isAscii(postTag)) return renderAscii(match, preTag, postTag, from, to);
  let out = '';
  let cursor = from;
  for (let m = 0; m < marks.length; m += 3) {
    const start = marks[m + 1];
    const end = marks[m + 2];
    if (start < from || end > to) continue;
    out += text.slice(cursor, start) + preTag + text.slice(start, end) + postTag;
    cursor = end;
  }
  return out + text.slice(cursor, to);
}

/**
 * Characters of the ASCII value being rendered. Concatenating made four strings per highlighted word (and a
 * server flattens them all again to write its JSON): writing the characters here makes one.
 */
let rendering = Buffer.allocUnsafe(512);

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) >= 128) return false;
  return true;
}

function renderAscii(match: TextMatch, preTag: string, postTag: string, from: number, to: number): string {
  const { text } = match;
  const marks = match.marks!;
  let tagged = 0;
  for (let m = 0; m < marks.length; m += 3) if (marks[m + 1] >= from && marks[m + 2] <= to) tagged++;
  const size = to - from + tagged * (preTag.length + postTag.length);
  if (size > rendering.length) rendering = Buffer.allocUnsafe(Math.max(size, 2 * rendering.length));
  const out = rendering;
  let n = 0;
  let cursor = from;
  for (let m = 0; m < marks.length; m += 3) {
    const start = marks[m + 1];
    const end = marks[m + 2];
    if (start < from || end > to) continue;
    n = copyAscii(out, n, text, cursor, start);
    n = copyAscii(out, n, preTag, 0, preTag.length);
    n = copyAscii(out, n, text, start, end);
    n = copyAscii(out, n, postTag, 0, postTag.length);
    cursor = end;
  }
  n = copyAscii(out, n, text, cursor, to);
  return out.toString('latin1', 0, n);
}

/** Writes `source[start..end)` (ASCII) into `out` from `at`; returns where it ended. */
function copyAscii(out: Buffer, at: number, source: string, start: number, end: number): number {
  for (let i = start; i < end; i++) out[at++] = source.charCodeAt(i);
  return at;
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
