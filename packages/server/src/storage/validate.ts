/**
 * Checks run on a write before it is logged, so that a logged operation never fails half-way when applied:
 * record shapes and sizes, objectIDs, partial-update operations, replica rules, settings the engine accepts.
 * Every failure is an `ApiError` (4xx) naming the position and objectID at fault.
 */
import { checkSettingValues, parseEmbedders, readRecordVectors, SearchIndex } from '@vitrine/engine';
import type { BatchAction, IncomingRecord, IndexSettings, Rule, SearchParams } from '@vitrine/protocol';
import { randomUUID } from 'node:crypto';
import type { ServerLimits } from '../config.ts';
import { engineCheck } from '../engine-errors.ts';
import { ApiError, createError } from '../errors.ts';
import { validateSearchParams } from '../http/params.ts';
import type { LoggedBatchRequest } from './ops.ts';
import { partialBodyError } from './partial.ts';
import { checkDefaultHybrid, checkEmbedders, unmaskEmbedderSecrets } from './embedder-settings.ts';
import { engineSettings, parseReplicaName } from './registry.ts';
import type { IndexRegistry } from './registry.ts';

const ACTIONS = new Set<BatchAction>([
  'addObject',
  'updateObject',
  'partialUpdateObject',
  'partialUpdateObjectNoCreate',
  'deleteObject',
  'delete',
  'clear',
]);

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Validates one batch request and fixes everything replay needs (a generated objectID for `addObject`). */
export function prepareBatchRequest(
  registry: IndexRegistry,
  raw: unknown,
  position: number,
  defaultIndex: string | undefined,
  maxRecordBytes: number,
): LoggedBatchRequest {
  if (!isPlainObject(raw)) throw createError('INVALID_BODY', `requests[${position}] must be an object`);
  const action = raw.action as BatchAction;
  if (typeof action !== 'string' || !ACTIONS.has(action)) {
    throw createError('INVALID_PARAMETER', 'action', `unknown action ${JSON.stringify(raw.action)} at the position ${position}`);
  }
  const indexName = defaultIndex ?? raw.indexName;
  if (typeof indexName !== 'string' || indexName === '') throw createError('MISSING_PARAMETER', `requests[${position}].indexName`);
  assertWritable(registry, indexName);
  if (action === 'delete' || action === 'clear') return { indexName, action };

  const body = raw.body;
  if (!isPlainObject(body)) throw createError('INVALID_RECORD', position, 'body must be a JSON object');
  let objectID = body.objectID;
  if (objectID !== undefined && (typeof objectID !== 'string' || objectID === '')) {
    // Algolia accepts numeric objectIDs and stores them as strings.
    if (typeof objectID === 'number' && Number.isFinite(objectID)) objectID = String(objectID);
    else throw createError('INVALID_OBJECT_ID', position);
  }
  if (objectID === undefined) {
    if (action !== 'addObject') throw createError('MISSING_PARAMETER', `objectID at the position ${position}`);
    objectID = randomUUID();
  }
  const record: IncomingRecord = { ...body, objectID: objectID as string };
  if (action === 'deleteObject') return { indexName, action, body: { objectID: objectID as string } };
  const size = Buffer.byteLength(JSON.stringify(record));
  if (size > maxRecordBytes) throw createError('RECORD_TOO_BIG', position, objectID as string, size, maxRecordBytes);
  if (action === 'partialUpdateObject' || action === 'partialUpdateObjectNoCreate') {
    const problem = partialBodyError(record);
    if (problem) throw createError('INVALID_RECORD', position, problem);
  }
  if (Object.hasOwn(record, '_vectors')) {
    // Checked against the index's embedders as they stand, before logging: a bad vector refuses the whole batch.
    const problem = readRecordVectors(record._vectors, parseEmbedders(registry.peek(indexName)?.settings.embedders));
    if (typeof problem === 'string') throw createError('INVALID_RECORD', position, problem);
  }
  return { indexName, action, body: record };
}

/** Longest index name, in UTF-8 bytes. */
const MAX_INDEX_NAME_BYTES = 256;

/**
 * Index names a write may create or write to: not blank, at most 256 bytes, no control characters, not `*`,
 * which stands for "the indexes named in the body" on the multi-index routes (and for every index in key
 * patterns), and not `.` or `..`, which paths resolve away and tools writing an index per file or folder (the
 * export, a sync's state) cannot hold (issue 49). Anything else goes: clients use dots, dashes, spaces, non-Latin
 * letters. Refused with Algolia's `indexName is not valid`.
 */
export function assertIndexName(name: string): void {
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  if (name.trim() === '' || name === '*' || name === '.' || name === '..' || /[\u0000-\u001f\u007f]/.test(name) || Buffer.byteLength(name) > MAX_INDEX_NAME_BYTES) {
    throw createError('INVALID_INDEX_NAME');
  }
}

/** Records of replicas are their primary's: writes go to the primary, as Algolia requires. */
export function assertWritable(registry: IndexRegistry, indexName: string): void {
  const entry = registry.peek(indexName);
  if (entry && typeof entry.settings.primary === 'string') throw createError('REPLICA_WRITE', indexName, entry.settings.primary);
}

/**
 * Validates a settings patch against the index it applies to: shapes of `replicas`, then the merged settings
 * on a scratch engine index (which rejects what the engine cannot apply).
 */
export function validateSettingsPatch(registry: IndexRegistry, indexName: string, patch: unknown, limits: ServerLimits): IndexSettings {
  if (!isPlainObject(patch)) throw createError('INVALID_BODY', 'settings must be a JSON object');
  // Settings cannot lift the server's caps: they bound the work of every later search.
  const caps: Array<[string, number]> = [
    ['paginationLimitedTo', limits.paginationLimitedTo],
    ['hitsPerPage', limits.maxHitsPerPage],
    ['maxValuesPerFacet', limits.maxValuesPerFacet],
  ];
  for (const [name, max] of caps) {
    const value = patch[name];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > max) {
      throw createError('INVALID_PARAMETER', name, `must be an integer between 0 and ${max}`);
    }
  }
  // Every search of the index reads it: a value no search takes would make them all fail. Checked on the patch
  // only, so that an index stored with such a value still loads (and can be set right).
  const facetOrder = patch.sortFacetValuesBy;
  if (facetOrder !== undefined && facetOrder !== null && facetOrder !== '' && facetOrder !== 'count' && facetOrder !== 'alpha') {
    throw createError('INVALID_PARAMETER', 'sortFacetValuesBy', 'must be count or alpha');
  }
  engineCheck(() => checkSettingValues(patch));
  const entry = registry.get(indexName);
  if ('primary' in patch && patch.primary !== undefined) throw createError('INVALID_PARAMETER', 'primary', 'read-only, set replicas on the primary instead');
  if ('replicas' in patch && patch.replicas !== null) {
    const replicas = patch.replicas;
    if (!Array.isArray(replicas) || !replicas.every((r) => typeof r === 'string' && r.trim() !== '')) {
      throw createError('INVALID_REPLICA', 'replicas must be an array of index names');
    }
    if (entry && typeof entry.settings.primary === 'string') throw createError('INVALID_REPLICA', `${indexName} is itself a replica`);
    const seen = new Set<string>();
    for (const raw of replicas as string[]) {
      const { name } = parseReplicaName(raw);
      if (name === indexName) throw createError('INVALID_REPLICA', 'an index cannot be its own replica');
      if (seen.has(name)) throw createError('INVALID_REPLICA', `${name} is listed twice`);
      seen.add(name);
      const other = registry.get(name);
      if (other && typeof other.settings.primary === 'string' && other.settings.primary !== indexName) {
        throw createError('INVALID_REPLICA', `${name} is already a replica of ${other.settings.primary}`);
      }
      if (other?.settings.replicas?.length) throw createError('INVALID_REPLICA', `${name} has replicas of its own`);
    }
  }
  // Masked embedder secrets (what reading the settings shows) stand for the values they mask.
  const unmasked = unmaskEmbedderSecrets(patch, entry?.settings ?? {});
  const merged: IndexSettings = { ...(entry?.settings ?? {}) };
  for (const [key, value] of Object.entries(unmasked)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  engineCheck(() => new SearchIndex(engineSettings(merged)));
  checkEmbedders(merged.embedders);
  checkDefaultHybrid(merged.hybrid);
  return unmasked as IndexSettings;
}

/** Consequence parameters that are not search parameters as such: the engine reads them when planning rules. */
const RULE_ONLY_PARAMS = new Set(['automaticFacetFilters', 'automaticOptionalFacetFilters', 'renderingContent']);

/**
 * A rule's search parameters, checked when it is saved with the limits of a search's own (highlight tags, list
 * lengths, hits per page, query length, parameter count): a rule applies them to searches made with the public
 * key. A rule with 200 KB tags once saved, and each search it triggered built megabytes before its 400 (issue
 * 49). Refused with `INVALID_RULE` at the rule's position.
 */
export function checkRuleParams(rule: Rule, position: number, limits: ServerLimits): void {
  const params: unknown = rule.consequence?.params;
  if (!isPlainObject(params)) return;
  const search: SearchParams = {};
  let count = 0;
  for (const [name, value] of Object.entries(params)) {
    count++;
    // A query edit object ({ remove, edits }) is the engine's to check; a replacement query is a query.
    if (RULE_ONLY_PARAMS.has(name) || (name === 'query' && typeof value !== 'string')) continue;
    search[name] = value;
  }
  try {
    if (count > limits.maxSearchParameters) throw createError('TOO_MANY_PARAMETERS', count, limits.maxSearchParameters);
    validateSearchParams(search, limits);
    engineCheck(() => checkSettingValues(search));
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) throw createError('INVALID_RULE', position, error.message);
    throw error;
  }
}
