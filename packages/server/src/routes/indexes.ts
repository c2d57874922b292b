/**
 * Index routes: list (with sizes and replica relations), delete, copy/move (`operation`), which the clients'
 * `replaceAllObjects` is built on: scoped copy to a temporary index, batches, move back.
 */
import type { FastifyInstance } from 'fastify';
import type { IndexInfo } from '@vitrine/protocol';
import type { RouteDeps } from './deps.ts';
import { hasAcl, indexInScope, requireIndex } from '../auth/authenticate.ts';
import { submitWrite } from '../auth/index-scope.ts';
import { createError } from '../errors.ts';
import { isPlainObject } from '../storage/validate.ts';

type IndexParams = { indexName: string };

export function indexRoutes(app: FastifyInstance, { store, reads }: RouteDeps): void {
  const registry = store.registry;

  app.get<{ Querystring: { page?: string; hitsPerPage?: string } }>('/1/indexes', { config: { acl: 'listIndexes' } }, async (request) => {
    const auth = request.auth!;
    const page = request.query.page === undefined ? undefined : Number(request.query.page);
    const hitsPerPage = Number(request.query.hitsPerPage ?? 100);
    if (page !== undefined && (!Number.isInteger(page) || page < 0)) throw createError('INVALID_PARAMETER', 'page', 'expected a non-negative integer');
    if (!Number.isInteger(hitsPerPage) || hitsPerPage < 1 || hitsPerPage > 1000) throw createError('INVALID_PARAMETER', 'hitsPerPage', 'must be between 1 and 1000');
    const visible = registry
      .all()
      .filter((entry) => indexInScope(auth, entry.name))
      .sort((a, b) => a.name.localeCompare(b.name));
    const slice = page === undefined ? visible : visible.slice(page * hitsPerPage, (page + 1) * hitsPerPage);
    const sizes = await reads.read({ kind: 'sizes', indexNames: slice.map((entry) => entry.name) });
    const items: IndexInfo[] = slice.map((entry, i) => {
      const pending = store.pendingTasks(entry.name);
      const bytes = sizes[i].dataSize;
      const info: IndexInfo = {
        name: entry.name,
        createdAt: entry.createdAt,
        updatedAt: entry.updatedAt,
        entries: sizes[i].entries,
        dataSize: bytes,
        fileSize: bytes,
        lastBuildTimeS: 0,
        numberOfPendingTasks: pending,
        pendingTask: pending > 0,
      };
      if (typeof entry.settings.primary === 'string') info.primary = entry.settings.primary;
      if (entry.settings.replicas?.length) info.replicas = entry.settings.replicas;
      if (entry.virtual) info.virtual = true;
      return info;
    });
    return { items, nbPages: page === undefined ? 1 : Math.max(1, Math.ceil(visible.length / hitsPerPage)) };
  });

  app.delete<{ Params: IndexParams }>('/1/indexes/:indexName', { config: { acl: 'deleteIndex' } }, async (request) => {
    const deletedAt = new Date().toISOString();
    const taskID = await submitWrite(store, request.auth!, { kind: 'deleteIndex', at: deletedAt, indexName: request.params.indexName });
    return { taskID, deletedAt };
  });

  app.post<{ Params: IndexParams }>('/1/indexes/:indexName/operation', { config: { acl: 'addObject' } }, async (request) => {
    const body = request.body;
    if (!isPlainObject(body)) throw createError('INVALID_BODY', 'expected a JSON object');
    const { operation, destination, scope } = body;
    if (operation !== 'copy' && operation !== 'move') throw createError('INVALID_PARAMETER', 'operation', 'expected copy or move');
    if (typeof destination !== 'string' || destination === '') throw createError('MISSING_PARAMETER', 'destination');
    const source = request.params.indexName;
    if (source === destination) throw createError('SAME_INDEX');
    requireIndex(request.auth!, destination);
    const validScopes = ['settings', 'synonyms', 'rules'];
    if (scope !== undefined && (!Array.isArray(scope) || !scope.every((s) => validScopes.includes(s as string)))) {
      throw createError('INVALID_PARAMETER', 'scope', 'expected an array of settings, synonyms, rules');
    }
    if (operation === 'copy' && !hasAcl(request.auth!, 'addObject')) throw createError('ACL_DENIED');
    const from = registry.get(source);
    const to = registry.get(destination);
    if (to && typeof to.settings.primary === 'string') throw createError('REPLICA_WRITE', destination, to.settings.primary);
    if (operation === 'copy' && !scope && to?.settings.replicas?.length) {
      throw createError('INVALID_PARAMETER', 'destination', 'cannot copy to an index that has replicas');
    }
    if (operation === 'move' && from && (typeof from.settings.primary === 'string' || from.settings.replicas?.length)) {
      throw createError('INVALID_PARAMETER', 'operation', 'moving a replica or an index with replicas is not supported: move to it instead');
    }
    const updatedAt = new Date().toISOString();
    const taskID = await submitWrite(store, request.auth!, {
      kind: 'operation',
      at: updatedAt,
      indexName: source,
      operation,
      destination,
      scope: scope as Array<'settings' | 'synonyms' | 'rules'> | undefined,
    });
    return { taskID, updatedAt };
  });
}
