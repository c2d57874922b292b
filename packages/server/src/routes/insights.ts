/**
 * The routes of `@vitrine/insights`: the Insights API (`POST /1/events`, `DELETE /1/usertokens/{userToken}`),
 * recommendations (`POST /1/indexes/*\/recommendations`) and the extension routes (admin key)
 * `POST /1/vitrine/recommend/build` (rebuilds the models now) and `POST /1/vitrine/query-suggestions/build`
 * (rebuilds the suggestions indices now). The analytics reads are in `analytics.ts`. Events are capped per
 * client IP, API key and userToken (`auth/event-limits.ts`).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { MAX_EVENTS_BODY_BYTES } from '@vitrine/insights';
import { requireAllIndexes } from '../auth/authenticate.ts';
import { EventLimits } from '../auth/event-limits.ts';
import { insightsCaller } from '../auth/insights-caller.ts';
import { createError } from '../errors.ts';
import { analyticsRoutes } from './analytics.ts';
import type { RouteDeps } from './deps.ts';

export function insightsRoutes(api: FastifyInstance, { insights, limits }: RouteDeps): void {
  const eventLimits = new EventLimits(limits);
  api.post('/1/events', {
    config: { acl: 'search', largeBody: true },
    bodyLimit: MAX_EVENTS_BODY_BYTES,
    // After the scope's authentication, before the body is read: a caller past its minute costs no parsing.
    onRequest: async (request, reply) => {
      if (request.auth) closingOnRefusal(reply, () => eventLimits.checkCaller(request.auth!, request.ip));
    },
  }, async (request, reply) => {
    await insights.recordEvents(request.body, (events) => closingOnRefusal(reply, () => eventLimits.admit(request.auth!, request.ip, events)));
    return { status: 200, message: 'OK' };
  });

  api.delete<{ Params: { userToken: string } }>('/1/usertokens/:userToken', { config: { acl: 'deleteObject' } }, async (request, reply) => {
    // The user's events of every index go: only a key that may touch every index may ask.
    requireAllIndexes(request.auth!);
    insights.deleteUserEvents(request.params.userToken);
    return reply.code(204).send();
  });

  api.post<{ Params: { indexName: string } }>('/1/indexes/:indexName/recommendations', { config: { acl: 'search' } }, async (request) => {
    // Like the multi-query route: only `*` (the indices are in the requests); a named index is no route.
    if (request.params.indexName !== '*') throw createError('ROUTE_NOT_FOUND', 'POST', request.url.split('?')[0]);
    return insights.recommend(request.body, request.auth ? insightsCaller(request.auth) : null);
  });

  api.post('/1/vitrine/recommend/build', async (request) => {
    // `{"full": true}` rebuilds the models' aggregates from every stored event; without it, from those since the last build.
    const full = (request.body as { full?: unknown } | null | undefined)?.full ?? false;
    if (typeof full !== 'boolean') throw createError('INVALID_PARAMETER', 'full', 'expected true or false');
    return insights.rebuildModels({ full });
  });
  api.post('/1/vitrine/query-suggestions/build', async () => ({ indices: await insights.buildQuerySuggestions() }));

  analyticsRoutes(api, insights);
}

/**
 * A refusal closes the connection: the rest of the body is not read (a flood's 1,000-event bodies, 130 KB each,
 * read and thrown away kept the main thread busy), and a client that keeps sending pays a new connection a request.
 */
function closingOnRefusal(reply: FastifyReply, check: () => void): void {
  try {
    check();
  } catch (error) {
    reply.header('connection', 'close');
    throw error;
  }
}
