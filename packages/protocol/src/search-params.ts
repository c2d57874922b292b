/** Shapes shared by search parameters and index settings. */
import type { SearchExtensions } from './query-categorization.ts';
export type TypoTolerance = boolean | 'min' | 'strict' | 'true' | 'false';
export type IgnorePlurals = boolean | string[] | 'true' | 'false';
export type RemoveWordsIfNoResults = 'none' | 'lastWords' | 'firstWords' | 'allOptional';
export type QueryType = 'prefixLast' | 'prefixAll' | 'prefixNone';
export type Distinct = boolean | number;
export type SortFacetValuesBy = 'count' | 'alpha';

/** `facetFilters`, `numericFilters`, `tagFilters`, `optionalFilters`: a string, or an AND-list whose nested lists are OR-groups. */
export type FilterList = string | Array<string | FilterGroup>;

/** An OR group; arrays nested in it add their strings to it (Algolia accepts them, as its spec's recursive type). */
export type FilterGroup = Array<string | FilterGroup>;

export interface RenderingContent {
  facetOrdering?: {
    facets?: { order?: string[] };
    values?: Record<string, { order?: string[]; sortRemainingBy?: 'count' | 'alpha' | 'hidden'; hide?: string[] }>;
  };
  redirect?: { url?: string };
  widgets?: unknown;
  [key: string]: unknown;
}

/**
 * Search parameters, as `POST /1/indexes/{index}/query` and each request of a multi-query carry them
 * (either as JSON fields, or url-encoded in `params`: the server merges both into this shape).
 */
export interface SearchParams {
  query?: string;
  similarQuery?: string;
  page?: number;
  hitsPerPage?: number;
  offset?: number;
  length?: number;
  filters?: string;
  facetFilters?: FilterList;
  numericFilters?: FilterList;
  tagFilters?: FilterList;
  optionalFilters?: FilterList;
  sumOrFiltersScores?: boolean;
  facets?: string[] | string;
  maxValuesPerFacet?: number;
  sortFacetValuesBy?: SortFacetValuesBy;
  facetingAfterDistinct?: boolean;
  attributesToRetrieve?: string[] | string;
  attributesToHighlight?: string[] | string;
  attributesToSnippet?: string[] | string;
  highlightPreTag?: string;
  highlightPostTag?: string;
  snippetEllipsisText?: string;
  restrictHighlightAndSnippetArrays?: boolean;
  restrictSearchableAttributes?: string[] | string;
  getRankingInfo?: boolean;
  clickAnalytics?: boolean;
  analytics?: boolean;
  analyticsTags?: string[];
  enableABTest?: boolean;
  enablePersonalization?: boolean;
  enableRules?: boolean;
  enableReRanking?: boolean;
  /** Whether re-ranking still applies when the search is personalized (off by default, as on Algolia). */
  allowReRankingOnPersonalization?: boolean;
  /** Restricts dynamic re-ranking to the records these filters match (a filter string, or a list as `facetFilters`). */
  reRankingApplyFilter?: string | FilterList | null;
  /** Query categorization: `{ queryCategorization: { enableCategoriesRetrieval, enableAutoFiltering } }`. */
  extensions?: SearchExtensions;
  ruleContexts?: string[];
  userToken?: string;
  queryType?: QueryType;
  typoTolerance?: TypoTolerance;
  minWordSizefor1Typo?: number;
  minWordSizefor2Typos?: number;
  allowTyposOnNumericTokens?: boolean;
  disableTypoToleranceOnAttributes?: string[];
  ignorePlurals?: IgnorePlurals;
  removeStopWords?: boolean | string[];
  decompoundQuery?: boolean;
  queryLanguages?: string[];
  removeWordsIfNoResults?: RemoveWordsIfNoResults;
  advancedSyntax?: boolean;
  advancedSyntaxFeatures?: string[];
  optionalWords?: string[] | string | null;
  synonyms?: boolean;
  replaceSynonymsInHighlight?: boolean;
  distinct?: Distinct;
  minProximity?: number;
  responseFields?: string[];
  percentileComputation?: boolean;
  relevancyStrictness?: number;
  aroundLatLng?: string;
  aroundLatLngViaIP?: boolean;
  aroundRadius?: number | 'all';
  aroundPrecision?: number | Array<{ from?: number; value?: number }>;
  minimumAroundRadius?: number;
  insideBoundingBox?: number[][] | string;
  insidePolygon?: number[][];
  naturalLanguages?: string[];
  renderingContent?: RenderingContent;
  /**
   * Vitrine's extension: the query's vector, for an embedder of the index's `embedders` (the one named by
   * `hybrid`, or the only one). Without `hybrid`, a vector search (`semanticRatio` 1).
   */
  vector?: number[];
  /**
   * Vitrine's extension: keyword and vector results merged. `semanticRatio` 0 = keywords only, 1 = vectors only
   * (default 0.5). A `rest` embedder embeds the query text when no `vector` is given.
   */
  hybrid?: { embedder?: string; semanticRatio?: number };
  /** Vitrine's extension: hits show their `_vectors` (left out otherwise, unless `attributesToRetrieve` names it). */
  retrieveVectors?: boolean;
  /** Set by the multi-query route for `type: "facet"` requests. */
  facetQuery?: string;
  maxFacetHits?: number;
  /** Unknown parameters are accepted and ignored, as Algolia does for forward compatibility. */
  [param: string]: unknown;
}
