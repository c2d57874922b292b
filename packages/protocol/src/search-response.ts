import type { IndexRecord } from './records.ts';
import type { RenderingContent } from './search-params.ts';
import type { AppliedRule } from './rules.ts';
import type { QueryCategorization } from './query-categorization.ts';
import type { PersonalizationRankingInfo } from './personalization.ts';

export type MatchLevel = 'none' | 'partial' | 'full';

export interface HighlightResultOption {
  value: string;
  matchLevel: MatchLevel;
  matchedWords: string[];
  fullyHighlighted?: boolean;
}
/** Mirrors the record: an option per string leaf, arrays and objects recursively. */
export type HighlightResult = HighlightResultOption | HighlightResult[] | { [attribute: string]: HighlightResult };

export interface SnippetResultOption {
  value: string;
  matchLevel: MatchLevel;
}
export type SnippetResult = SnippetResultOption | SnippetResult[] | { [attribute: string]: SnippetResult };

export interface RankingInfo {
  nbTypos: number;
  firstMatchedWord: number;
  proximityDistance: number;
  userScore: number;
  geoDistance: number;
  geoPrecision: number;
  nbExactWords: number;
  words: number;
  filters: number;
  /** The record was pinned by a rule's `promote`. */
  promoted?: boolean;
  /** Personalized searches: how the user's affinities placed the hit. */
  personalization?: PersonalizationRankingInfo;
  /** Hybrid searches: the hit's place among the keyword results (1-based; absent: not a keyword hit). */
  keywordRank?: number;
  /** Hybrid searches: the hit's place among the nearest vectors (1-based; absent: not among them). */
  semanticRank?: number;
  /** Hybrid searches: the cosine similarity of the hit's vector to the query's (-1 to 1). */
  semanticScore?: number;
  /** Hybrid searches: the fused score that orders the hits (weighted reciprocal ranks). */
  hybridScore?: number;
  /** Dynamic re-ranking placed the hit ahead of the hits it had no boost over (`enableReRanking`). */
  promotedByReRanking?: boolean;
  /**
   * Vitrine's extension: why re-ranking moved the hit. Clicks and conversions of this query's shoppers on it,
   * the clicks its positions predicted, and the score (engagement over prediction, shrunk towards 1).
   */
  reRanking?: { score: number; clicks: number; conversions: number; expectedClicks: number };
}

export type Hit<T extends IndexRecord = IndexRecord> = T & {
  _highlightResult?: Record<string, HighlightResult>;
  _snippetResult?: Record<string, SnippetResult>;
  _rankingInfo?: RankingInfo;
  _distinctSeqID?: number;
};

export interface FacetStats {
  min: number;
  max: number;
  avg: number;
  sum: number;
}

/** `POST /1/indexes/{index}/query` and each `type: "default"` result of a multi-query. */
export interface SearchResponse<T extends IndexRecord = IndexRecord> {
  hits: Array<Hit<T>>;
  nbHits: number;
  page: number;
  nbPages: number;
  hitsPerPage: number;
  /** Set instead of page/nbPages when `offset`/`length` were used. */
  offset?: number;
  length?: number;
  exhaustiveNbHits: boolean;
  exhaustiveFacetsCount?: boolean;
  exhaustiveTypo?: boolean;
  exhaustive?: { nbHits?: boolean; facetsCount?: boolean; typo?: boolean; facetValues?: boolean; rulesMatch?: boolean };
  facets?: Record<string, Record<string, number>>;
  facets_stats?: Record<string, FacetStats>;
  processingTimeMS: number;
  query: string;
  params: string;
  index?: string;
  queryID?: string;
  /** Query categorization (`extensions.queryCategorization`), when the search asks for it. */
  extensions?: { queryCategorization?: QueryCategorization };
  /** Set when an A/B test routed the search (`abtests.ts`). */
  abTestID?: number;
  abTestVariantID?: number;
  /** The index an A/B test sent the search to, when it is not the one the request named. */
  indexUsed?: string;
  nbSortedHits?: number;
  appliedRelevancyStrictness?: number;
  parsedQuery?: string;
  renderingContent?: RenderingContent;
  cursor?: string;
  /** `userData` of the rules applied, in order of precedence. */
  userData?: unknown[];
  /** Rules applied (with `getRankingInfo`). */
  appliedRules?: AppliedRule[];
  /** The query after the rules' word removals, when they removed any. */
  queryAfterRemoval?: string;
  /** Hybrid searches: hits of the page that were among the nearest vectors (Meilisearch's name). */
  semanticHitCount?: number;
  serverTimeMS?: number;
  processingTimingsMS?: unknown;
}

export interface FacetHit {
  value: string;
  highlighted: string;
  count: number;
}

/** `POST /1/indexes/{index}/facets/{facet}/query` and `type: "facet"` results of a multi-query. */
export interface SearchForFacetValuesResponse {
  facetHits: FacetHit[];
  exhaustiveFacetsCount: boolean;
  processingTimeMS: number;
}

export interface BrowseResponse<T extends IndexRecord = IndexRecord> extends SearchResponse<T> {
  cursor?: string;
}
