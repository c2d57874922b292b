/**
 * `removeStopWords` for English: common function words dropped from the query before matching, except words
 * read as prefixes (the word being typed may become something else) and words of a quoted phrase. Other
 * languages have no list here, so asking for them removes nothing (documented in COMPATIBILITY.md).
 */
import type { QueryWord } from './parse.ts';

/** Articles, pronouns, prepositions, conjunctions and auxiliaries: words that carry no product meaning. */
const ENGLISH = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between both but by ' +
    'can could did do does doing down during each few for from further had has have having he her here hers herself him ' +
    'himself his how i if in into is it its itself just me more most my myself no nor not of off on once only or other our ' +
    'ours ourselves out over own same she should so some such than that the their theirs them themselves then there these ' +
    'they this those through to too under until up very was we were what when where which while who whom why will with ' +
    'would you your yours yourself yourselves'
  ).split(' '),
);

/** Whether `removeStopWords` applies to English for this query (same rules as `ignorePlurals`). */
export function stopWordsEnabled(removeStopWords: unknown, queryLanguages: unknown): boolean {
  if (removeStopWords === true || removeStopWords === 'true') {
    return !Array.isArray(queryLanguages) || queryLanguages.length === 0 || queryLanguages.includes('en');
  }
  return Array.isArray(removeStopWords) && removeStopWords.includes('en');
}

export function isEnglishStopWord(term: string): boolean {
  return ENGLISH.has(term);
}

/** The words left once stop words that are neither prefixes nor phrase words are removed. */
export function withoutStopWords(words: QueryWord[]): QueryWord[] {
  return words.filter((word) => word.prefix || word.phrase >= 0 || !ENGLISH.has(word.term));
}
