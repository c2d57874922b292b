/**
 * From parsed words to the match set: expands each word (cached, so the N+1 queries of an InstantSearch batch
 * share their postings unions, and kept up to date across writes), then combines the words' document sets: AND of the
 * required words (OR of all words when every word is optional), minus `-excluded` words, within the filters.
 */
import { intersectInto, unionInto, type Bitset } from '../structures/bitset.ts';
import { queryBitsets } from '../structures/bitset-pool.ts';
import type { TextIndex } from '../index/text-index.ts';
import { expandWord, sequenceSynonyms, typosForLength, type ExpandedWord } from './expand.ts';
import type { Dictionaries } from './dictionaries.ts';
import type { QueryWord } from './parse.ts';
import type { SynonymTable } from './synonyms.ts';
import type { QueryOptions } from './options.ts';

/**
 * Bytes of bitsets the cached expansions may hold, and the entries kept whatever their size. The floor keeps
 * a few dozen queries' words at a million documents (a few hundred KB each); the budget keeps a catalogue's
 * whole as-you-type vocabulary at 100,000 (2,300 prefixes of 2,000 words in the HTTP benchmark, ~30 KB each),
 * where a floor alone missed nine expansions in ten.
 */
export const DEFAULT_WORD_CACHE_BYTES = 64 << 20;
const MIN_ENTRIES = 128;

interface CachedWord {
  expanded: ExpandedWord;
  /** Its bitsets' bytes when last counted (lazily built sets are counted at the next use). */
  bytes: number;
}

/**
 * Expanded words by query word and options, least recently used first out. Writes do not empty it: an entry
 * built before documents were appended is extended by those documents when next used (`ExpandedWord.extend`),
 * which at a million documents costs a copy of its bitsets instead of OR-ing every posting of every
 * alternative again. Entries over the budget are dropped by `trim`, once the search using them has ended.
 */
export class WordCache {
  private readonly entries = new Map<string, CachedWord>();
  private bytes = 0;

  constructor(private readonly maxBytes = DEFAULT_WORD_CACHE_BYTES) {}

  get(text: TextIndex, key: string, build: () => ExpandedWord): ExpandedWord {
    const cached = this.entries.get(key);
    let entry: ExpandedWord;
    if (cached !== undefined) {
      // Refresh recency: Map iteration order is insertion order, so re-inserting makes this the newest.
      this.entries.delete(key);
      this.bytes -= cached.bytes;
      entry = cached.expanded;
      if (entry.documents !== text.documentCount || entry.text !== text) {
        const extended = entry.extend(text);
        if (extended === null) entry.retire();
        entry = extended ?? build();
      }
    } else entry = build();
    const bytes = entry.bytes();
    this.entries.set(key, { expanded: entry, bytes });
    this.bytes += bytes;
    return entry;
  }

  /**
   * Drops the least recently used entries past the budget. Called between searches: an entry dropped during
   * one could be a word of that very search, whose bitsets must stay intact until it ends.
   */
  trim(): void {
    for (const [key, cached] of this.entries) {
      if (this.bytes <= this.maxBytes || this.entries.size <= MIN_ENTRIES) break;
      cached.expanded.retire();
      this.entries.delete(key);
      this.bytes -= cached.bytes;
    }
  }

  get size(): number {
    return this.entries.size;
  }

  clear(): void {
    for (const cached of this.entries.values()) cached.expanded.retire();
    this.entries.clear();
    this.bytes = 0;
  }
}

/**
 * Query words allowed typos; those after them must match as typed (or as prefixes). A word's typo variants
 * are a walk of the dictionary each: 32 short words with typos allowed held a search thread 20–70 ms.
 */
export const MAX_TYPO_WORDS = 10;

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
  dictionaries: Dictionaries,
): ExpandedWord[] {
  const table = options.synonyms ? synonyms : null;
  const extra = sequenceSynonyms(words, table);
  const languages = options.pluralLanguages;
  const pluralForms = languages.length === 0 ? null : (term: string) => dictionaries.pluralForms(term, languages);
  return words.map((word, i) => {
    const maxTypos = i < MAX_TYPO_WORDS ? maxTyposFor(word, options) : 0;
    const plurals = pluralForms !== null && word.phrase < 0;
    const useSynonyms = word.phrase < 0 ? table : null;
    // A part of a split compound also matches the compound itself, as records may hold it whole.
    const extraTerms = word.compound === undefined ? extra[i] : [...extra[i], word.compound];
    // The cache is dropped whenever the dictionaries change, so the languages are all the key needs of them.
    const key = `${word.term}\u0000${word.prefix ? 1 : 0}${maxTypos}${plurals ? languages.join(',') : ''}${useSynonyms ? 1 : 0}\u0000${extraTerms.join(' ')}`;
    const expanded = cache.get(text, key, () =>
      expandWord(text, { ...word, original: word.term }, { maxTypos, pluralForms: plurals ? pluralForms : null, synonyms: useSynonyms }, extraTerms),
    );
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
