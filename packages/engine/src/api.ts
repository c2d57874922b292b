import type { Dictionaries } from './query/dictionaries.ts';
import type {
  BrowseResponse,
  IndexRecord,
  IndexSettings,
  SearchForFacetValuesResponse,
  SearchParams,
  Rule,
  SearchResponse,
  SearchRulesParams,
  SearchRulesResponse,
  SynonymHit,
} from '@vitrine/protocol';
import type { FilterNode } from './filter/types.ts';
import type { SearchPersonalization } from '@vitrine/protocol';
import type { ReRankingInput } from './rank/re-ranking.ts';

/** Per-call options the server adds to a search, beyond the caller's parameters. */
export interface SearchOptions {
  /** A filter forced by a secured API key: ANDed with the request's filters, whatever they say. */
  extraFilter?: FilterNode;
  /**
   * Highlight and snippet only attributes the hit retrieves: set when a key forces `attributesToRetrieve`, so
   * `_highlightResult` cannot show what the key hides (by default every searchable attribute is highlighted,
   * retrieved or not, as Algolia).
   */
  highlightRetrievedOnly?: boolean;
  /**
   * The time of the search in seconds since the epoch, for rules with `validity` ranges (the engine has no
   * clock). Without it, rules with validity ranges never apply.
   */
  nowSeconds?: number;
  /**
   * Parameters an API key forces: set over the request's by the server, and over the rules' consequences here
   * (`search/key-limits.ts`), so that a rule never widens what the key allows.
   */
  forcedParams?: SearchParams;
  /** An API key's `maxHitsPerQuery` (0 or absent: none): caps `hitsPerPage` and `length`, after the rules too. */
  maxHitsPerQuery?: number;
  /**
   * Count and search the facet values of `unretrievableAttributes` (a key with `seeUnretrievableAttributes`).
   * Without it they are left out of `facets` and `facets_stats`, and searching their values is refused as for
   * an attribute that is no facet: values such as a supplier's name are what the setting keeps from shoppers.
   */
  unretrievableFacets?: boolean;
  /**
   * The query's vector, computed by the caller from its text for the embedder `hybrid` names (a `rest` embedder:
   * the server calls it, the engine never leaves its thread). A `vector` parameter wins over it.
   */
  queryVector?: ArrayLike<number>;
  /** Dynamic re-ranking: the boosts learned for the search's query (`rank/re-ranking.ts` decides where they apply). */
  reRanking?: ReRankingInput;
  /** Personalization: the searching user's affinities (`rank/personalization.ts` decides whether they apply). */
  personalization?: SearchPersonalization;
}

/**
 * A search whose hits are built when asked (`EngineIndex.searchInSteps`): a caller answering many searches can
 * build a large page a few hits at a time and do other work between. The page was chosen, and its records read,
 * when the search started: writes made meanwhile change nothing of it.
 */
export interface SteppedSearch {
  /** The response. Until `done`, `hits` holds the hits built so far and `processingTimeMS` the time so far. */
  readonly response: SearchResponse;
  /** Every hit of the page is built. */
  readonly done: boolean;
  /** Hits of the page still to build, and the JSON bytes of their records (what building them costs). */
  readonly hitsToBuild: number;
  readonly recordBytesToBuild: number;
  /** Builds up to `count` more hits, appended to `response.hits`. */
  buildHits(count: number): void;
}

/**
 * The engine's public contract, used by the server, the importer, the benchmarks and the tests.
 * Everything is synchronous and pure in-memory; errors a caller can cause are thrown as `EngineError`.
 */
export interface EngineIndex {
  /** Number of live records. */
  readonly size: number;

  /** The settings as set (only explicitly set keys), as `GET …/settings` returns them after defaults are merged by the server. */
  getSettings(): IndexSettings;
  /** Replaces the whole settings object (the server merges partial updates); rebuilds what the change requires. */
  setSettings(settings: IndexSettings): void;

  /** Adds or replaces records by objectID, atomically: on error nothing is applied. */
  saveObjects(records: IndexRecord[]): void;
  /** Removes records by objectID; unknown ids are ignored. */
  deleteObjects(objectIDs: string[]): void;
  clear(): void;
  getObject(objectID: string): IndexRecord | undefined;
  /** Records by objectID, in order; undefined for missing ones and for those outside `options.extraFilter`. */
  getObjects(objectIDs: readonly string[], options?: SearchOptions): Array<IndexRecord | undefined>;
  /** Every live record, in internal order (for export, copy, browse). */
  records(): IterableIterator<IndexRecord>;

  setSynonyms(synonyms: SynonymHit[]): void;
  /** The application's dictionaries (stop words, plurals, compounds); the same for every index. */
  setDictionaries(dictionaries: Dictionaries): void;

  /** Rules (merchandising), stored like synonyms: replace all, save some, delete one, clear, read, search. */
  setRules(rules: Rule[]): void;
  saveRules(rules: Rule[]): void;
  deleteRule(objectID: string): boolean;
  clearRules(): void;
  getRule(objectID: string): Rule | undefined;
  getRules(): Rule[];
  searchRules(params?: SearchRulesParams): SearchRulesResponse;

  /**
   * One search with Algolia's semantics. `settingsOverride` lets a replica (standard or virtual) search the
   * primary's records with its own ranking settings without copying them.
   */
  search(params: SearchParams, settingsOverride?: IndexSettings, options?: SearchOptions): SearchResponse;
  /** `search`, with the hits built by the caller's calls to `buildHits` rather than at once. */
  searchInSteps(params: SearchParams, settingsOverride?: IndexSettings, options?: SearchOptions): SteppedSearch;
  searchForFacetValues(facetName: string, facetQuery: string, params: SearchParams, options?: SearchOptions): SearchForFacetValuesResponse;
  /** Unranked iteration over the records matching params (filters and query), from an opaque cursor. */
  browse(params: SearchParams & { cursor?: string }, options?: SearchOptions): BrowseResponse;

  /** A compact binary snapshot of records, settings, synonyms and derived structures, loadable with `loadSnapshot`. */
  saveSnapshot(options?: SnapshotOptions): Uint8Array;
}

/** What a snapshot holds besides the index itself. */
export interface SnapshotOptions {
  /**
   * Other customRanking lists (as the setting: `["asc(price)"]`) whose orders the snapshot saves: those of the
   * virtual replicas searching these records, so that a restored index does not sort them again on their first
   * searches. An invalid list throws `INVALID_SETTING` before anything is saved.
   */
  customRankings?: readonly unknown[];
}
