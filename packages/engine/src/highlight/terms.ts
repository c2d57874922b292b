import { hasSurrogate, matchedLength } from './match.ts';
import type { HighlightWord } from './types.ts';

/** How one normalised term matches a query: the longest matched length and the words it matches. */
export interface TermMatch {
  best: number;
  words: number[];
}

export const NO_WORDS: number[] = [];
export const NO_MATCH: TermMatch = { best: 0, words: NO_WORDS };
const MAX_TERMS = 50_000;

const isSurrogate = (code: number) => code >= 0xd800 && code <= 0xdfff;
/** Lower case of an ASCII char code (the tokenizer folds ASCII with `toLowerCase`). */
const asciiLower = (code: number) => (code >= 65 && code <= 90 ? code + 32 : code);

/**
 * Matches the terms of a page's values against the query words, memoised: a page repeats the same words over
 * and over, and typo matching is the costly part.
 *
 * Even a memo hit costs hashing a freshly made term string, so a test on the first three characters turns
 * most tokens away before that (and, for ASCII text, before the term is even made). With t the term and w a
 * word, a match needs
 * - exact, prefix or alternative: t0 = w0 (or the alternative's first character);
 * - within one typo, for words of 3+ characters (only these get typos in practice): either the edit leaves
 *   the first character alone (t0 = w0), or it is at the very start: a substitution (t1 t2 = w1 w2), a
 *   deletion (t0 t1 = w1 w2), an insertion (t1 t2 = w0 w1) or a swap (t0 t1 = w1 w0). A prefix word compares
 *   a prefix of the term at least 2 characters long, so the same holds.
 * Two typos allow nearly anything, and surrogate pairs make "character" ambiguous: such queries skip the
 * test, and so do terms starting with a surrogate (a surrogate further on cannot equal a word's character).
 */
export class WordMatcher {
  private readonly memo = new Map<string, TermMatch>();
  /** False when no test is possible. */
  private readonly filtering: boolean;
  /** First characters allowed outright: `firstTable` for ASCII codes, `otherFirsts` beyond. */
  private readonly firstTable = new Uint8Array(128);
  private readonly otherFirsts: number[] = [];
  /** w0, w1, w2 of each one-typo word, in a row. */
  private readonly typoWords: number[] = [];
  /**
   * ASCII tokens already looked up, found again by their characters (case-folded) without making their term: an
   * open-addressing table of entry numbers + 1 (FNV-1a of the lower-case codes), and per entry its term and match.
   * A page's values repeat words (brands, categories, a description's phrasing), and the term strings made for
   * each occurrence (a slice, then its lower case) were much of what highlighting allocated.
   */
  private asciiTable = new Int32Array(0);
  private readonly asciiTerms: string[] = [];
  private readonly asciiMatches: TermMatch[] = [];

  constructor(readonly words: HighlightWord[]) {
    let filtering = true;
    for (const word of words) {
      const wanted = word.term;
      if (wanted.length === 0) continue; // never matches
      const alternatives = word.alternatives ?? [];
      if (hasSurrogate(wanted) || alternatives.some(hasSurrogate) || (word.maxTypos > 0 && (word.maxTypos !== 1 || wanted.length < 3))) {
        filtering = false;
        break;
      }
      this.allowFirst(wanted.charCodeAt(0));
      for (const alternative of alternatives) if (alternative.length > 0) this.allowFirst(alternative.charCodeAt(0));
      if (word.maxTypos === 1) this.typoWords.push(wanted.charCodeAt(0), wanted.charCodeAt(1), wanted.charCodeAt(2));
    }
    this.filtering = filtering;
  }

  private allowFirst(code: number): void {
    if (code < 128) this.firstTable[code] = 1;
    else this.otherFirsts.push(code);
  }

  /** The test above, on a term's first three character codes (-1 past its end). */
  private mayMatchCodes(t0: number, t1: number, t2: number): boolean {
    if (!this.filtering) return true;
    if (t0 < 128 ? this.firstTable[t0] === 1 : isSurrogate(t0) || this.otherFirsts.includes(t0)) return true;
    const typoWords = this.typoWords;
    for (let i = 0; i < typoWords.length; i += 3) {
      const w0 = typoWords[i];
      const w1 = typoWords[i + 1];
      const w2 = typoWords[i + 2];
      if ((t1 === w1 && t2 === w2) || (t0 === w1 && (t1 === w2 || t1 === w0)) || (t1 === w0 && t2 === w1)) return true;
    }
    return false;
  }

  private mayMatch(term: string): boolean {
    const n = term.length;
    return this.mayMatchCodes(term.charCodeAt(0), n > 1 ? term.charCodeAt(1) : -1, n > 2 ? term.charCodeAt(2) : -1);
  }

  /**
   * `mayMatch` for the token `text[start..end]` of ASCII text, before its term is made: the term is the token
   * in lower case.
   */
  mayMatchAscii(text: string, start: number, end: number): boolean {
    const n = end - start;
    return this.mayMatchCodes(
      asciiLower(text.charCodeAt(start)),
      n > 1 ? asciiLower(text.charCodeAt(start + 1)) : -1,
      n > 2 ? asciiLower(text.charCodeAt(start + 2)) : -1,
    );
  }

  /** `lookUp` of the ASCII token `text[start..end]` (which passed `mayMatchAscii`): its term is the token in lower case. */
  lookUpAscii(text: string, start: number, end: number): TermMatch {
    let hash = 0x811c9dc5;
    for (let i = start; i < end; i++) hash = Math.imul(hash ^ asciiLower(text.charCodeAt(i)), 0x01000193);
    const table = this.asciiTable;
    const mask = table.length - 1;
    if (table.length > 0) {
      for (let slot = hash & mask; table[slot] !== 0; slot = (slot + 1) & mask) {
        const entry = table[slot] - 1;
        if (sameAsciiTerm(this.asciiTerms[entry], text, start, end)) return this.asciiMatches[entry];
      }
    }
    const term = text.slice(start, end).toLowerCase();
    // Remembered here only, not in `memo` as well (the same term met in non-ASCII text is worked out again there).
    if (this.asciiTerms.length >= MAX_TERMS) return this.lookUp(term);
    const match = this.compute(term);
    this.remember(term, match, hash);
    return match;
  }

  private remember(term: string, match: TermMatch, hash: number): void {
    const entry = this.asciiTerms.length;
    this.asciiTerms.push(term);
    this.asciiMatches.push(match);
    if (2 * (entry + 1) > this.asciiTable.length) {
      // Rebuilt at twice the size (hashes recomputed from the terms, already lower case).
      this.asciiTable = new Int32Array(Math.max(64, 2 * this.asciiTable.length));
      for (let e = 0; e <= entry; e++) this.place(e, e === entry ? hash : hashOf(this.asciiTerms[e]));
      return;
    }
    this.place(entry, hash);
  }

  private place(entry: number, hash: number): void {
    const table = this.asciiTable;
    const mask = table.length - 1;
    let slot = hash & mask;
    while (table[slot] !== 0) slot = (slot + 1) & mask;
    table[slot] = entry + 1;
  }

  match(term: string): TermMatch {
    return this.mayMatch(term) ? this.lookUp(term) : NO_MATCH;
  }

  /** `match` for a term already known to pass `mayMatch`. */
  lookUp(term: string): TermMatch {
    const known = this.memo.get(term);
    if (known !== undefined) return known;
    const match = this.compute(term);
    if (this.memo.size < MAX_TERMS) this.memo.set(term, match);
    return match;
  }

  /** How `term` matches the query, worked out (not memoised). */
  private compute(term: string): TermMatch {
    const words = this.words;
    let best = 0;
    let matched = NO_WORDS;
    for (let w = 0; w < words.length; w++) {
      const length = matchedLength(term, words[w]);
      if (length > 0) {
        if (matched === NO_WORDS) matched = [];
        matched.push(w);
        if (length > best) best = length;
      }
    }
    return best === 0 ? NO_MATCH : { best, words: matched };
  }
}

/** FNV-1a of a lower-case ASCII term's codes (as `lookUpAscii` hashes a token). */
function hashOf(term: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < term.length; i++) hash = Math.imul(hash ^ term.charCodeAt(i), 0x01000193);
  return hash;
}

/** Whether `term` (lower case) is the ASCII token `text[start..end]` folded to lower case. */
function sameAsciiTerm(term: string, text: string, start: number, end: number): boolean {
  if (term.length !== end - start) return false;
  for (let i = 0; i < term.length; i++) if (term.charCodeAt(i) !== asciiLower(text.charCodeAt(start + i))) return false;
  return true;
}
