/**
 * `removeStopWords`: the languages' stop words (`dictionaries.ts`) dropped from the query before matching,
 * except words read as prefixes (the word being typed may become something else) and words of a quoted phrase.
 */
import type { QueryWord } from './parse.ts';

/** The words left once stop words that are neither prefixes nor phrase words are removed. */
export function withoutStopWords(words: QueryWord[], stopWords: ReadonlySet<string>): QueryWord[] {
  if (stopWords.size === 0) return words;
  return words.filter((word) => word.prefix || word.phrase >= 0 || !stopWords.has(word.term));
}
