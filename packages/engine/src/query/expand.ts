/**
 * Word expansion: each query word becomes the set of dictionary terms that count as that word, each with the
 * number of typos it costs and whether it counts as an exact match: the word itself, its prefix completions
 * (as-you-type), its typo variants (1 typo from `minWordSizefor1Typo` letters, 2 from `minWordSizefor2Typos`),
 * plural forms (`ignorePlurals`) and synonyms. The documents of a word are the union of the postings of its
 * terms.
 */
import type { Bitset } from '../structures/bitset.ts';
import { queryBitsets } from '../structures/bitset-pool.ts';
import type { TextIndex } from '../index/text-index.ts';
import type { SynonymTable } from './synonyms.ts';
import type { QueryWord } from './parse.ts';

export interface Alternative {
  termId: number;
  typos: number;
  /** A whole-word match with no typo (plural forms and single-word synonyms count as exact, as in Algolia). */
  exact: boolean;
}

export interface WordOptions {
  maxTypos: number;
  /** Other forms of a term (`ignorePlurals`), or null when plurals are not ignored. */
  pluralForms: ((term: string) => string[]) | null;
  synonyms: SynonymTable | null;
}

export interface ExpandedWord {
  word: QueryWord;
  maxTypos: number;
  alternatives: Alternative[];
  /** Normalised alternatives that are not the word itself, for highlighting (plurals, synonyms). */
  alternativeTerms: string[];
  /** Live and deleted documents containing any alternative (the caller intersects with live documents). */
  docs: Bitset;
  /** levels[t]: documents matching with at most t typos; the last level is `docs` (shared objects when equal). */
  levels: Bitset[];
  /** Hands this entry's bitsets back to the pool (it is being dropped from the cache). */
  retire(): void;
  /** Bytes of the bitsets it holds (the levels, and the exact and sole sets once built). */
  bytes(): number;
  /** Documents containing an alternative that counts as exact (whole word, no typo); built on first use. */
  exact(): Bitset;
  /** Documents where such an alternative is a whole attribute value on its own; built on first use. */
  sole(): Bitset;
  /**
   * This entry brought up to the documents appended to `text` since it was built (this entry is retired), or
   * null when a fresh expansion is cheaper or needed.
   */
  extend(text: TextIndex): ExpandedWord | null;
  /** The index and its document count when this entry was built or last extended. */
  text: TextIndex;
  documents: number;
}

/** Typos allowed for a word of this length under the typo settings (before per-word exceptions). */
export function typosForLength(length: number, minFor1: number, minFor2: number): number {
  if (length >= minFor2) return 2;
  if (length >= minFor1) return 1;
  return 0;
}

/** Largest number of documents appended since an entry was built that `extend` still reads one by one. */
const EXTEND_LIMIT = 2048;

interface Expansion {
  alternatives: Alternative[];
  alternativeTerms: string[];
}

/** The dictionary terms that count as `word`, each with its typos and exactness. */
function collectAlternatives(text: TextIndex, word: QueryWord, options: WordOptions, extraTerms: string[]): Expansion {
  const dict = text.dict;
  const best = new Map<number, Alternative>();
  const offer = (termId: number, typos: number, exact: boolean): void => {
    const current = best.get(termId);
    if (current === undefined || typos < current.typos || (typos === current.typos && exact && !current.exact)) {
      best.set(termId, { termId, typos, exact });
    }
  };
  const own = dict.idOf(word.term);
  if (own !== undefined) offer(own, 0, true);
  if (options.maxTypos > 0) {
    dict.fuzzy(word.term, options.maxTypos, word.prefix, (termId, distance) => offer(termId, distance, false));
  } else if (word.prefix) {
    dict.forEachWithPrefix(word.term, (termId) => offer(termId, 0, false));
  }
  const alternativeTerms: string[] = [];
  const addAlternative = (term: string): void => {
    const id = dict.idOf(term);
    if (id !== undefined) offer(id, 0, true);
    alternativeTerms.push(term);
  };
  if (options.pluralForms) for (const form of options.pluralForms(word.term)) if (dict.idOf(form) !== undefined) addAlternative(form);
  if (options.synonyms) {
    for (const synonym of options.synonyms.get(word.term) ?? []) {
      // Multi-word synonyms count each of their words as this word (an approximation: no adjacency check).
      for (const term of synonym) addAlternative(term);
    }
  }
  for (const term of extraTerms) addAlternative(term);
  return { alternatives: [...best.values()], alternativeTerms };
}

function topLevelOf(alternatives: Alternative[]): number {
  return alternatives.reduce((max, a) => Math.max(max, a.typos), 0);
}

export function expandWord(text: TextIndex, word: QueryWord, options: WordOptions, extraTerms: string[] = []): ExpandedWord {
  const expansion = collectAlternatives(text, word, options, extraTerms);
  const { alternatives } = expansion;
  const capacity = text.documentCount;
  const levels: Bitset[] = [];
  let current = queryBitsets.take(capacity);
  for (let t = 0; t <= topLevelOf(alternatives); t++) {
    const added = alternatives.filter((a) => a.typos === t);
    if (t > 0 && added.length > 0) {
      const next = queryBitsets.take(capacity);
      next.words.set(current.words);
      current = next;
    }
    for (const alternative of added) text.orInto(alternative.termId, current);
    levels.push(current);
  }
  return assemble(text, word, options, extraTerms, expansion, levels);
}

/**
 * The cache entry around computed levels. `extend` brings it up to documents appended since, reading only those
 * documents' tokens from the forward index: a term new to the dictionary can only occur in them, and an older
 * document's tokens never change (a replaced record gets a new id; deleted ones are masked by the caller).
 */
function assemble(text: TextIndex, word: QueryWord, options: WordOptions, extraTerms: string[], expansion: Expansion, levels: Bitset[]): ExpandedWord {
  const { alternatives, alternativeTerms } = expansion;
  const documents = text.documentCount;
  const termsAtBuild = text.dict.size;
  const capacity = levels[levels.length - 1].capacity;
  const exactTerms = alternatives.filter((a) => a.exact).map((a) => a.termId);
  let exact: Bitset | null = null;
  let sole: Bitset | null = null;
  const held = (): Set<Bitset | null> => new Set([...levels, exact, sole]);
  const retire = (): void => {
    for (const set of held()) if (set !== null) queryBitsets.retire(set);
  };
  return {
    word,
    text,
    documents,
    retire,
    bytes() {
      let total = 0;
      for (const set of held()) if (set !== null) total += set.words.byteLength;
      return total;
    },
    maxTypos: options.maxTypos,
    alternatives,
    alternativeTerms,
    docs: levels[levels.length - 1],
    levels,
    exact() {
      if (exact === null) {
        exact = queryBitsets.take(capacity);
        for (const termId of exactTerms) text.orInto(termId, exact);
      }
      return exact;
    },
    sole() {
      if (sole === null) {
        sole = queryBitsets.take(capacity);
        for (const termId of exactTerms) text.orSoleInto(termId, sole);
      }
      return sole;
    },
    extend(current: TextIndex): ExpandedWord | null {
      const now = current.documentCount;
      if (current !== text || now < documents || now - documents > EXTEND_LIMIT) return null;
      // The dictionary only grows: with no new term since, the alternatives are the same (most writes, such as
      // a stock or popularity update, bring no new word), and the fuzzy walk need not run again.
      const next = current.dict.size === termsAtBuild ? expansion : collectAlternatives(current, word, options, extraTerms);
      const byTerm = new Map<number, Alternative>();
      for (const alternative of next.alternatives) byTerm.set(alternative.termId, alternative);
      // New terms may join; an existing one never changes its typos (same word, same dictionary entry).
      for (const old of alternatives) {
        const fresh = byTerm.get(old.termId);
        if (fresh === undefined || fresh.typos !== old.typos || fresh.exact !== old.exact) return null;
      }
      const top = topLevelOf(next.alternatives);
      if (top !== levels.length - 1) return null;
      const grown: Bitset[] = [];
      for (let t = 0; t <= top; t++) {
        // Same sharing as a fresh build: a level is its own set only when some alternative costs t typos.
        if (t > 0 && !next.alternatives.some((a) => a.typos === t)) {
          grown.push(grown[t - 1]);
          continue;
        }
        const set = queryBitsets.take(now);
        set.words.set(levels[t].words);
        grown.push(set);
      }
      const forward = current.forward;
      for (let doc = documents; doc < now; doc++) {
        const terms = forward.termPages[forward.pageOf(doc)];
        for (let k = forward.firstOf(doc), end = forward.endOf(doc); k < end; k++) {
          const alternative = byTerm.get(terms[k]);
          if (alternative !== undefined) for (let t = alternative.typos; t <= top; t++) grown[t].add(doc);
        }
      }
      retire();
      return assemble(current, word, options, extraTerms, next, grown);
    },
  };
}

/**
 * Multi-word synonyms of consecutive query words ("television set" → "tv"): the single-term replacements are
 * returned per word index, so a document with "tv" satisfies both words.
 */
export function sequenceSynonyms(words: QueryWord[], table: SynonymTable | null): string[][] {
  const extra: string[][] = words.map(() => []);
  if (table === null) return extra;
  for (let start = 0; start < words.length; start++) {
    for (let end = start + 2; end <= Math.min(words.length, start + 4); end++) {
      const key = words.slice(start, end).map((w) => w.term).join(' ');
      for (const synonym of table.get(key) ?? []) {
        if (synonym.length !== 1) continue;
        for (let i = start; i < end; i++) extra[i].push(synonym[0]);
      }
    }
  }
  return extra;
}
