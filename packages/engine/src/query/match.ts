/**
 * From parsed words to the match set: expands each word (cached per index version, so the N+1 queries of an
 * InstantSearch batch share their postings unions), then combines the words' document sets: AND of the
 * required words (OR of all words when every word is optional), minus `-excluded` words, within the filters.
 */
import { Bitset } from '../structures/bitset.ts';
import type { TextIndex } from '../index/text-index.ts';
import { expandWord, sequenceSynonyms, typosForLength, type ExpandedWord } from './expand.ts';
import type { QueryWord } from './parse.ts';
import type { SynonymTable } from './synonyms.ts';
import type { QueryOptions } from './options.ts';

const CACHE_SIZE = 128;

export class WordCache {
  private readonly entries = new Map<string, ExpandedWord>();
  private version = -1;

  get(version: number, key: string, build: () => ExpandedWord): ExpandedWord {
    if (version !== this.version) {
      this.entries.clear();
      this.version = version;
    }
    let entry = this.entries.get(key);
    if (entry !== undefined) {
      // Refresh recency: Map iteration order is insertion order, so re-inserting makes this the newest.
      this.entries.delete(key);
      this.entries.set(key, entry);
      return entry;
    }
    entry = build();
    this.entries.set(key, entry);
    if (this.entries.size > CACHE_SIZE) this.entries.delete(this.entries.keys().next().value as string);
    return entry;
  }

  clear(): void {
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
  version: number,
): ExpandedWord[] {
  const table = options.synonyms ? synonyms : null;
  const extra = sequenceSynonyms(words, table);
  return words.map((word, i) => {
    const maxTypos = maxTyposFor(word, options);
    const plurals = options.plurals && word.phrase < 0;
    const useSynonyms = word.phrase < 0 ? table : null;
    const key = `${word.term}\u0000${word.prefix ? 1 : 0}${maxTypos}${plurals ? 1 : 0}${useSynonyms ? 1 : 0}\u0000${extra[i].join(' ')}`;
    const expanded = cache.get(version, key, () => expandWord(text, { ...word, original: word.term }, { maxTypos, plurals, synonyms: useSynonyms }, extra[i]));
    // The cached entry is shared; the shopper's spelling of this occurrence is per query.
    return { ...expanded, word };
  });
}

export function combineWords(words: ExpandedWord[], required: boolean[], excluded: Bitset[], base: Bitset): Bitset {
  const result = base.clone();
  if (words.length > 0) {
    if (required.some(Boolean)) {
      words.forEach((word, i) => {
        if (required[i]) result.and(word.docs);
      });
    } else {
      const any = new Bitset(base.capacity);
      for (const word of words) any.or(word.docs);
      result.and(any);
    }
  }
  for (const set of excluded) result.andNot(set);
  return result;
}

export function postingsBitset(text: TextIndex, term: string): Bitset {
  const set = new Bitset(text.documentCount);
  const id = text.dict.idOf(term);
  if (id !== undefined) text.orInto(id, set);
  return set;
}
