import type { SearchParams } from './search-params.ts';
import type { SearchResponse, SearchForFacetValuesResponse } from './search-response.ts';

/** One request of `POST /1/indexes/*\/queries`, as v5 (fields) or v4 (`params` string) clients send it. */
export interface MultiQueryRequest extends SearchParams {
  indexName: string;
  type?: 'default' | 'facet';
  /** For `type: "facet"`: the facet searched. */
  facet?: string;
  params?: string;
}

export interface MultiQueryBody {
  requests: MultiQueryRequest[];
  strategy?: 'none' | 'stopIfEnoughMatches';
}

export interface MultiQueryResponse {
  results: Array<SearchResponse | SearchForFacetValuesResponse>;
}
