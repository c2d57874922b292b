/**
 * API logs (`GET /1/logs`): the last requests the application answered, newest first. Fields are strings, as
 * Algolia sends them; API keys are masked everywhere they could appear.
 */

export type LogType = 'all' | 'query' | 'build' | 'error';

export interface GetLogsParams {
  offset?: number;
  /** At most 1000. */
  length?: number;
  indexName?: string;
  type?: LogType;
}

export interface Log {
  /** RFC 3339 time the request arrived. */
  timestamp: string;
  method: string;
  /** HTTP status of the answer, as a string (`"200"`). */
  answer_code: string;
  /** Request body, at most 1,000 characters. */
  query_body: string;
  /** Response body, at most 1,000 characters. */
  answer: string;
  /** Path of the request (keys masked). */
  url: string;
  ip: string;
  /** Request headers, one per line, API keys masked. */
  query_headers: string;
  sha1: string;
  nb_api_calls?: string;
  processing_time_ms: string;
  /** The index of a single-index request. */
  index?: string;
  /** The query string, keys masked. */
  query_params?: string;
  query_nb_hits?: string;
  inner_queries?: Array<{ index_name: string; user_token?: string; query_id?: string }>;
}

export interface GetLogsResponse {
  logs: Log[];
}
