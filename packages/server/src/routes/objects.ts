/**
 * Record routes: batches (one index or many), add with a generated objectID, add-or-replace, partial update,
 * delete, get one or many, clear, delete by query. Writes answer once durable with the task to wait for.
 */
import type { FastifyInstance } from 'fastify';
import { parseRetrieve, retrieve as retrieveAttributes } from '@vitrine/engine';
import type { IndexRecord } from '@vitrine/protocol';
import type { RouteDeps } from './deps.ts';
import type { AuthContext } from '../auth/authenticate.ts';
import { hasAcl, requireAcl, requireIndex } from '../auth/authenticate.ts';
import { submitWrite } from '../auth/index-scope.ts';
import { createError } from '../errors.ts';
import type { LoggedBatchRequest } from '../storage/ops.ts';
import type { IndexRegistry } from '../storage/registry.ts';
import { engineCheck } from '../engine-errors.ts';
import { assertWritable, isPlainObject, prepareBatchRequest } from '../storage/validate.ts';
import { readAuth } from '../search/reads.ts';
import { queryStringParams } from './search.ts';
import { deleteByParams } from './delete-by.ts';

type IndexParams = { indexName: string };
type ObjectParams = { indexName: string; objectID: string };

const WRITE = { acl: 'addObject', largeBody: true } as const;

function requestsOf(body: unknown): unknown[] {
  if (!isPlainObject(body) || !Array.isArray(body.requests)) throw createError('MISSING_PARAMETER', 'requests');
  return body.requests;
}

/**
 * Attributes a caller may see: `attributesToRetrieve` ('*', nested `a.b` paths, '-attr' exclusions), minus
 * unretrievable ones, read as a search's hits read them (keys may hold dots).
 */
export function retrieve(record: IndexRecord, attributes: unknown, unretrievable: string[] | undefined): IndexRecord {
  const list = typeof attributes === 'string' ? attributes.split(',').map((a) => a.trim()) : Array.isArray(attributes) ? attributes.map(String) : ['*'];
  const hidden = (unretrievable ?? []).filter((attribute) => attribute !== 'objectID');
  if (list.length === 1 && list[0] === '*' && hidden.length === 0) return record;
  return retrieveAttributes(record, parseRetrieve(list, hidden)) as IndexRecord;
}

/**
 * What the caller sees of a record it may read: the attributes its key forces (`attributesToRetrieve` in its
 * parameters wins over the request's, as in search), minus unretrievable ones unless the key may see them.
 */
function shownAttributes(registry: IndexRegistry, auth: AuthContext | null, indexName: string, record: IndexRecord, requested: unknown): IndexRecord {
  const entry = registry.get(indexName)!;
  const settings = registry.searchSettingsOf(entry) ?? entry.settings;
  const hidden = auth && hasAcl(auth, 'seeUnretrievableAttributes') ? undefined : settings.unretrievableAttributes;
  const forced = auth?.forcedParams.attributesToRetrieve;
  return retrieve(record, forced ?? requested, hidden);
}

export function objectRoutes(app: FastifyInstance, { store, limits, reads }: RouteDeps): void {
  const registry = store.registry;
  const prepare = (raw: unknown, i: number, indexName: string | undefined) => prepareBatchRequest(registry, raw, i, indexName, limits.maxRecordBytes);
  const objectIDs = (requests: LoggedBatchRequest[]) => requests.filter((r) => r.body?.objectID !== undefined).map((r) => r.body!.objectID as string);
  const now = () => new Date().toISOString();

  app.post<{ Params: IndexParams }>('/1/indexes/:indexName/batch', { config: WRITE }, async (request) => {
    const auth = request.auth!;
    if (request.params.indexName === '*') {
      const requests = requestsOf(request.body).map((raw, i) => {
        // The target first: validating a request must not describe an index outside the key's scope.
        if (isPlainObject(raw) && typeof raw.indexName === 'string') requireIndex(auth, raw.indexName);
        return prepare(raw, i, undefined);
      });
      if (requests.some((r) => r.action === 'deleteObject')) requireAcl(auth, 'deleteObject');
      if (requests.some((r) => r.action === 'clear' || r.action === 'delete')) requireAcl(auth, 'deleteIndex');
      const seq = await submitWrite(store, auth, { kind: 'batch', at: now(), requests });
      // Keyed by index name, and `__proto__` is a valid one: a plain object would drop it (a prototype setter).
      const taskID: Record<string, number> = Object.create(null);
      for (const r of requests) taskID[r.indexName] = seq;
      return { taskID, objectIDs: objectIDs(requests) };
    }
    const requests = requestsOf(request.body).map((raw, i) => prepare(raw, i, request.params.indexName));
    if (requests.some((r) => r.action === 'deleteObject')) requireAcl(auth, 'deleteObject');
    if (requests.some((r) => r.action === 'clear' || r.action === 'delete')) requireAcl(auth, 'deleteIndex');
    const taskID = await submitWrite(store, auth, { kind: 'batch', at: now(), requests });
    return { taskID, objectIDs: objectIDs(requests) };
  });

  app.post<{ Params: IndexParams }>('/1/indexes/:indexName', { config: WRITE }, async (request, reply) => {
    const prepared = prepare({ action: 'addObject', body: request.body }, 0, request.params.indexName);
    const createdAt = now();
    const taskID = await submitWrite(store, request.auth!, { kind: 'batch', at: createdAt, requests: [prepared] });
    return reply.code(201).send({ createdAt, taskID, objectID: prepared.body!.objectID });
  });

  app.put<{ Params: ObjectParams }>('/1/indexes/:indexName/:objectID', { config: WRITE }, async (request) => {
    const body = isPlainObject(request.body) ? { ...request.body, objectID: request.params.objectID } : request.body;
    const prepared = prepare({ action: 'updateObject', body }, 0, request.params.indexName);
    const updatedAt = now();
    const taskID = await submitWrite(store, request.auth!, { kind: 'batch', at: updatedAt, requests: [prepared] });
    return { updatedAt, taskID, objectID: request.params.objectID };
  });

  app.post<{ Params: ObjectParams; Querystring: { createIfNotExists?: string } }>(
    '/1/indexes/:indexName/:objectID/partial',
    { config: WRITE },
    async (request) => {
      const body = isPlainObject(request.body) ? { ...request.body, objectID: request.params.objectID } : request.body;
      const prepared = prepare({ action: 'partialUpdateObject', body }, 0, request.params.indexName);
      prepared.createIfNotExists = request.query.createIfNotExists !== 'false';
      const updatedAt = now();
      const taskID = await submitWrite(store, request.auth!, { kind: 'batch', at: updatedAt, requests: [prepared] });
      return { updatedAt, taskID, objectID: request.params.objectID };
    },
  );

  app.delete<{ Params: ObjectParams }>('/1/indexes/:indexName/:objectID', { config: { acl: 'deleteObject' } }, async (request) => {
    const prepared = prepare({ action: 'deleteObject', body: { objectID: request.params.objectID } }, 0, request.params.indexName);
    const deletedAt = now();
    const taskID = await submitWrite(store, request.auth!, { kind: 'batch', at: deletedAt, requests: [prepared] });
    return { deletedAt, taskID };
  });

  // A record outside the key's forced filter reads as absent: a 404 here, a null in getObjects.
  app.get<{ Params: ObjectParams }>('/1/indexes/:indexName/:objectID', { config: { acl: 'search' } }, async (request) => {
    const { indexName, objectID } = request.params;
    const params = queryStringParams(request, limits.maxJsonDepth);
    const [record] = await reads.read({ kind: 'objects', indexName, objectIDs: [objectID], auth: readAuth(request.auth) });
    if (!record) throw createError(registry.has(indexName) ? 'OBJECT_NOT_FOUND' : 'INDEX_NOT_FOUND');
    return shownAttributes(registry, request.auth, indexName, record, params.attributesToRetrieve);
  });

  app.post<{ Params: IndexParams }>('/1/indexes/:indexName/objects', { config: { acl: 'search' } }, async (request) => {
    if (request.params.indexName !== '*') throw createError('ROUTE_NOT_FOUND', 'POST', request.url.split('?')[0]);
    const wanted = requestsOf(request.body).map((raw, i) => {
      if (!isPlainObject(raw) || typeof raw.indexName !== 'string' || typeof raw.objectID !== 'string') {
        throw createError('INVALID_BODY', `requests[${i}] needs indexName and objectID`);
      }
      requireIndex(request.auth!, raw.indexName);
      return { indexName: raw.indexName, objectID: raw.objectID, attributesToRetrieve: raw.attributesToRetrieve };
    });
    // Read per index, so that the key's forced filter is evaluated once per index rather than once per record.
    const positions = new Map<string, number[]>();
    wanted.forEach(({ indexName }, i) => {
      const list = positions.get(indexName);
      if (list) list.push(i);
      else positions.set(indexName, [i]);
    });
    const results: Array<IndexRecord | null> = wanted.map(() => null);
    for (const [indexName, list] of positions) {
      const records = await reads.read({ kind: 'objects', indexName, objectIDs: list.map((i) => wanted[i].objectID), auth: readAuth(request.auth) });
      list.forEach((i, k) => {
        const record = records[k];
        if (record) results[i] = shownAttributes(registry, request.auth, indexName, record, wanted[i].attributesToRetrieve);
      });
    }
    return { results };
  });

  app.post<{ Params: IndexParams }>('/1/indexes/:indexName/clear', { config: { acl: 'deleteIndex' } }, async (request) => {
    assertWritable(registry, request.params.indexName);
    const updatedAt = now();
    const taskID = await submitWrite(store, request.auth!, { kind: 'batch', at: updatedAt, requests: [{ indexName: request.params.indexName, action: 'clear' }] });
    return { taskID, updatedAt };
  });

  app.post<{ Params: IndexParams }>('/1/indexes/:indexName/deleteByQuery', { config: { acl: 'deleteIndex' } }, async (request) => {
    assertWritable(registry, request.params.indexName);
    const params = deleteByParams(request.body, limits.maxJsonDepth);
    // Checked now, with a dry run on the current records: a logged operation must not fail when applied.
    const entry = registry.get(request.params.indexName);
    if (entry?.engine) engineCheck(() => entry.engine!.browse({ ...params, hitsPerPage: 1, attributesToRetrieve: ['objectID'] }));
    const updatedAt = now();
    const taskID = await submitWrite(store, request.auth!, { kind: 'deleteBy', at: updatedAt, indexName: request.params.indexName, params });
    return { taskID, updatedAt };
  });
}
