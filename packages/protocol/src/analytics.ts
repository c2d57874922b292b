/**
 * Search analytics: what the search routes log after each search (`SearchLogEntry`) and the responses of the
 * Analytics API v2 endpoints (`GET /2/...`). Rates are `null` when their denominator is zero.
 */
import type { ABTestAssignment } from './abtests.ts';
import type { FilterList } from './search-params.ts';

/** One search, as logged by the search routes after answering it. */
export interface SearchLogEntry {
  index: string;
  query: string;
  nbHits: number;
  /** Set when the search ran with `clickAnalytics: true`: later events carrying it are attributed to this search. */
  queryID?: string;
  userToken?: string;
  /** Counts the user when there is no `userToken`. */
  ip?: string;
  /** ISO 3166-1 alpha-2 code of the searcher's country, from a header a trusted proxy sets (`/2/countries`). */
  country?: string;
  filters?: string;
  facetFilters?: FilterList;
  numericFilters?: FilterList;
  /** Object IDs of the first hits returned, in order. */
  objectIDs?: string[];
  /** Tracked searches, for dynamic re-ranking's impressions: the 0-based position of `objectIDs[0]` (a later page's). */
  hitsOffset?: number;
  /** Tracked searches: the page's hits after `objectIDs`, in order (up to `POSITIONS_LOGGED` hits in all). */
  moreObjectIDs?: string[];
  /** `analytics: false` searches are not logged. Default true. */
  analytics?: boolean;
  analyticsTags?: string[];
  /** Milliseconds since the epoch; now when absent. */
  timestamp?: number;
  /** The A/B test that routed the search, and its variant (1 or 2), for the test's figures. */
  abTest?: ABTestAssignment;
}

export type AnalyticsRate = number | null;

export interface DailyCount { date: string; count: number }
export interface CountWithDates { count: number; dates: DailyCount[] }

export interface TopSearch {
  search: string;
  count: number;
  nbHits: number;
}
export interface ClickPositionBucket { position: [number, number]; clickCount: number }
export interface TopSearchWithAnalytics extends TopSearch {
  clickThroughRate: AnalyticsRate;
  averageClickPosition: number | null;
  clickPositions: ClickPositionBucket[];
  conversionRate: AnalyticsRate;
  trackedSearchCount: number;
  clickCount: number;
  conversionCount: number;
}
export interface CurrencyRevenue { currency: string; revenue: number }
export interface TopSearchWithRevenue extends TopSearchWithAnalytics {
  currencies: Record<string, CurrencyRevenue>;
  addToCartRate: AnalyticsRate;
  addToCartCount: number;
  purchaseRate: AnalyticsRate;
  purchaseCount: number;
}
export interface TopSearchesResponse { searches: Array<TopSearch | TopSearchWithAnalytics | TopSearchWithRevenue> }

export interface NoResultSearch { search: string; count: number; withFilterCount: number }
export interface NoResultSearchesResponse { searches: NoResultSearch[] }
export interface NoClickSearchesResponse { searches: TopSearch[] }

/** The no-result and no-click rates are never null (the spec's type): 0 over no search. */
export interface NoResultRateResponse {
  rate: number;
  count: number;
  noResultCount: number;
  dates: Array<{ date: string; rate: number; count: number; noResultCount: number }>;
}
export interface NoClickRateResponse {
  rate: number;
  count: number;
  noClickCount: number;
  dates: Array<{ date: string; rate: number; count: number; noClickCount: number }>;
}
export interface ClickThroughRateResponse {
  rate: AnalyticsRate;
  clickCount: number;
  trackedSearchCount: number;
  dates: Array<{ date: string; rate: AnalyticsRate; clickCount: number; trackedSearchCount: number }>;
}
export interface AverageClickPositionResponse {
  average: number | null;
  clickCount: number;
  dates: Array<{ date: string; average: number | null; clickCount: number }>;
}
export interface ClickPositionsResponse { positions: ClickPositionBucket[] }
export interface ConversionRateResponse {
  rate: AnalyticsRate;
  trackedSearchCount: number;
  conversionCount: number;
  dates: Array<{ date: string; rate: AnalyticsRate; trackedSearchCount: number; conversionCount: number }>;
}
export interface AddToCartRateResponse {
  rate: AnalyticsRate;
  trackedSearchCount: number;
  addToCartCount: number;
  dates: Array<{ date: string; rate: AnalyticsRate; trackedSearchCount: number; addToCartCount: number }>;
}
export interface PurchaseRateResponse {
  rate: AnalyticsRate;
  trackedSearchCount: number;
  purchaseCount: number;
  dates: Array<{ date: string; rate: AnalyticsRate; trackedSearchCount: number; purchaseCount: number }>;
}
export interface RevenueResponse {
  currencies: Record<string, CurrencyRevenue>;
  dates: Array<{ date: string; currencies: Record<string, CurrencyRevenue> }>;
}

export interface TopHit { hit: string; count: number }
export interface TopHitWithAnalytics extends TopHit {
  clickThroughRate: AnalyticsRate;
  conversionRate: AnalyticsRate;
  trackedHitCount: number;
  clickCount: number;
  conversionCount: number;
}
export interface TopHitWithRevenue extends TopHitWithAnalytics {
  addToCartRate: AnalyticsRate;
  addToCartCount: number;
  purchaseRate: AnalyticsRate;
  purchaseCount: number;
  currencies: Record<string, CurrencyRevenue>;
}
export interface TopHitsResponse { hits: Array<TopHit | TopHitWithAnalytics | TopHitWithRevenue> }

export type FilterOperator = ':' | '<' | '<=' | '=' | '!=' | '>' | '>=';
export interface TopFilterAttributesResponse { attributes: Array<{ attribute: string; count: number }> }
/** `GET /2/countries`: searches by ISO 3166-1 alpha-2 country code. */
export interface TopCountriesResponse { countries: Array<{ country: string; count: number }> }
export interface TopFilterValuesResponse { values: Array<{ attribute: string; operator: FilterOperator; value: string; count: number }> }
export interface NoResultFiltersResponse {
  values: Array<{ count: number; values: Array<{ attribute: string; operator: FilterOperator; value: string }> }> | null;
}
export type UsersCountResponse = CountWithDates;
export type SearchesCountResponse = CountWithDates;
export interface AnalyticsStatusResponse { updatedAt: string | null }
