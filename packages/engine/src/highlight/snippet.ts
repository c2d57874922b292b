import type { SnippetResultOption } from '@vitrine/protocol';
import { markWordsOf, renderText, renderWhole, scratchBounds, tokenBounds, type TextMatch } from './text.ts';
import type { WordMatcher } from './terms.ts';
import type { SnippetOptions } from './types.ts';

/**
 * The window of `size` consecutive words to show: the one containing the most distinct query words, then the
 * most matched tokens, then the one with its matches most centred (context on both sides), then the earliest.
 * Returns the index of the window's first token. A sliding window keeps it linear in the number of tokens.
 */
export function bestWindow(match: TextMatch, size: number, markWords: number[][]): number {
  const total = match.tokenCount;
  const { marks } = match;
  // Without any match every window ties on everything and the earliest wins.
  if (total <= size || marks === null) return 0;
  const counts = new Int32Array(match.wordTotal);
  // Distinct query words and matched tokens inside the window, kept up to date as it slides; `leaving` and
  // `entering` are the matched tokens (indexes into `markWords`) next to leave and to enter it.
  let distinct = 0;
  let matchedTokens = 0;
  let entering = 0;
  let leaving = 0;
  for (; entering < markWords.length && marks[3 * entering] < size; entering++) {
    matchedTokens++;
    for (const w of markWords[entering]) if (++counts[w] === 1) distinct++;
  }
  let best = 0;
  let bestDistinct = distinct;
  let bestTokens = matchedTokens;
  for (let start = 1; start + size <= total; start++) {
    if (leaving < markWords.length && marks[3 * leaving] === start - 1) {
      matchedTokens--;
      for (const w of markWords[leaving]) if (--counts[w] === 0) distinct--;
      leaving++;
    }
    if (entering < markWords.length && marks[3 * entering] === start + size - 1) {
      matchedTokens++;
      for (const w of markWords[entering]) if (++counts[w] === 1) distinct++;
      entering++;
    }
    if (distinct > bestDistinct || (distinct === bestDistinct && matchedTokens > bestTokens)) {
      best = start;
      bestDistinct = distinct;
      bestTokens = matchedTokens;
    } else if (distinct === bestDistinct && matchedTokens === bestTokens && bestTokens > 0 && imbalance(marks, start, size) < imbalance(marks, best, size)) {
      best = start;
    }
  }
  return best;
}

/** How far the window's matches are from centred: the gap before its first match minus the gap after its last. */
function imbalance(marks: number[], start: number, size: number): number {
  const end = start + size - 1;
  const firstInside = firstMarkFrom(marks, start);
  const lastInside = firstMarkFrom(marks, end + 1) - 1;
  if (firstInside > lastInside) return 0;
  return Math.abs(marks[3 * firstInside] - start - (end - marks[3 * lastInside]));
}

const WHITESPACE = /\s/;

/**
 * A snippet of one analysed string: `size` words around the best match, highlighted, with the ellipsis where
 * text was cut. The ellipsis is followed (or preceded) by a space when the cut fell on whitespace, so words
 * never run into it. At the ends of the value nothing is cut, so leading and trailing punctuation stay.
 */
export function snippetText(match: TextMatch, size: number, options: SnippetOptions, matcher: WordMatcher | null): SnippetResultOption {
  const { text, matchLevel } = match;
  const { preTag, postTag, ellipsis } = options;
  const count = match.tokenCount;
  const words = Math.max(1, Math.floor(size));
  if (count <= words) return { value: renderWhole(match, preTag, postTag), matchLevel };
  // The analysis keeps only the matched tokens: the window needs their words, the cuts the offsets of the
  // window's edge tokens (both leave the offsets of every token in the scratch bounds).
  let first = 0;
  if (match.marks === null || matcher === null) tokenBounds(text, options.separatorsToIndex);
  else first = bestWindow(match, words, markWordsOf(match, matcher, options.separatorsToIndex));
  const bounds = scratchBounds();
  const last = first + words - 1;
  const from = first === 0 ? 0 : bounds[2 * first];
  const to = last === count - 1 ? text.length : bounds[2 * last + 1];
  let value = renderText(match, preTag, postTag, from, to);
  if (first > 0 && ellipsis.length > 0) {
    const gap = text.slice(bounds[2 * first - 1], from);
    value = ellipsis + (WHITESPACE.test(gap) ? ' ' : '') + value;
  }
  if (last < count - 1 && ellipsis.length > 0) {
    const gap = text.slice(to, bounds[2 * last + 2]);
    value = value + (WHITESPACE.test(gap) ? ' ' : '') + ellipsis;
  }
  return { value, matchLevel };
}

/** The first matched token (an index into the triples of `marks`) whose token index is ≥ `token`. */
function firstMarkFrom(marks: number[], token: number): number {
  // A loop of its own rather than `partitionPoint`: its predicate would be a closure per call, and this runs for
  // every tied window of every long value.
  let low = 0;
  let high = marks.length / 3;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (marks[3 * middle] < token) low = middle + 1;
    else high = middle;
  }
  return low;
}
