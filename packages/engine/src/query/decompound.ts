/**
 * `decompoundQuery`: a query word the compounds dictionary knows ("kopfschmerztablette") becomes its parts
 * ("kopf", "schmerz", "tablette"), each required as any query word is, and each also matching the whole
 * compound — so records holding the parts apart and records holding the compound both match. Words of a
 * quoted phrase and the word being typed (a prefix) stay as they are.
 */
import type { Dictionaries } from './dictionaries.ts';
import type { QueryWord } from './parse.ts';

export function decompound(words: QueryWord[], dictionaries: Dictionaries, languages: readonly string[]): QueryWord[] {
  if (languages.length === 0) return words;
  const result: QueryWord[] = [];
  for (const word of words) {
    const parts = word.prefix || word.phrase >= 0 ? null : dictionaries.decomposition(word.term, languages);
    if (parts === null) result.push(word);
    else for (const part of parts) result.push({ original: word.original, term: part, prefix: false, phrase: -1, compound: word.term });
  }
  return result;
}
