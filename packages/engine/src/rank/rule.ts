/**
 * A ranking criterion: a key per document, lower ranks first. Criteria are applied in the order of the
 * `ranking` setting as successive tie-breaks (see `order.ts`); a criterion that cannot tell any two documents
 * of this query apart (proximity for a one-word query, say) is left out by returning null from its factory.
 *
 * Besides `key`, a criterion may offer cheaper ways to order a large bucket of documents:
 * - `split`: partition the bucket with bitset operations, best part first;
 * - `walk`: enumerate the bucket's documents in ascending key order (from a precomputed order or postings
 *   grouped by key), so the caller can stop as soon as it has placed enough documents.
 */
import type { Bitset } from '../structures/bitset.ts';
import type { TextIndex } from '../index/text-index.ts';
import type { ExpandedWord } from '../query/expand.ts';
import type { DocumentScanner } from './scan.ts';
import type { CustomOrder } from './custom-rank.ts';
import type { AdjacentPairs } from '../index/adjacent-pairs.ts';

export interface BucketPart {
  /** The part's documents, materialised only if ordering gets that far. */
  set: () => Bitset;
  count: number;
  /** Every document of the part has the same key for this criterion (else the criterion still applies). */
  resolved: boolean;
  /**
   * A resolved part of a few documents (at most `SMALL`, `order.ts`) as ascending ids, when the rule has them at
   * hand: ordering takes them as they are, rather than a bitset the size of the index built and scanned again
   * for a handful of documents (a re-ranked record, a personalization step).
   */
  ids?: () => Uint32Array;
  /**
   * `ids` are in their final order: the criteria after this one would not reorder them (a criterion that knows
   * them, as personalization knows customRanking's order), so ordering places them as they are.
   */
  inOrder?: boolean;
}

export interface RankRule {
  readonly name: string;
  key(doc: number): number;
  /** Keys of many documents (ascending ids) at once, when that is cheaper than one by one. */
  keys?(docs: Uint32Array, out: Float64Array): void;
  /**
   * `need`: how many of the bucket's first records the caller places (undefined: maybe all of them, in order),
   * for a criterion that can find those without splitting the whole bucket.
   */
  split?(set: Bitset, count: number, need?: number): BucketPart[];
  /** Visits the documents of `bucket` in ascending key order until `visit` returns false. */
  walk?(bucket: Bitset, visit: (doc: number, key: number) => boolean): void;
  /** Whether walking is cheaper than sorting for a bucket of `count` documents out of `capacity`, `need` wanted. */
  walkPays?(count: number, capacity: number, need: number): boolean;
  /**
   * A key no document of this query can beat (proximity when every word is required: each pair of words at
   * least `minProximity` apart, or 2 when they never stand side by side). Lets a large bucket be ordered by walking the next criterion (see `order.ts`).
   */
  floor?: number;
}

export interface OptionalFilter {
  set: Bitset;
  score: number;
}

export interface RankContext {
  text: TextIndex;
  words: ExpandedWord[];
  /** Per-document measurements from the forward index (proximity always; everything in `verify` mode). */
  scanner: DocumentScanner;
  /**
   * True when positions decide membership (phrases, restricted or typo-free attributes): then typo, words,
   * attribute and exact come from the scanner, which applies those restrictions, not from postings.
   */
  verify: boolean;
  /** Whether some words are optional (optionalWords, removeWordsIfNoResults), making the words criterion useful. */
  hasOptionalWords: boolean;
  minProximity: number;
  /** Which terms ever stand side by side (built on first use, kept up to date by writes). */
  adjacentPairs: () => AdjacentPairs;
  exactOnSingleWord: 'attribute' | 'word' | 'none';
  optionalFilters: OptionalFilter[];
  /** customRanking order, or null without customRanking. */
  custom: CustomOrder | null;
  /** Order of documents by one numeric attribute (`asc(attr)`/`desc(attr)`), missing values last. */
  sortOrder(attribute: string, ascending: boolean): CustomOrder & { keys: Float64Array };
  /** Geo distance buckets, or null when geo ranking does not apply to this query. */
  geoKey: ((doc: number) => number) | null;
}

export type RuleFactory = (context: RankContext) => RankRule | null;
