import type { SnippetResultOption } from '@vitrine/protocol';
import { renderText, renderWhole, type TextMatch } from './text.ts';
import type { SnippetOptions } from './types.ts';
import { partitionPoint } from '../structures/binary-search.ts';

/**
 * The window of `size` consecutive words to show: the one containing the most distinct query words, then the
 * most matched tokens, then the one with its matches most centred (context on both sides), then the earliest.
 * Returns the index of the window's first token. A sliding window keeps it linear in the number of tokens.
 */
export function bestWindow(match: TextMatch, size: number): number {
  const total = match.bounds.length / 2;
  const { tokenWords } = match;
  // Without any match every window ties on everything and the earliest wins.
  if (total <= size || tokenWords === null) return 0;
  const counts = new Array<number>(match.wordTotal).fill(0);
  // Distinct query words and matched tokens inside the window, kept up to date as it slides.
  let distinct = 0;
  let matchedTokens = 0;
  for (let t = 0; t < size; t++) {
    const words = tokenWords[t];
    if (words.length > 0) matchedTokens++;
    for (const w of words) if (++counts[w] === 1) distinct++;
  }
  // Matched token indexes, for the centring tie-break.
  const matchedIndexes: number[] = [];
  for (let t = 0; t < total; t++) if (tokenWords[t].length > 0) matchedIndexes.push(t);
  let best = 0;
  let bestDistinct = distinct;
  let bestTokens = matchedTokens;
  for (let start = 1; start + size <= total; start++) {
    const leaving = tokenWords[start - 1];
    if (leaving.length > 0) matchedTokens--;
    for (const w of leaving) if (--counts[w] === 0) distinct--;
    const entering = tokenWords[start + size - 1];
    if (entering.length > 0) matchedTokens++;
    for (const w of entering) if (++counts[w] === 1) distinct++;
    if (distinct > bestDistinct || (distinct === bestDistinct && matchedTokens > bestTokens)) {
      best = start;
      bestDistinct = distinct;
      bestTokens = matchedTokens;
    } else if (distinct === bestDistinct && matchedTokens === bestTokens && bestTokens > 0 && imbalance(matchedIndexes, start, size) < imbalance(matchedIndexes, best, size)) {
      best = start;
    }
  }
  return best;
}

/** How far the window's matches are from centred: the gap before its first match minus the gap after its last. */
function imbalance(matchedIndexes: number[], start: number, size: number): number {
  const end = start + size - 1;
  const firstInside = lowerBound(matchedIndexes, start);
  const lastInside = lowerBound(matchedIndexes, end + 1) - 1;
  if (firstInside > lastInside) return 0;
  return Math.abs(matchedIndexes[firstInside] - start - (end - matchedIndexes[lastInside]));
}

const WHITESPACE = /\s/;

/**
 * A snippet of one analysed string: `size` words around the best match, highlighted, with the ellipsis where
 * text was cut. The ellipsis is followed (or preceded) by a space when the cut fell on whitespace, so words
 * never run into it. At the ends of the value nothing is cut, so leading and trailing punctuation stay.
 */
export function snippetText(match: TextMatch, size: number, options: SnippetOptions): SnippetResultOption {
  const { bounds, text, matchLevel } = match;
  const { preTag, postTag, ellipsis } = options;
  const count = bounds.length / 2;
  const words = Math.max(1, Math.floor(size));
  if (count <= words) return { value: renderWhole(match, preTag, postTag), matchLevel };
  const first = bestWindow(match, words);
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

/** First index of a sorted array holding a value ≥ `value`. */
function lowerBound(sorted: number[], value: number): number {
  return partitionPoint(0, sorted.length, (i) => sorted[i] < value);
}
