/**
 * Synonym routes: save one, save a batch (optionally replacing all), get, delete, search, clear. Writes are
 * tasks like record writes; `forwardToReplicas` applies them to every replica too.
 */
import type { FastifyInstance } from 'fastify';
import type { SynonymHit, SynonymType } from '@vitrine/protocol';
import type { RouteDeps } from './deps.ts';
import { submitWrite } from '../auth/index-scope.ts';
import { createError } from '../errors.ts';
import { isPlainObject } from '../storage/validate.ts';

type IndexParams = { indexName: string };
type SynonymParams = { indexName: string; objectID: string };
type WriteQuery = { forwardToReplicas?: string; replaceExistingSynonyms?: string };

const TYPES = new Set<SynonymType>(['synonym', 'onewaysynonym', 'altcorrection1', 'altcorrection2', 'placeholder']);

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/** Validates a synonym as the spec shapes each type; returns a clean copy (only known fields). */
export function parseSynonym(raw: unknown, position: number, objectID?: string): SynonymHit {
  if (!isPlainObject(raw)) throw createError('INVALID_BODY', `synonym at the position ${position} must be an object`);
  const id = objectID ?? raw.objectID;
  if (typeof id !== 'string' || id === '') throw createError('MISSING_PARAMETER', `objectID of the synonym at the position ${position}`);
  // v4 clients spell the types in camel case (`oneWaySynonym`, `altCorrection1`): stored in the spec's lower case.
  const type = (typeof raw.type === 'string' ? raw.type.toLowerCase() : raw.type) as SynonymType;
  if (!TYPES.has(type)) throw createError('INVALID_PARAMETER', 'type', `unknown synonym type ${JSON.stringify(raw.type)} at the position ${position}`);
  const hit: SynonymHit = { objectID: id, type };
  const need = (field: 'synonyms' | 'corrections' | 'replacements') => {
    if (!isStringArray(raw[field])) throw createError('INVALID_PARAMETER', field, `expected an array of strings (synonym ${id})`);
    hit[field] = raw[field] as string[];
  };
  const needString = (field: 'input' | 'word' | 'placeholder') => {
    if (typeof raw[field] !== 'string' || raw[field] === '') throw createError('MISSING_PARAMETER', `${field} (synonym ${id})`);
    hit[field] = raw[field] as string;
  };
  if (type === 'synonym') need('synonyms');
  if (type === 'onewaysynonym') {
    needString('input');
    need('synonyms');
  }
  if (type === 'altcorrection1' || type === 'altcorrection2') {
    needString('word');
    need('corrections');
  }
  if (type === 'placeholder') {
    needString('placeholder');
    need('replacements');
  }
  return hit;
}

function truthy(value: string | undefined): boolean {
  return value === 'true' || value === '1';
}

function matchesQuery(hit: SynonymHit, query: string): boolean {
  if (query === '') return true;
  const text = [hit.objectID, hit.input, hit.word, hit.placeholder, ...(hit.synonyms ?? []), ...(hit.corrections ?? []), ...(hit.replacements ?? [])]
    .filter((item): item is string => typeof item === 'string')
    .join(' ')
    .toLowerCase();
  return query.toLowerCase().split(/\s+/).filter(Boolean).every((word) => text.includes(word));
}

export function synonymRoutes(app: FastifyInstance, { store }: RouteDeps): void {
  const registry = store.registry;
  const now = () => new Date().toISOString();
  const read = { acl: 'settings' } as const;
  const write = { acl: 'editSettings', largeBody: true } as const;

  app.put<{ Params: SynonymParams; Querystring: WriteQuery }>('/1/indexes/:indexName/synonyms/:objectID', { config: write }, async (request) => {
    const hit = parseSynonym(request.body, 0, request.params.objectID);
    const updatedAt = now();
    const taskID = await submitWrite(store, request.auth!, {
      kind: 'synonyms', at: updatedAt, indexName: request.params.indexName, action: 'save', hits: [hit],
      forwardToReplicas: truthy(request.query.forwardToReplicas),
    });
    return { taskID, updatedAt, id: hit.objectID };
  });

  app.post<{ Params: IndexParams; Querystring: WriteQuery }>('/1/indexes/:indexName/synonyms/batch', { config: write }, async (request) => {
    if (!Array.isArray(request.body)) throw createError('INVALID_BODY', 'expected an array of synonyms');
    const hits = request.body.map((raw, i) => parseSynonym(raw, i));
    const updatedAt = now();
    const taskID = await submitWrite(store, request.auth!, {
      kind: 'synonyms', at: updatedAt, indexName: request.params.indexName, action: 'save', hits,
      replaceExisting: truthy(request.query.replaceExistingSynonyms),
      forwardToReplicas: truthy(request.query.forwardToReplicas),
    });
    return { taskID, updatedAt };
  });

  app.post<{ Params: IndexParams; Querystring: WriteQuery }>('/1/indexes/:indexName/synonyms/clear', { config: write }, async (request) => {
    const updatedAt = now();
    const taskID = await submitWrite(store, request.auth!, {
      kind: 'synonyms', at: updatedAt, indexName: request.params.indexName, action: 'clear',
      forwardToReplicas: truthy(request.query.forwardToReplicas),
    });
    return { taskID, updatedAt };
  });

  app.get<{ Params: SynonymParams }>('/1/indexes/:indexName/synonyms/:objectID', { config: read }, async (request) => {
    const hit = registry.get(request.params.indexName)?.synonyms.get(request.params.objectID);
    if (!hit) throw createError('SYNONYM_NOT_FOUND');
    return hit;
  });

  app.delete<{ Params: SynonymParams; Querystring: WriteQuery }>('/1/indexes/:indexName/synonyms/:objectID', { config: { acl: 'editSettings' } }, async (request) => {
    const entry = registry.get(request.params.indexName);
    if (!entry?.synonyms.has(request.params.objectID)) throw createError('SYNONYM_NOT_FOUND');
    const deletedAt = now();
    const taskID = await submitWrite(store, request.auth!, {
      kind: 'synonyms', at: deletedAt, indexName: request.params.indexName, action: 'delete', objectID: request.params.objectID,
      forwardToReplicas: truthy(request.query.forwardToReplicas),
    });
    return { taskID, deletedAt };
  });

  app.post<{ Params: IndexParams }>('/1/indexes/:indexName/synonyms/search', { config: read }, async (request) => {
    const body = isPlainObject(request.body) ? request.body : {};
    const query = typeof body.query === 'string' ? body.query : '';
    const type = typeof body.type === 'string' ? body.type.toLowerCase() : body.type;
    if (type !== undefined && !TYPES.has(type as SynonymType)) throw createError('INVALID_PARAMETER', 'type', 'unknown synonym type');
    const page = body.page === undefined ? 0 : countOf(body.page);
    const hitsPerPage = body.hitsPerPage === undefined ? 100 : countOf(body.hitsPerPage);
    if (!Number.isInteger(page) || page < 0) throw createError('INVALID_PARAMETER', 'page', 'expected a non-negative integer');
    if (!Number.isInteger(hitsPerPage) || hitsPerPage < 1 || hitsPerPage > 1000) throw createError('INVALID_PARAMETER', 'hitsPerPage', 'must be between 1 and 1000');
    const all = [...(registry.get(request.params.indexName)?.synonyms.values() ?? [])]
      .filter((hit) => (type === undefined || hit.type === type) && matchesQuery(hit, query))
      .sort((a, b) => a.objectID.localeCompare(b.objectID));
    return { hits: all.slice(page * hitsPerPage, (page + 1) * hitsPerPage), nbHits: all.length };
  });
}

/**
 * A page number or page size as a number: given as one, or as a string of one; anything else is NaN (a 400
 * then). `Number` on an arbitrary JSON value may throw (an object whose `toString` is no function).
 */
export function countOf(value: unknown): number {
  if (typeof value === 'number') return value;
  return typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
}
