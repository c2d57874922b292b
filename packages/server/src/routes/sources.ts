/**
 * The application's allowed sources (`/1/security/sources`: `getSources`, `replaceSources`, `appendSource`,
 * `deleteSource`), admin key only. Changes apply at once (no task) and are on disk before the answer; the rules
 * (an empty list admits everyone, the loopback exception, the lock-out rule) are in `auth/allowed-sources.ts`.
 */
import type { FastifyInstance } from 'fastify';
import type { RouteDeps } from './deps.ts';

export function sourceRoutes(app: FastifyInstance, { sources }: RouteDeps): void {
  app.get('/1/security/sources', async () => sources.list());

  app.put('/1/security/sources', async (request) => {
    sources.replace(request.body, request.ip);
    return { updatedAt: new Date().toISOString() };
  });

  app.post('/1/security/sources/append', async (request) => {
    sources.append(request.body, request.ip);
    return { createdAt: new Date().toISOString() };
  });

  // The clients send the range percent-encoded (`10.0.0.1%2F32`); the router decodes it.
  app.delete<{ Params: { source: string } }>('/1/security/sources/:source', async (request) => {
    sources.delete(request.params.source, request.ip);
    return { deletedAt: new Date().toISOString() };
  });
}
