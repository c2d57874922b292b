import type {
  BrowseResponse,
  IndexRecord,
  IndexSettings,
  SearchForFacetValuesResponse,
  SearchParams,
  SearchResponse,
  SynonymHit,
} from '@vitrine/protocol';
import type { FilterNode } from './filter/types.ts';

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

  /**
   * One search with Algolia's semantics. `settingsOverride` lets a replica (standard or virtual) search the
   * primary's records with its own ranking settings without copying them.
   */
  search(params: SearchParams, settingsOverride?: IndexSettings, options?: SearchOptions): SearchResponse;
  searchForFacetValues(facetName: string, facetQuery: string, params: SearchParams, options?: SearchOptions): SearchForFacetValuesResponse;
  /** Unranked iteration over the records matching params (filters and query), from an opaque cursor. */
  browse(params: SearchParams & { cursor?: string }, options?: SearchOptions): BrowseResponse;

  /** A compact binary snapshot of records, settings, synonyms and derived structures, loadable with `loadSnapshot`. */
  saveSnapshot(): Uint8Array;
}
