// Frozen copy of highlight/text.ts as of commit a7c87ba: the reference the optimised code is tested against.
// Test and benchmark use only; do not change (see ./index.ts).
import type { MatchLevel } from '@vitrine/protocol';
import { normalizeText, tokenize, type Token } from '../../tokenize/index.ts';
import { matchedLength } from './match.ts';
import type { HighlightOptions, HighlightQuery } from '../types.ts';

/** One string analysed against a query: which tokens to wrap, and which query words it contains. */
export interface TextMatch {
  text: string;
  tokens: Token[];
  /** Per token: the original-character range to wrap, or null. */
  highlights: Array<[number, number] | null>;
  /** Per token: indexes of the query words it matches. */
  tokenWords: number[][];
  /** Per query word: whether some token matches it. */
  wordMatched: boolean[];
  /** Every token is wholly highlighted (and there is at least one). */
  fullyCovered: boolean;
}

const COMBINING_MARK = /\p{M}/u;

/**
 * Original characters of `original` (one token) covering its first `length` normalised characters.
 * Normalisation may change lengths (ß → ss, e + combining accent → e), so grow a prefix until its normal
 * form is long enough, then keep any combining marks that belong to the last letter.
 */
export function originalPrefixLength(original: string, length: number): number {
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

/** How one normalised term matches a query: the longest matched length and the words it matches. */
interface TermMatch {
  best: number;
  words: number[];
}

const NO_WORDS: number[] = [];
const MAX_MEMO = 50_000;

/**
 * Term matches memoised per query object: a page of hits repeats the same words over and over, and typo
 * matching is the costly part. The WeakMap lets a query's memo go with the query.
 */
const memos = new WeakMap<HighlightQuery, Map<string, TermMatch>>();

function matchTerm(term: string, query: HighlightQuery): TermMatch {
  let memo = memos.get(query);
  if (memo === undefined) {
    memo = new Map();
    memos.set(query, memo);
  }
  const known = memo.get(term);
  if (known !== undefined) return known;
  let best = 0;
  let words = NO_WORDS;
  for (let w = 0; w < query.words.length; w++) {
    const length = matchedLength(term, query.words[w]);
    if (length > 0) {
      if (words === NO_WORDS) words = [];
      words.push(w);
      if (length > best) best = length;
    }
  }
  const match = { best, words };
  if (memo.size < MAX_MEMO) memo.set(term, match);
  return match;
}

export function analyseText(text: string, query: HighlightQuery, separatorsToIndex: string): TextMatch {
  const tokens = tokenize(text, separatorsToIndex);
  const wordMatched = query.words.map(() => false);
  const highlights: TextMatch['highlights'] = [];
  const tokenWords: number[][] = [];
  let fullyCovered = tokens.length > 0;
  for (const token of tokens) {
    const { best, words: matchedHere } = matchTerm(token.term, query);
    for (const w of matchedHere) wordMatched[w] = true;
    tokenWords.push(matchedHere);
    if (best === 0) {
      highlights.push(null);
      fullyCovered = false;
    } else if (best >= token.term.length) {
      highlights.push([token.start, token.end]);
    } else {
      highlights.push([token.start, token.start + originalPrefixLength(text.slice(token.start, token.end), best)]);
      fullyCovered = false;
    }
  }
  return { text, tokens, highlights, tokenWords, wordMatched, fullyCovered };
}

export function matchLevelOf(match: TextMatch): MatchLevel {
  const count = match.wordMatched.filter(Boolean).length;
  if (count === 0) return 'none';
  return count === match.wordMatched.length ? 'full' : 'partial';
}

export function matchedWordsOf(match: TextMatch, query: HighlightQuery): string[] {
  return query.words.filter((_, w) => match.wordMatched[w]).map((word) => word.original);
}

/**
 * The text between `from` and `to` with each highlighted range wrapped in the tags, verbatim: no HTML
 * escaping (Algolia does none; the UI escapes). Each matched word gets its own tag pair, as Algolia does —
 * separators between two matched words stay outside the tags.
 */
export function renderText(match: TextMatch, options: HighlightOptions, from = 0, to = match.text.length): string {
  let out = '';
  let cursor = from;
  for (const range of match.highlights) {
    if (range === null || range[0] < from || range[1] > to) continue;
    out += match.text.slice(cursor, range[0]) + options.preTag + match.text.slice(range[0], range[1]) + options.postTag;
    cursor = range[1];
  }
  return out + match.text.slice(cursor, to);
}
