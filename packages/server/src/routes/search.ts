/**
 * Search routes: multi-query (`/1/indexes/*\/queries`, including `type: "facet"` requests and the
 * `stopIfEnoughMatches` strategy), single-index query (POST and GET), search for facet values, browse.
 * Queries and the other reads run on a search thread when the server has them (`search/threads.ts`,
 * `search/reads.ts`); a search's response body comes back as one string and is sent as it is.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SearchParams } from '@vitrine/protocol';
import type { RouteDeps } from './deps.ts';
import { requireIndex } from '../auth/authenticate.ts';
import { createError } from '../errors.ts';
import { parseParamsString, validateSearchParams } from '../http/params.ts';
import type { QuerySpec, SearchAnswer, SearchCall } from '../search/queries.ts';
import { SearchScheduler } from '../search/scheduler.ts';
import { readAuth } from '../search/reads.ts';
import { requestParams, withForcedParams } from '../search/run.ts';
import { withLearning } from '../search/learning.ts';

const JSON_TYPE = 'application/json; charset=utf-8';

type IndexParams = { indexName: string };

/** GET routes carry parameters in the query string; credentials are not parameters. */
export function queryStringParams(request: FastifyRequest, maxDepth: number, maxParameters?: number): Record<string, unknown> {
  const raw = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
  const params = parseParamsString(raw, maxDepth, maxParameters);
  for (const name of Object.keys(params)) if (name.toLowerCase().startsWith('x-algolia-')) delete params[name];
  return params;
}

/** Responses in pieces up to this size are joined and sent as one buffer (see `inTurns`). */
const JOINED_BYTES = 1024 * 1024;

/**
 * A large response's pieces (UTF-8 already) as a stream, one piece per turn of the event loop. Written at once,
 * or joined first, a 9 MB response is a copy of 9 MB with every request waiting whenever the socket takes it
 * all (a client reading fast), enough to double a shopper's p99 in `test/cost-isolation.test.ts`.
 */
function inTurns(pieces: Uint8Array[]): Readable {
  let next = 0;
  return new Readable({
    read() {
      const push = (): void => {
        this.push(pieces[next++]);
        if (next === pieces.length) this.push(null);
      };
      if (next === 0) push();
      else setImmediate(push);
    },
  });
}

export function searchRoutes(app: FastifyInstance, { store, limits, onSearch, searchTimed, threads, reads, countryOf, queryVectors, insights }: RouteDeps): void {
  /** Without search threads, searches are answered here in slices, HTTP going on between. */
  const mainThread = new SearchScheduler(() => store.registry);

  /**
   * Runs a search call on a search thread (the threads hold the records when the server has them; here
   * otherwise), then tells the observer (search analytics) about each search that ran; an observer failure
   * never fails the search.
   */
  const execute = async (request: FastifyRequest, reply: FastifyReply, call: SearchCall): Promise<FastifyReply> => {
    store.searches.noted();
    // Hybrid searches of a rest embedder: the query text's vector first (cached; a 503 when the embedder fails).
    await queryVectors.embedQueries(store.registry, call.queries);
    const began = performance.now();
    const answer: SearchAnswer = threads ? await threads.search(call) : await mainThread.run(call);
    searchTimed?.((performance.now() - began) / 1000);
    if (onSearch) {
      const header = request.headers['x-algolia-usertoken'];
      const country = countryOf(request);
      call.queries.forEach((query, i) => {
        const summary = answer.summaries[i];
        if (summary === undefined) return;
        const params = query.params;
        const userToken = typeof params.userToken === 'string' ? params.userToken : typeof header === 'string' ? header : undefined;
        try {
          const abTest = query.abTest && { abTestID: query.abTest.abTestID, abTestVariantID: query.abTest.abTestVariantID };
          onSearch({ indexName: query.indexName, params, response: summary, userToken, ip: request.ip, ...(country === undefined ? {} : { country }), ...(abTest ? { abTest } : {}) });
        } catch (error) {
          request.log.warn({ err: error }, 'search observer failed');
        }
      });
    }
    if (typeof answer.body === 'string') return reply.type(JSON_TYPE).send(answer.body);
    // A small response in pieces (a call that spanned slices): joined, a copy of little. Only a large one is
    // streamed, its end following its last bytes by as long as the socket takes to drain them.
    if (answer.bytes <= JOINED_BYTES) return reply.type(JSON_TYPE).send(Buffer.concat(answer.body, answer.bytes));
    return reply.type(JSON_TYPE).header('content-length', answer.bytes).send(inTurns(answer.body));
  };
  /**
   * The call of a search request: its queries sent to their A/B test's variant, each with what the shop learned
   * (re-ranking's boosts, query categorization, the user's affinities), as server-rendered pages get them too.
   */
  const searchCall = (request: FastifyRequest, queries: QuerySpec[], strategy: SearchCall['strategy'], withIndex: boolean): SearchCall => {
    const header = request.headers['x-algolia-usertoken'];
    const searcher = { userToken: typeof header === 'string' ? header : undefined, address: request.ip, auth: request.auth ?? null };
    return { queries: withLearning(queries, searcher, insights, store.registry, limits), strategy, forcedFilter: null, ...readAuth(request.auth), withIndex, client: request.ip, maxResponseBytes: limits.maxResponseBytes };
  };
  /** One search as a single-query route answers it: the response alone. */
  const single = (request: FastifyRequest, reply: FastifyReply, indexName: string, params: SearchParams) =>
    execute(request, reply, searchCall(request, [{ indexName, type: 'default', params }], 'none', false));

  app.post<{ Params: IndexParams }>('/1/indexes/:indexName/queries', { config: { acl: 'search' } }, async (request, reply) => {
    if (request.params.indexName !== '*') throw createError('ROUTE_NOT_FOUND', 'POST', request.url.split('?')[0]);
    const body = request.body as { requests?: unknown; strategy?: unknown } | undefined;
    if (!body || !Array.isArray(body.requests)) throw createError('MISSING_PARAMETER', 'requests');
    if (body.requests.length > limits.maxQueriesPerMultiQuery) {
      throw createError('INVALID_PARAMETER', 'requests', `at most ${limits.maxQueriesPerMultiQuery} queries per call`);
    }
    const strategy = body.strategy ?? 'none';
    if (strategy !== 'none' && strategy !== 'stopIfEnoughMatches') throw createError('INVALID_PARAMETER', 'strategy', 'expected none or stopIfEnoughMatches');
    // Validate every request before running any: a bad one fails the call without wasted work.
    const queries: QuerySpec[] = body.requests.map((raw: unknown, i: number) => {
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw createError('INVALID_BODY', `requests[${i}] must be an object`);
      const item = raw as Record<string, unknown>;
      if (typeof item.indexName !== 'string' || item.indexName === '') throw createError('MISSING_PARAMETER', `requests[${i}].indexName`);
      requireIndex(request.auth!, item.indexName);
      const type = item.type ?? 'default';
      if (type !== 'default' && type !== 'facet') throw createError('INVALID_PARAMETER', 'type', 'expected default or facet');
      if (type === 'facet' && (typeof item.facet !== 'string' || item.facet === '')) throw createError('MISSING_PARAMETER', `requests[${i}].facet`);
      return { indexName: item.indexName, type, ...(type === 'facet' ? { facet: item.facet as string } : {}), params: requestParams(item, request.auth, limits) };
    });
    return execute(request, reply, searchCall(request, queries, strategy, true));
  });

  app.post<{ Params: IndexParams }>('/1/indexes/:indexName/query', { config: { acl: 'search' } }, async (request, reply) => {
    return single(request, reply, request.params.indexName, requestParams(request.body, request.auth, limits));
  });

  app.get<{ Params: IndexParams }>('/1/indexes/:indexName', { config: { acl: 'search' } }, async (request, reply) => {
    const params = withForcedParams(validateSearchParams(queryStringParams(request, limits.maxJsonDepth, limits.maxSearchParameters), limits), request.auth, limits);
    return single(request, reply, request.params.indexName, params);
  });

  app.post<{ Params: IndexParams & { facetName: string } }>(
    '/1/indexes/:indexName/facets/:facetName/query',
    { config: { acl: 'search' } },
    async (request) => reads.read({ kind: 'facets', indexName: request.params.indexName, facet: request.params.facetName, params: requestParams(request.body, request.auth, limits), auth: readAuth(request.auth) }),
  );

  const browse = async (request: FastifyRequest<{ Params: IndexParams }>) => {
    const params = request.method === 'GET'
      ? withForcedParams(validateSearchParams(queryStringParams(request, limits.maxJsonDepth, limits.maxSearchParameters), limits), request.auth, limits)
      : requestParams(request.body, request.auth, limits);
    if (params.cursor !== undefined && typeof params.cursor !== 'string') throw createError('INVALID_PARAMETER', 'cursor', 'expected a string');
    return reads.read({ kind: 'browse', indexName: request.params.indexName, params: params as typeof params & { cursor?: string }, auth: readAuth(request.auth) });
  };
  app.post<{ Params: IndexParams }>('/1/indexes/:indexName/browse', { config: { acl: 'browse' } }, browse);
  app.get<{ Params: IndexParams }>('/1/indexes/:indexName/browse', { config: { acl: 'browse' } }, browse);
}
