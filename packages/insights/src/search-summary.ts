/**
 * What insights needs of a search that ran: the summary the host's search code produces per query (the first
 * hits only, not the response) and the search-log entry made of it. A module of its own, with no database, so
 * the host's search threads can import it without loading the rest of insights.
 */
import type { ABTestAssignment, SearchLogEntry, SearchParams, SearchResponse } from '@vitrine/protocol';

/** How many of a search's first hits count in the top-hits analytics (and so are kept in a summary). */
export const TOP_HITS_COUNTED = 10;

/** Hits of a tracked search's page whose positions are logged for dynamic re-ranking (impressions). */
export const POSITIONS_LOGGED = 50;

/** What the search log needs of a search that ran (the first hits only). */
export interface SearchSummary {
  nbHits: number;
  queryID?: string;
  hits: Array<{ objectID: string }>;
  /** Tracked searches: the 0-based position of the first hit, and the page's hits after `hits` (re-ranking's impressions). */
  offset?: number;
  more?: string[];
}

/** The search-log entry of a search, from its parameters and response (a convenience for the search routes). */
export function searchLogEntry(indexName: string, params: SearchParams, response: Pick<SearchResponse, 'nbHits' | 'queryID' | 'hits'> | SearchSummary, extra: { userToken?: string; ip?: string; country?: string; timestamp?: number; abTest?: ABTestAssignment } = {}): SearchLogEntry {
  return {
    index: indexName,
    query: typeof params.query === 'string' ? params.query : '',
    nbHits: response.nbHits,
    queryID: response.queryID,
    userToken: typeof params.userToken === 'string' ? params.userToken : extra.userToken,
    ip: extra.ip,
    country: extra.country,
    filters: typeof params.filters === 'string' ? params.filters : undefined,
    facetFilters: params.facetFilters,
    numericFilters: params.numericFilters,
    // Only the first hits count in analytics; a 1,000-hit page need not be copied.
    objectIDs: response.hits.slice(0, TOP_HITS_COUNTED).map((hit) => hit.objectID),
    ...('more' in response && response.more !== undefined ? { hitsOffset: response.offset ?? 0, moreObjectIDs: response.more } : {}),
    analytics: params.analytics !== false && (params.analytics as unknown) !== 'false',
    analyticsTags: Array.isArray(params.analyticsTags) ? params.analyticsTags : undefined,
    timestamp: extra.timestamp,
    ...(extra.abTest ? { abTest: extra.abTest } : {}),
  };
}
