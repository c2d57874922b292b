/**
 * `GET /metrics` (a Vitrine extension, docs/COMPATIBILITY.md): the app's metrics for Prometheus, for the admin key
 * or a key whose ACL has `usage` (Algolia's ACL for reading usage data); any other key, the public search
 * key first, gets Algolia's 403.
 *
 * It sits outside the API's scope: it answers while the indexes load (the API holds requests until they are, and
 * a scrape is what tells how the load goes), and its text goes uncompressed and unrecorded in `GET /1/logs`.
 * Every request and search is counted here too, by the hooks `registerMetrics` adds to the root.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppMetrics } from './metrics.ts';
import { routeOf } from './logging.ts';

export const METRICS_ROUTE = '/metrics';

/**
 * Counts every answer (register on the root instance, before the routes) and serves `/metrics` to callers
 * `authorize` lets through (it throws the API error otherwise).
 */
export function registerMetrics(app: FastifyInstance, metrics: AppMetrics, authorize: (request: FastifyRequest) => void): void {
  app.addHook('onResponse', (request, reply, done) => {
    metrics.observeRequest(request.method, routeOf(request), reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  app.get(METRICS_ROUTE, async (request, reply) => {
    authorize(request);
    const text = await metrics.exposition();
    return reply.header('cache-control', 'no-store').type(metrics.contentType).send(text);
  });
}
