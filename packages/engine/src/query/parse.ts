/**
 * Query text → words. Applies `queryType` (which words match as prefixes) and, with `advancedSyntax`,
 * `"quoted phrases"` (words that must follow each other, matched exactly) and `-exclusions`.
 */
import { tokenize } from '../tokenize/index.ts';
import type { QueryType } from '@vitrine/protocol';

export interface QueryWord {
  /** As typed (for `matchedWords` and highlighting). */
  original: string;
  /** Normalised. */
  term: string;
  prefix: boolean;
  /** Index of the quoted phrase the word belongs to, or -1. */
  phrase: number;
  /** For a part of a compound split by `decompoundQuery`: the compound, which the part also matches. */
  compound?: string;
}

export interface ParsedQuery {
  words: QueryWord[];
  /** Normalised terms that must not appear (`-word`). */
  excluded: string[];
  /** Number of phrases; phrase i is the words with `phrase === i`, in order. */
  phraseCount: number;
}

export interface ParseOptions {
  queryType: QueryType;
  advancedSyntax: boolean;
  /** `advancedSyntaxFeatures`: which of `exactPhrase` and `excludeWords` are on. */
  exactPhrase: boolean;
  excludeWords: boolean;
  separatorsToIndex: string;
}

/**
 * Words of a query that are searched; those after them are ignored (and so are exclusions past as many). Each
 * word is expanded (prefixes, typos, plurals, synonyms) and matched: a 512-byte query holds 170 words, which
 * with typos allowed took 50–90 ms of a search thread where 32 take 10–20.
 */
export const MAX_QUERY_WORDS = 32;

export function parseQuery(query: string, options: ParseOptions): ParsedQuery {
  const words: QueryWord[] = [];
  const excluded: string[] = [];
  let phraseCount = 0;
  const plain = (text: string, phrase: number): void => {
    for (const token of tokenize(text, options.separatorsToIndex)) {
      if (words.length === MAX_QUERY_WORDS) return;
      words.push({ original: text.slice(token.start, token.end), term: token.term, prefix: false, phrase });
    }
  };
  if (options.advancedSyntax) {
    // Split into quoted and unquoted runs; an unterminated quote extends to the end (as the shopper is typing).
    const parts = query.split('"');
    parts.forEach((part, index) => {
      const quoted = index % 2 === 1 && options.exactPhrase;
      if (quoted) {
        const before = words.length;
        plain(part, phraseCount);
        if (words.length > before) phraseCount++;
        return;
      }
      for (const chunk of part.split(/\s+/)) {
        if (chunk.length > 1 && chunk.startsWith('-') && options.excludeWords) {
          for (const token of tokenize(chunk.slice(1), options.separatorsToIndex)) if (excluded.length < MAX_QUERY_WORDS) excluded.push(token.term);
        } else plain(chunk, -1);
      }
    });
  } else plain(query, -1);

  const endsWithWord = !/[\s"]$/u.test(query);
  words.forEach((word, index) => {
    if (word.phrase >= 0) return;
    if (options.queryType === 'prefixAll') word.prefix = true;
    else if (options.queryType === 'prefixLast') word.prefix = index === words.length - 1 && endsWithWord;
  });
  return { words, excluded, phraseCount };
}
