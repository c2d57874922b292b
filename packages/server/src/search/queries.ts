/**
 * One search call of the API (a multi-query, or a single query) run against an index registry, with responses
 * serialised here: the same function runs on the main thread and in the search threads (`threads.ts`), which
 * send back the whole response body as one string, rather than objects, or one text per query that the
 * main thread would join and flatten again (those copies were half of what it allocated under load).
 */
import type { FilterNode } from '@vitrine/engine';
import type { SearchParams, SearchResponse } from '@vitrine/protocol';
import type { IndexRegistry } from '../storage/registry.ts';
import { TOP_HITS_COUNTED } from '../insights/search-log.ts';
import { runFacetSearch, runSearch } from './run.ts';

export interface QuerySpec {
  indexName: string;
  type: 'default' | 'facet';
  /** The facet of a `type: "facet"` query. */
  facet?: string;
  /** Validated, with the key's forced parameters applied. */
  params: SearchParams;
}

export interface SearchCall {
  queries: QuerySpec[];
  strategy: 'none' | 'stopIfEnoughMatches';
  /** The key's forced filter, ANDed with every query's own filters. */
  forcedFilter: FilterNode | null;
  /** The key's other forced parameters (a forced `attributesToRetrieve` limits highlighting too). */
  forcedParams?: Record<string, unknown>;
  /** Multi-queries name the index in each result, and answer `{"results": [...]}`; single queries do not. */
  withIndex: boolean;
}

/** What the search log needs of a search that ran (the first hits only). */
export interface SearchSummary {
  nbHits: number;
  queryID?: string;
  hits: Array<{ objectID: string }>;
}

export interface QueryOutcome {
  /** The result as JSON text. */
  json: string;
  /** Set for default queries that ran (not for facet queries or those skipped by the strategy). */
  summary?: SearchSummary;
}

/** What a search call answers: the response body and, per query, what the search log needs (`undefined`: nothing). */
export interface SearchAnswer {
  /**
   * The JSON text, one string (flat once received from a search thread). Not encoded to UTF-8 here: in a search
   * thread that would take the busiest thread's time (3–4% of it under the HTTP benchmark) for a copy the socket
   * write makes anyway, on the main thread.
   */
  body: string;
  summaries: Array<SearchSummary | undefined>;
}

/** Runs the call (`runQueries`) and builds the response body. */
export function answerSearchCall(registry: IndexRegistry, call: SearchCall): SearchAnswer {
  const outcomes = runQueries(registry, call);
  const text = call.withIndex ? `{"results":[${outcomes.map((outcome) => outcome.json).join(',')}]}` : outcomes[0].json;
  return { body: text, summaries: outcomes.map((outcome) => outcome.summary) };
}

function emptyResult(indexName: string, query: string, hitsPerPage: number): SearchResponse {
  return {
    hits: [], nbHits: 0, page: 0, nbPages: 0, hitsPerPage, exhaustiveNbHits: true,
    processingTimeMS: 0, query, params: '', index: indexName,
  };
}

/**
 * Runs the queries in order. Synchronous, so all queries of one call see the same state. `stopIfEnoughMatches`:
 * queries run until the hits found so far fill the next query's page; the rest answer empty.
 */
export function runQueries(registry: IndexRegistry, call: SearchCall): QueryOutcome[] {
  const auth = { forcedFilter: call.forcedFilter, forcedParams: call.forcedParams };
  const outcomes: QueryOutcome[] = [];
  let enough = false;
  let found = 0;
  for (const query of call.queries) {
    if (query.type === 'facet') {
      outcomes.push({ json: JSON.stringify(runFacetSearch(registry, query.indexName, query.facet!, query.params, auth)) });
      continue;
    }
    if (enough) {
      outcomes.push({ json: JSON.stringify(emptyResult(query.indexName, String(query.params.query ?? ''), Number(query.params.hitsPerPage ?? 20))) });
      continue;
    }
    const result = runSearch(registry, query.indexName, query.params, auth);
    if (call.withIndex) result.index = query.indexName;
    found += result.nbHits;
    if (call.strategy === 'stopIfEnoughMatches' && found >= result.hitsPerPage) enough = true;
    const summary: SearchSummary = {
      nbHits: result.nbHits,
      ...(result.queryID !== undefined ? { queryID: result.queryID } : {}),
      hits: result.hits.slice(0, TOP_HITS_COUNTED).map((hit) => ({ objectID: hit.objectID })),
    };
    outcomes.push({ json: JSON.stringify(result), summary });
  }
  return outcomes;
}
