// Frozen copy of highlight/snippet.ts as of commit a7c87ba: the reference the optimised code is tested against.
// Test and benchmark use only; do not change (see ./index.ts).
import type { SnippetResultOption } from '@vitrine/protocol';
import { matchLevelOf, renderText, type TextMatch } from './text.ts';
import type { SnippetOptions } from '../types.ts';

/**
 * The window of `size` consecutive words to show: the one containing the most distinct query words, then the
 * most matched tokens, then the one with its matches most centred (context on both sides), then the earliest.
 * Returns the index of the window's first token. A sliding window keeps it linear in the number of tokens.
 */
export function bestWindow(match: TextMatch, size: number): number {
  const total = match.tokens.length;
  if (total <= size) return 0;
  const counts = new Array<number>(match.wordMatched.length).fill(0);
  let distinct = 0;
  let matchedTokens = 0;
  const add = (t: number, delta: 1 | -1) => {
    const words = match.tokenWords[t];
    if (words.length > 0) matchedTokens += delta;
    for (const w of words) {
      counts[w] += delta;
      if (delta === 1 && counts[w] === 1) distinct++;
      if (delta === -1 && counts[w] === 0) distinct--;
    }
  };
  for (let t = 0; t < size; t++) add(t, 1);
  // First and last matched token inside a window, for the centring tie-break.
  const matchedIndexes: number[] = [];
  match.tokenWords.forEach((words, t) => {
    if (words.length > 0) matchedIndexes.push(t);
  });
  const imbalance = (start: number) => {
    const end = start + size - 1;
    const firstInside = lowerBound(matchedIndexes, start);
    const lastInside = lowerBound(matchedIndexes, end + 1) - 1;
    if (firstInside > lastInside) return 0;
    return Math.abs(matchedIndexes[firstInside] - start - (end - matchedIndexes[lastInside]));
  };
  let best = 0;
  let bestDistinct = distinct;
  let bestTokens = matchedTokens;
  for (let start = 1; start + size <= total; start++) {
    add(start - 1, -1);
    add(start + size - 1, 1);
    if (distinct > bestDistinct || (distinct === bestDistinct && matchedTokens > bestTokens)) {
      best = start;
      bestDistinct = distinct;
      bestTokens = matchedTokens;
    } else if (distinct === bestDistinct && matchedTokens === bestTokens && bestTokens > 0 && imbalance(start) < imbalance(best)) {
      best = start;
    }
  }
  return best;
}

/**
 * A snippet of one analysed string: `size` words around the best match, highlighted, with the ellipsis where
 * text was cut. The ellipsis is followed (or preceded) by a space when the cut fell on whitespace, so words
 * never run into it. At the ends of the value nothing is cut, so leading and trailing punctuation stay.
 */
export function snippetText(match: TextMatch, size: number, options: SnippetOptions): SnippetResultOption {
  const { tokens, text } = match;
  const words = Math.max(1, Math.floor(size));
  const matchLevel = matchLevelOf(match);
  if (tokens.length <= words) return { value: renderText(match, options), matchLevel };
  const first = bestWindow(match, words);
  const last = first + words - 1;
  const from = first === 0 ? 0 : tokens[first].start;
  const to = last === tokens.length - 1 ? text.length : tokens[last].end;
  let value = renderText(match, options, from, to);
  if (first > 0 && options.ellipsis.length > 0) {
    const gap = text.slice(tokens[first - 1].end, from);
    value = options.ellipsis + (/\s/.test(gap) ? ' ' : '') + value;
  }
  if (last < tokens.length - 1 && options.ellipsis.length > 0) {
    const gap = text.slice(to, tokens[last + 1].start);
    value = value + (/\s/.test(gap) ? ' ' : '') + options.ellipsis;
  }
  return { value, matchLevel };
}

/** First index of a sorted array holding a value ≥ `value`. */
function lowerBound(sorted: number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (sorted[mid] < value) low = mid + 1;
    else high = mid;
  }
  return low;
}
