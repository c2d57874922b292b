import type { HighlightWord } from './types.ts';

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
  if (!word.prefix) return editDistance(term, wanted, typos) <= typos ? term.length : 0;
  // A prefix word with typos: compare it with prefixes of the token of similar length, best distance first
  // and, among equals, the length closest to the word's (the earliest length on a tie).
  const low = Math.max(1, wanted.length - typos);
  const high = Math.min(term.length, wanted.length + typos);
  if (low > high) return 0;
  // Prefix lengths count code units. A cut inside a surrogate pair leaves a lone surrogate, which the
  // code-point distance counts as a character of its own, unlike any row of the whole token's table: with
  // surrogates (rare), measure each cut on its own.
  const split = hasSurrogate(term) || hasSurrogate(wanted);
  if (!split) prefixDistances(term, wanted, high, typos);
  let best = 0;
  let bestDistance = typos + 1;
  for (let length = low; length <= high; length++) {
    const distance = split ? editDistance(term.slice(0, length), wanted, typos) : prefixDistance[length];
    const closer = Math.abs(length - wanted.length) < Math.abs(best - wanted.length);
    if (distance < bestDistance || (distance === bestDistance && closer)) {
      best = length;
      bestDistance = distance;
    }
  }
  return bestDistance <= typos ? best : 0;
}

export function hasSurrogate(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdfff) return true;
  }
  return false;
}

/*
 * The distance table, three rows at a time, in buffers shared by every call: matching runs for each distinct
 * token of a page against each query word, and allocating rows there was a good part of highlighting's cost.
 * Strings are first copied into code-point buffers so the same loop serves BMP and astral text.
 */
let left = new Int32Array(64);
let right = new Int32Array(64);
let row2 = new Int32Array(64);
let row1 = new Int32Array(64);
let row0 = new Int32Array(64);
/** `prefixDistances` output: per prefix length of the token, its distance to the word (capped at max + 1). */
let prefixDistance = new Int32Array(64);

function grow(size: number): void {
  if (size <= row0.length) return;
  const length = Math.max(size, row0.length * 2);
  left = new Int32Array(length);
  right = new Int32Array(length);
  row2 = new Int32Array(length);
  row1 = new Int32Array(length);
  row0 = new Int32Array(length);
  prefixDistance = new Int32Array(length);
}

/** Copies the code points of `text` (lone surrogates as themselves, like `Array.from`) into `into`; returns the count. */
function codePoints(text: string, into: Int32Array): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.codePointAt(i)!;
    into[n++] = code;
    if (code > 0xffff) i++;
  }
  return n;
}

/**
 * Fills the optimal-string-alignment table of `left[0..aLength]` against `right[0..bLength]`, row by row,
 * handing each row's last cell to `onRow`; afterwards `row1` holds the last row computed. Stops at the first
 * row whose every cell exceeds `max` (later rows can only be worse) and returns its index, or aLength + 1
 * when every row was computed.
 */
function fillTable(aLength: number, bLength: number, max: number, onRow: ((i: number, last: number) => void) | null): number {
  let previous2 = row2;
  let previous = row1;
  let current = row0;
  for (let j = 0; j <= bLength; j++) previous[j] = j;
  for (let i = 1; i <= aLength; i++) {
    const ai = left[i - 1];
    current[0] = i;
    let rowMin = i;
    for (let j = 1; j <= bLength; j++) {
      const bj = right[j - 1];
      let value = previous[j - 1] + (ai === bj ? 0 : 1);
      if (previous[j] + 1 < value) value = previous[j] + 1;
      if (current[j - 1] + 1 < value) value = current[j - 1] + 1;
      if (i > 1 && j > 1 && ai === right[j - 2] && left[i - 2] === bj && previous2[j - 2] + 1 < value) value = previous2[j - 2] + 1;
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (onRow !== null) onRow(i, current[bLength]);
    if (rowMin > max) {
      row1 = current;
      row0 = previous2;
      row2 = previous;
      return i;
    }
    const spare = previous2;
    previous2 = previous;
    previous = current;
    current = spare;
  }
  // Keep the buffers' identities straight: `row1` holds the last row.
  row2 = previous2;
  row1 = previous;
  row0 = current;
  return aLength + 1;
}

/**
 * Damerau-Levenshtein distance (optimal string alignment: an adjacent transposition is one edit), on code
 * points. Gives up early: any result above `max` is returned as `max + 1`.
 */
export function editDistance(a: string, b: string, max: number): number {
  grow(Math.max(a.length, b.length) + 1);
  const aLength = codePoints(a, left);
  const bLength = codePoints(b, right);
  if (Math.abs(aLength - bLength) > max) return max + 1;
  if (fillTable(aLength, bLength, max, null) <= aLength) return max + 1;
  return Math.min(row1[bLength], max + 1);
}

let prefixMax = 0;
const recordPrefix = (i: number, last: number): void => {
  prefixDistance[i] = Math.min(last, prefixMax + 1);
};

/**
 * `prefixDistance[L]` = distance between the token's first L characters and the word, for L ≤ `rows`, from one
 * table: row L of the table for (token, word) is exactly the table's last row for (token[0..L], word).
 * Surrogate-free strings only (code units = code points).
 */
function prefixDistances(term: string, wanted: string, rows: number, max: number): void {
  grow(Math.max(term.length, wanted.length) + 1);
  for (let i = 0; i < rows; i++) left[i] = term.charCodeAt(i);
  for (let j = 0; j < wanted.length; j++) right[j] = wanted.charCodeAt(j);
  prefixMax = max;
  const done = fillTable(rows, wanted.length, max, recordPrefix);
  // Rows after an early exit are all beyond `max`.
  for (let i = done + 1; i <= rows; i++) prefixDistance[i] = max + 1;
}
