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

function isWordChar(ch: string, separatorsToIndex: string): boolean {
  return WORD_CHAR.test(ch) || (separatorsToIndex.length > 0 && separatorsToIndex.includes(ch));
}

/**
 * Splits text into words on Unicode letter/number boundaries. Characters listed in `separatorsToIndex` count as
 * word characters (so "c++" or "c#" stay searchable). Numbers are words like any other.
 *
 * Offsets refer to the original text, so highlighting can wrap the exact characters the shopper sees.
 */
export function tokenize(text: string, separatorsToIndex = ''): Token[] {
  const tokens: Token[] = [];
  let start = -1;
  let position = 0;
  // Iterate by code point so astral letters (e.g. CJK extension B) stay whole.
  let index = 0;
  for (const ch of text) {
    const word = isWordChar(ch, separatorsToIndex);
    if (word && start < 0) start = index;
    if (!word && start >= 0) {
      pushToken(tokens, text, start, index, position++);
      start = -1;
    }
    index += ch.length;
  }
  if (start >= 0) pushToken(tokens, text, start, index, position);
  return tokens;
}

function pushToken(tokens: Token[], text: string, start: number, end: number, position: number): void {
  const term = normalizeText(text.slice(start, end));
  if (term.length > 0) tokens.push({ term, start, end, position });
}

/** Just the normalised terms of a text, for indexing paths that need no offsets. */
export function terms(text: string, separatorsToIndex = ''): string[] {
  return tokenize(text, separatorsToIndex).map((token) => token.term);
}
