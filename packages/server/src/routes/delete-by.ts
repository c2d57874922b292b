/**
 * What `deleteBy` (`POST /1/indexes/{index}/deleteByQuery`) takes: the spec's `deleteByParams`, type-checked,
 * with at least one filter. Without one it matches every record, and a body of `{}`, `[]`, `true` or
 * `{"filters":""}` once emptied the index (issue 49): Algolia refuses a deleteBy without a filter, and so do we
 * (clearing an index is its own route).
 */
import { buildFilterNode, SearchIndex } from '@vitrine/engine';
import type { SearchParams } from '@vitrine/protocol';
import { engineCheck } from '../engine-errors.ts';
import { createError } from '../errors.ts';
import { mergeParams } from '../http/params.ts';
import { isPlainObject } from '../storage/validate.ts';

/** The spec's deleteByParams; every other parameter is ignored, as Algolia ignores them. */
const DELETE_BY_PARAMS = ['filters', 'facetFilters', 'numericFilters', 'tagFilters', 'aroundLatLng', 'aroundRadius', 'insideBoundingBox', 'insidePolygon'];
/** Geo areas the engine does not filter on: deleting by them would delete every record. */
const UNSUPPORTED = ['insideBoundingBox', 'insidePolygon'];
/** An empty engine index: runs the parameters' own checks (types, ranges) whatever the target index holds. */
const scratch = new SearchIndex();

export function deleteByParams(body: unknown, maxDepth: number): SearchParams {
  if (body !== undefined && !isPlainObject(body)) throw createError('INVALID_BODY', 'deleteBy takes a JSON object of filters');
  const merged = mergeParams(body, maxDepth);
  const params: SearchParams = {};
  for (const name of DELETE_BY_PARAMS) if (merged[name] !== undefined && merged[name] !== null) params[name] = merged[name];
  for (const name of UNSUPPORTED) {
    if (params[name] !== undefined) throw createError('INVALID_PARAMETER', name, 'not supported by this server (the engine does not filter on it)');
  }
  if (params.filters !== undefined && typeof params.filters !== 'string') throw createError('INVALID_PARAMETER', 'filters', 'expected a string');
  const filter = engineCheck(() => buildFilterNode(params as Parameters<typeof buildFilterNode>[0]));
  engineCheck(() => scratch.browse({ ...params, hitsPerPage: 1 }));
  // aroundLatLng filters only with a radius ("all" is none): alone it ranks by distance and matches everything.
  const around = params.aroundLatLng !== undefined && params.aroundRadius !== undefined && params.aroundRadius !== 'all';
  if (filter === null && !around) throw createError('DELETE_BY_WITHOUT_FILTER');
  return params;
}
