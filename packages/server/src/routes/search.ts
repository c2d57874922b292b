/**
 * Search routes: multi-query (`/1/indexes/*\/queries`, including `type: "facet"` requests and the
 * `stopIfEnoughMatches` strategy), single-index query (POST and GET), search for facet values, browse.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SearchForFacetValuesResponse, SearchParams, SearchResponse } from '@vitrine/protocol';
import type { RouteDeps } from '../app.ts';
import { requireIndex } from '../auth/authenticate.ts';
import { createError } from '../errors.ts';
import { parseParamsString, validateSearchParams } from '../http/params.ts';
import { requestParams, runBrowse, runFacetSearch, runSearch, withForcedParams } from '../search/run.ts';

type IndexParams = { indexName: string };

/** GET routes carry parameters in the query string; credentials are not parameters. */
export function queryStringParams(request: FastifyRequest, maxDepth: number): Record<string, unknown> {
  const raw = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
  const params = parseParamsString(raw, maxDepth);
  for (const name of Object.keys(params)) if (name.toLowerCase().startsWith('x-algolia-')) delete params[name];
  return params;
}

function emptyResult(indexName: string, query: string, hitsPerPage: number): SearchResponse {
  return {
    hits: [], nbHits: 0, page: 0, nbPages: 0, hitsPerPage, exhaustiveNbHits: true,
    processingTimeMS: 0, query, params: '', index: indexName,
  };
}

export function searchRoutes(app: FastifyInstance, { store, limits, onSearch }: RouteDeps): void {
  const registry = store.registry;
  /** Runs one search and tells the observer (search analytics); an observer failure never fails the search. */
  const search = (request: FastifyRequest, indexName: string, params: SearchParams): SearchResponse => {
    const response = runSearch(registry, indexName, params, request.auth);
    if (onSearch) {
      const header = request.headers['x-algolia-usertoken'];
      const userToken = typeof params.userToken === 'string' ? params.userToken : typeof header === 'string' ? header : undefined;
      try {
        onSearch({ indexName, params, response, userToken, ip: request.ip });
      } catch (error) {
        request.log.warn({ err: error }, 'search observer failed');
      }
    }
    return response;
  };

  app.post<{ Params: IndexParams }>('/1/indexes/:indexName/queries', { config: { acl: 'search' } }, async (request) => {
    if (request.params.indexName !== '*') throw createError('ROUTE_NOT_FOUND', 'POST', request.url.split('?')[0]);
    const body = request.body as { requests?: unknown; strategy?: unknown } | undefined;
    if (!body || !Array.isArray(body.requests)) throw createError('MISSING_PARAMETER', 'requests');
    if (body.requests.length > limits.maxQueriesPerMultiQuery) {
      throw createError('INVALID_PARAMETER', 'requests', `at most ${limits.maxQueriesPerMultiQuery} queries per call`);
    }
    const strategy = body.strategy ?? 'none';
    if (strategy !== 'none' && strategy !== 'stopIfEnoughMatches') throw createError('INVALID_PARAMETER', 'strategy', 'expected none or stopIfEnoughMatches');
    // Validate every request before running any: a bad one fails the call without wasted work.
    const prepared = body.requests.map((raw: unknown, i: number) => {
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw createError('INVALID_BODY', `requests[${i}] must be an object`);
      const item = raw as Record<string, unknown>;
      if (typeof item.indexName !== 'string' || item.indexName === '') throw createError('MISSING_PARAMETER', `requests[${i}].indexName`);
      requireIndex(request.auth!, item.indexName);
      const type = item.type ?? 'default';
      if (type !== 'default' && type !== 'facet') throw createError('INVALID_PARAMETER', 'type', 'expected default or facet');
      if (type === 'facet' && (typeof item.facet !== 'string' || item.facet === '')) throw createError('MISSING_PARAMETER', `requests[${i}].facet`);
      return { indexName: item.indexName, type, facet: item.facet as string | undefined, params: requestParams(item, request.auth, limits) };
    });
    const results: Array<SearchResponse | SearchForFacetValuesResponse> = [];
    // stopIfEnoughMatches: queries run in order until the hits found so far fill the next query's page.
    let enough = false;
    let found = 0;
    for (const query of prepared) {
      if (query.type === 'facet') {
        results.push(runFacetSearch(registry, query.indexName, query.facet!, query.params, request.auth));
        continue;
      }
      if (enough) {
        results.push(emptyResult(query.indexName, String(query.params.query ?? ''), Number(query.params.hitsPerPage ?? 20)));
        continue;
      }
      const result = search(request, query.indexName, query.params);
      result.index = query.indexName;
      results.push(result);
      found += result.nbHits;
      if (strategy === 'stopIfEnoughMatches' && found >= result.hitsPerPage) enough = true;
    }
    return { results };
  });

  app.post<{ Params: IndexParams }>('/1/indexes/:indexName/query', { config: { acl: 'search' } }, async (request) => {
    return search(request, request.params.indexName, requestParams(request.body, request.auth, limits));
  });

  app.get<{ Params: IndexParams }>('/1/indexes/:indexName', { config: { acl: 'search' } }, async (request) => {
    const params = withForcedParams(validateSearchParams(queryStringParams(request, limits.maxJsonDepth), limits), request.auth);
    return search(request, request.params.indexName, params);
  });

  app.post<{ Params: IndexParams & { facetName: string } }>(
    '/1/indexes/:indexName/facets/:facetName/query',
    { config: { acl: 'search' } },
    async (request) => runFacetSearch(registry, request.params.indexName, request.params.facetName, requestParams(request.body, request.auth, limits), request.auth),
  );

  const browse = async (request: FastifyRequest<{ Params: IndexParams }>) => {
    const params = request.method === 'GET'
      ? withForcedParams(validateSearchParams(queryStringParams(request, limits.maxJsonDepth), limits), request.auth)
      : requestParams(request.body, request.auth, limits);
    if (params.cursor !== undefined && typeof params.cursor !== 'string') throw createError('INVALID_PARAMETER', 'cursor', 'expected a string');
    return runBrowse(registry, request.params.indexName, params as typeof params & { cursor?: string }, request.auth);
  };
  app.post<{ Params: IndexParams }>('/1/indexes/:indexName/browse', { config: { acl: 'browse' } }, browse);
  app.get<{ Params: IndexParams }>('/1/indexes/:indexName/browse', { config: { acl: 'browse' } }, browse);
}
