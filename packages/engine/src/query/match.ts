/**
 * From parsed words to the match set: expands each word (cached, so the N+1 queries of an InstantSearch batch
 * share their postings unions, and kept up to date across writes), then combines the words' document sets: AND of the
 * required words (OR of all words when every word is optional), minus `-excluded` words, within the filters.
 */
import { intersectInto, unionInto, type Bitset } from '../structures/bitset.ts';
import { queryBitsets } from '../structures/bitset-pool.ts';
import type { TextIndex } from '../index/text-index.ts';
import { expandWord, sequenceSynonyms, typosForLength, type ExpandedWord } from './expand.ts';
import type { QueryWord } from './parse.ts';
import type { SynonymTable } from './synonyms.ts';
import type { QueryOptions } from './options.ts';

const CACHE_SIZE = 128;

/**
 * Expanded words by query word and options. Writes do not empty it: an entry built before documents were
 * appended is extended by those documents when next used (`ExpandedWord.extend`), which at a million documents
 * costs a copy of its bitsets instead of OR-ing every posting of every alternative again.
 */
export class WordCache {
  private readonly entries = new Map<string, ExpandedWord>();

  get(text: TextIndex, key: string, build: () => ExpandedWord): ExpandedWord {
    let entry = this.entries.get(key);
    if (entry !== undefined) {
      // Refresh recency: Map iteration order is insertion order, so re-inserting makes this the newest.
      this.entries.delete(key);
      if (entry.documents !== text.documentCount || entry.text !== text) {
        const extended = entry.extend(text);
        if (extended === null) entry.retire();
        entry = extended ?? build();
      }
      this.entries.set(key, entry);
      return entry;
    }
    entry = build();
    this.entries.set(key, entry);
    if (this.entries.size > CACHE_SIZE) {
      // The oldest entry is never one of the current query's words (those were just used), so its bitsets can
      // be recycled once this search ends.
      const oldest = this.entries.keys().next().value as string;
      this.entries.get(oldest)!.retire();
      this.entries.delete(oldest);
    }
    return entry;
  }

  clear(): void {
    for (const entry of this.entries.values()) entry.retire();
    this.entries.clear();
  }
}

export function maxTyposFor(word: QueryWord, options: QueryOptions): number {
  if (options.typoTolerance === false || word.phrase >= 0) return 0;
  if (options.disableTypoToleranceOnWords.has(word.term)) return 0;
  if (!options.allowTyposOnNumericTokens && /^\d+$/.test(word.term)) return 0;
  return typosForLength([...word.term].length, options.minWordSizefor1Typo, options.minWordSizefor2Typos);
}

export function expandWords(
  text: TextIndex,
  words: QueryWord[],
  options: QueryOptions,
  synonyms: SynonymTable | null,
  cache: WordCache,
): ExpandedWord[] {
  const table = options.synonyms ? synonyms : null;
  const extra = sequenceSynonyms(words, table);
  return words.map((word, i) => {
    const maxTypos = maxTyposFor(word, options);
    const plurals = options.plurals && word.phrase < 0;
    const useSynonyms = word.phrase < 0 ? table : null;
    const key = `${word.term}\u0000${word.prefix ? 1 : 0}${maxTypos}${plurals ? 1 : 0}${useSynonyms ? 1 : 0}\u0000${extra[i].join(' ')}`;
    const expanded = cache.get(text, key, () => expandWord(text, { ...word, original: word.term }, { maxTypos, plurals, synonyms: useSynonyms }, extra[i]));
    // The cached entry is shared; the shopper's spelling of this occurrence is per query.
    return { ...expanded, word };
  });
}

/**
 * The match set and its size: the documents in every set of `base` (the filters and the live documents) that
 * contain the required words, minus the excluded ones. Required words and base are intersected in one pass.
 */
export function combineWords(words: ExpandedWord[], required: boolean[], excluded: Bitset[], base: Bitset[], capacity: number): { matches: Bitset; count: number } {
  const sets = [...base];
  if (words.length > 0) {
    if (required.some(Boolean)) {
      const wordSets = words.filter((_, i) => required[i]).map((word) => word.docs);
      sets.push(...wordSets);
    } else {
      const any = queryBitsets.scratch(capacity);
      unionInto(any, words.map((word) => word.docs));
      sets.push(any);
    }
  }
  const result = queryBitsets.scratch(capacity);
  let count = intersectInto(result, sets);
  for (const set of excluded) count = result.andNotCount(set);
  return { matches: result, count };
}

export function postingsBitset(text: TextIndex, term: string): Bitset {
  const set = queryBitsets.acquire(text.documentCount);
  const id = text.dict.idOf(term);
  if (id !== undefined) text.orInto(id, set);
  return set;
}
