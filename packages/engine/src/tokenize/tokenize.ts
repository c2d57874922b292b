import { normalizeText } from './normalize.ts';

/** One word of a text: its normalised form and where it sits in the original string (for highlighting). */
export interface Token {
  /** Normalised form (see `normalizeText`). */
  term: string;
  /** Offsets into the original text, end exclusive. */
  start: number;
  end: number;
  /** Word position within the text, 0-based (for proximity). */
  position: number;
}

const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;

/** ASCII letters and digits, by char code: the common case decided without a regex. */
const ASCII_WORD = new Uint8Array(128);
for (let c = 48; c <= 57; c++) ASCII_WORD[c] = 1;
for (let c = 65; c <= 90; c++) ASCII_WORD[c] = 2; // upper case: needs folding
for (let c = 97; c <= 122; c++) ASCII_WORD[c] = 1;

export type TokenVisitor = (term: string, position: number, start: number, end: number) => void;

/**
 * Calls `visit` for each word of `text`, without allocating a token object per word: the indexing hot path.
 * Words split on Unicode letter/number boundaries; characters in `separatorsToIndex` count as word characters
 * (so "c++" or "c#" stay searchable). Numbers are words like any other. Offsets refer to the original text.
 */
export function forEachToken(text: string, separatorsToIndex: string, visit: TokenVisitor): void {
  const n = text.length;
  let start = -1;
  let ascii = true;
  let upper = false;
  let position = 0;
  let i = 0;
  while (i < n) {
    const code = text.charCodeAt(i);
    let width = 1;
    let word: boolean;
    if (code < 128) {
      const kind = ASCII_WORD[code];
      word = kind !== 0 || (separatorsToIndex.length > 0 && separatorsToIndex.includes(text[i]));
      if (kind === 2) upper = true;
    } else {
      // Iterate by code point so astral letters (e.g. CJK extension B) stay whole.
      if (code >= 0xd800 && code <= 0xdbff && i + 1 < n) width = 2;
      const ch = text.slice(i, i + width);
      word = WORD_CHAR.test(ch) || (separatorsToIndex.length > 0 && separatorsToIndex.includes(ch));
      if (word) ascii = false;
    }
    if (word && start < 0) {
      start = i;
    } else if (!word && start >= 0) {
      emit(text, start, i, position++, ascii, upper, visit);
      start = -1;
      ascii = true;
      upper = false;
    }
    if (!word) {
      ascii = true;
      upper = false;
    }
    i += width;
  }
  if (start >= 0) emit(text, start, n, position, ascii, upper, visit);
}

function emit(text: string, start: number, end: number, position: number, ascii: boolean, upper: boolean, visit: TokenVisitor): void {
  const raw = text.slice(start, end);
  const term = ascii ? (upper ? raw.toLowerCase() : raw) : normalizeText(raw);
  if (term.length > 0) visit(term, position, start, end);
}

/**
 * Splits text into words (see `forEachToken`), as token objects with offsets, so highlighting can wrap the
 * exact characters the shopper sees.
 */
export function tokenize(text: string, separatorsToIndex = ''): Token[] {
  const tokens: Token[] = [];
  forEachToken(text, separatorsToIndex, (term, position, start, end) => {
    tokens.push({ term, start, end, position });
  });
  return tokens;
}

/** Just the normalised terms of a text, for indexing paths that need no offsets. */
export function terms(text: string, separatorsToIndex = ''): string[] {
  const out: string[] = [];
  forEachToken(text, separatorsToIndex, (term) => {
    out.push(term);
  });
  return out;
}
