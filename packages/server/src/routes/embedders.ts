/**
 * `GET /1/indexes/{index}/embedders` (Vitrine's extension, the `settings` ACL): each embedder of the index with
 * its source and dimensions, how many records hold a vector of it and how many do not yet, and for a rest or
 * huggingFace embedder whether records' vectors are being filled and the last error calling it or loading its
 * model (`embedders/document-vectors.ts`).
 */
import type { FastifyInstance } from 'fastify';
import type { RouteDeps } from './deps.ts';
import { createError } from '../errors.ts';

export function embedderRoutes(app: FastifyInstance, { store, documentVectors }: RouteDeps): void {
  app.get<{ Params: { indexName: string } }>('/1/indexes/:indexName/embedders', { config: { acl: 'settings' } }, async (request) => {
    if (store.registry.peek(request.params.indexName) === undefined) throw createError('INDEX_NOT_FOUND');
    return { embedders: await documentVectors.status(request.params.indexName) };
  });
}
