/**
 * A/B tests at search time: a default query naming the first index of an active test goes to the searcher's
 * variant (`@vitrine/insights`' `AbTests.route`): its index, with its custom search parameters over the request's
 * and the key's forced parameters over both (the key's forced filter is the call's, so it holds on either
 * variant). Queries with `enableABTest: false`, facet queries and indexes in no test go as they came.
 */
import type { FastifyRequest } from 'fastify';
import type { AbTests } from '@vitrine/insights';
import type { ServerLimits } from '../../config.ts';
import type { QuerySpec } from '../../search/queries.ts';
import { withForcedParams } from '../../search/run.ts';

/** Longer tokens count as the address, as the search log counts users (`userOf` in insights). */
const MAX_USER_TOKEN_LENGTH = 129;

/** Who searches, as the search log tells users apart: the user token (parameter, then header), else the address. */
export function searcherOf(request: FastifyRequest, params: QuerySpec['params']): string {
  const header = request.headers['x-algolia-usertoken'];
  const token = typeof params.userToken === 'string' ? params.userToken : typeof header === 'string' ? header : undefined;
  return token !== undefined && token !== '' && token.length <= MAX_USER_TOKEN_LENGTH ? token : request.ip;
}

/** The queries as the active A/B tests send them. */
export function routeQueries(queries: QuerySpec[], request: FastifyRequest, abTests: AbTests, limits: ServerLimits): QuerySpec[] {
  return queries.map((query) => {
    if (query.type !== 'default' || query.params.enableABTest === false) return query;
    const route = abTests.route(query.indexName, searcherOf(request, query.params));
    if (!route) return query;
    const params = route.customSearchParameters ? withForcedParams({ ...query.params, ...route.customSearchParameters }, request.auth, limits) : query.params;
    return { ...query, indexName: route.index, params, abTest: { abTestID: route.abTestID, abTestVariantID: route.abTestVariantID, requestedIndex: query.indexName } };
  });
}
