// Frozen copy of highlight/match.ts as of commit a7c87ba: the reference the optimised code is tested against.
// Test and benchmark use only; do not change (see ./index.ts).
import type { HighlightWord } from '../types.ts';

/**
 * Whether a text token matches a query word, and how much of it to highlight.
 *
 * Returns the number of *normalised* characters of the token that the word covers: 0 for no match, the
 * token's full length for a whole-word match, less for a prefix match (the shopper typed "lapt", so only
 * "lapt" of "laptop" is highlighted). The caller maps that back to original characters.
 */
export function matchedLength(term: string, word: HighlightWord): number {
  const wanted = word.term;
  if (wanted.length === 0 || term.length === 0) return 0;
  if (term === wanted) return term.length;
  if (word.alternatives?.includes(term)) return term.length;
  if (word.prefix && term.startsWith(wanted)) return wanted.length;
  const typos = word.maxTypos;
  if (typos <= 0) return 0;
  if (!word.prefix) return withinDistance(term, wanted, typos) ? term.length : 0;
  // A prefix word with typos: compare it with prefixes of the token of similar length, best distance first
  // and, among equals, the length closest to the word's.
  let best = 0;
  let bestDistance = typos + 1;
  const low = Math.max(1, wanted.length - typos);
  const high = Math.min(term.length, wanted.length + typos);
  for (let length = low; length <= high; length++) {
    const distance = editDistance(term.slice(0, length), wanted, typos);
    const closer = Math.abs(length - wanted.length) < Math.abs(best - wanted.length);
    if (distance < bestDistance || (distance === bestDistance && closer)) {
      best = length;
      bestDistance = distance;
    }
  }
  return bestDistance <= typos ? best : 0;
}

function withinDistance(a: string, b: string, max: number): boolean {
  return editDistance(a, b, max) <= max;
}

/**
 * Damerau-Levenshtein distance (optimal string alignment: an adjacent transposition is one edit), on code
 * points. Gives up early: any result above `max` is returned as `max + 1`.
 */
const SURROGATE = /[\uD800-\uDFFF]/;

export function editDistance(left: string, right: string, max: number): number {
  // Strings index by code unit; split into code points only when some character needs two units.
  const a: ArrayLike<string> = SURROGATE.test(left) ? Array.from(left) : left;
  const b: ArrayLike<string> = SURROGATE.test(right) ? Array.from(right) : right;
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let previous2: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, previous2[j - 2] + 1);
      current.push(value);
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max) return max + 1;
    previous2 = previous;
    previous = current;
  }
  return Math.min(previous[b.length], max + 1);
}
