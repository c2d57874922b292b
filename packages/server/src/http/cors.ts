/**
 * CORS for the API, as Algolia answers it: any origin (the key, not the origin, is the credential), and
 * preflights answered for every path under the API with the method and headers asked for.
 */
import type { FastifyInstance } from 'fastify';

const ALLOWED_METHODS = 'GET, POST, PUT, DELETE, PATCH, OPTIONS';
const DEFAULT_HEADERS = 'content-type, x-algolia-api-key, x-algolia-application-id, x-algolia-agent, x-algolia-usertoken';

export function registerCors(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header('access-control-allow-origin', '*');
    // Lets the browser read the rate-limit and request-id headers a client may inspect.
    reply.header('access-control-expose-headers', 'content-length, x-algolia-request-id');
    if (request.method === 'OPTIONS') {
      const asked = request.headers['access-control-request-headers'];
      reply
        .header('access-control-allow-methods', ALLOWED_METHODS)
        .header('access-control-allow-headers', typeof asked === 'string' && asked !== '' ? asked : DEFAULT_HEADERS)
        .header('access-control-max-age', '86400');
    }
  });
  // Preflights never need credentials; they answer before the auth hook would look for them.
  app.options('/1/*', { config: { public: true } }, async (_request, reply) => reply.code(204).send());
  app.options('/2/*', { config: { public: true } }, async (_request, reply) => reply.code(204).send());
}
