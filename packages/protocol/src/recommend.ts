/**
 * The Recommend API (`POST /1/indexes/*\/recommendations`): requests per model and the response the official
 * recommend client and InstantSearch's recommendation widgets read.
 */
import type { IndexRecord } from './records.ts';
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
