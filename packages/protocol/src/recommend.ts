/**
 * The Recommend API (`POST /1/indexes/*\/recommendations`): requests per model and the response the official
 * recommend client and InstantSearch's recommendation widgets read.
 */
import type { IndexRecord } from './records.ts';
import type { TimeRange } from './rules.ts';
import type { SearchParams } from './search-params.ts';

export type RecommendModel = 'related-products' | 'bought-together' | 'trending-items' | 'trending-facets' | 'looking-similar';

interface BaseRecommendRequest {
  indexName: string;
  /** Minimum `_score` (0 to 100) of a recommendation. */
  threshold?: number;
  /** 1 to 30. Default 30. */
  maxRecommendations?: number;
  /** Search parameters (filters) the recommended items must satisfy. */
  queryParameters?: SearchParams;
}

export interface ObjectRecommendRequest extends BaseRecommendRequest {
  model: 'related-products' | 'bought-together' | 'looking-similar';
  objectID: string;
  /** A search run when the model returns fewer than `maxRecommendations` items. */
  fallbackParameters?: SearchParams;
}
export interface TrendingItemsRequest extends BaseRecommendRequest {
  model: 'trending-items';
  /** Restricts trending items to those with this facet value. */
  facetName?: string;
  facetValue?: string;
  fallbackParameters?: SearchParams;
}
export interface TrendingFacetsRequest extends BaseRecommendRequest {
  model: 'trending-facets';
  facetName: string;
}
export type RecommendRequest = ObjectRecommendRequest | TrendingItemsRequest | TrendingFacetsRequest;

export interface RecommendationsRequestBody {
  requests: RecommendRequest[];
}

export type RecommendHit<T extends IndexRecord = IndexRecord> = T & { _score?: number };
export interface TrendingFacetHit { facetName: string; facetValue: string; _score: number }

export interface RecommendationsResult {
  hits: Array<RecommendHit | TrendingFacetHit>;
  nbHits: number;
  page: number;
  nbPages: number;
  hitsPerPage: number;
  processingTimeMS: number;
  exhaustiveNbHits: boolean;
  /** Always true, as `exhaustive.typo`: recommendations have no typo tolerance to cut short. */
  exhaustiveTypo: boolean;
  exhaustive: { nbHits: boolean; typo: boolean };
  query: string;
  params: string;
  index?: string;
}
export interface RecommendationsResponse {
  results: RecommendationsResult[];
}

/**
 * Recommend rules (`/1/indexes/{indexName}/{model}/recommend/rules/...`): if-then statements that curate one
 * model's recommendations on one index. Rules exist for these models only (Algolia's spec leaves out
 * `looking-similar`).
 */
export type RecommendRuleModel = 'related-products' | 'bought-together' | 'trending-facets' | 'trending-items';

/** When a rule applies; absent, it applies to every recommendation of its model. */
export interface RecommendRuleCondition {
  /** The source item (the `objectID` of the request) must match this filter expression (numeric filters too). */
  filters?: string;
  /** The request's `queryParameters.ruleContexts` must hold this context (letters, digits, `_`, `-`). */
  context?: string;
}

/** Only items sharing (or, `negative`, not sharing) a value of `facet` with the source item are recommended. */
export interface RecommendAutoFacetFilter {
  facet: string;
  negative?: boolean;
}

export interface RecommendRuleConsequence {
  /** Items never recommended. */
  hide?: Array<{ objectID: string }>;
  /** Items placed at these positions (0-based) of the recommendations. */
  promote?: Array<{ objectID: string; position: number }>;
  params?: {
    automaticFacetFilters?: RecommendAutoFacetFilter[];
    /** Only items matching this filter expression are recommended. */
    filters?: string;
    /** `attr:value<score=N>` boosts the items matching it, `attr:-value` buries them. */
    optionalFilters?: string[];
  };
}

export interface RecommendRule {
  /** Set by the server when the rule is saved. */
  _metadata?: { lastUpdate?: string };
  objectID: string;
  condition?: RecommendRuleCondition;
  consequence?: RecommendRuleConsequence;
  description?: string;
  /** Default true. */
  enabled?: boolean;
  /** Periods (seconds since the epoch) outside which the rule does not apply. */
  validity?: TimeRange[];
}

/** `POST /1/indexes/{indexName}/{model}/recommend/rules/search`. */
export interface SearchRecommendRulesParams {
  query?: string;
  context?: string;
  page?: number;
  hitsPerPage?: number;
  enabled?: boolean;
  /** A filter expression over the rules' own attributes (`objectID:rr-1`, `enabled:true`, `condition.context:mobile`). */
  filters?: string;
  facets?: string[];
  maxValuesPerFacet?: number;
}

export interface SearchRecommendRulesResponse {
  hits: RecommendRule[];
  nbHits: number;
  page: number;
  nbPages: number;
}
