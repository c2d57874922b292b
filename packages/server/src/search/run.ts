/**
 * Runs searches for the routes: resolves the index (a replica searches its primary's records with its own
 * settings), applies what the API key forces (parameters, filters as an extra syntax tree, hit caps) and turns
 * engine errors into 400s. Everything here is synchronous, so all queries of one multi-query see the same state.
 */
import { randomBytes } from 'node:crypto';
import { withinKeyLimits, type ReRankingInput, type SearchOptions, type SteppedSearch } from '@vitrine/engine';
import type { BrowseResponse, IndexRecord, SearchForFacetValuesResponse, SearchParams, SearchPersonalization, SearchResponse } from '@vitrine/protocol';
import type { AuthContext } from '../auth/authenticate.ts';
import type { ServerLimits } from '../config.ts';
import { createError } from '../errors.ts';
import { checkHighlightTags, checkListLengths, mergeParams, validateSearchParams } from '../http/params.ts';
import type { IndexEntry, IndexRegistry } from '../storage/registry.ts';
import { engineCheck } from '../engine-errors.ts';

export function findIndex(registry: IndexRegistry, indexName: string): IndexEntry {
  const entry = registry.get(indexName);
  if (!entry) throw createError('INDEX_NOT_FOUND');
  return entry;
}

/** Request parameters (JSON fields and/or `params` string), validated, with the key's forced parameters on top. */
export function requestParams(body: unknown, auth: AuthContext | null, limits: ServerLimits): SearchParams {
  const record = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  if (body !== undefined && body !== null && record === undefined) throw createError('INVALID_BODY', 'expected a JSON object');
  const params = validateSearchParams(mergeParams(record, limits.maxJsonDepth, limits.maxSearchParameters), limits);
  return withForcedParams(params, auth, limits);
}

export function withForcedParams(params: SearchParams, auth: AuthContext | null, limits: ServerLimits): SearchParams {
  if (!auth) return params;
  const out = withinKeyLimits(params, { forcedParams: auth.forcedParams, maxHitsPerQuery: auth.maxHitsPerQuery });
  // Anyone can mint a secured key from the public search key, forcing whatever tags they like.
  checkHighlightTags(out, limits);
  checkListLengths(out, limits);
  return out;
}

/** 32 hexadecimal characters, as Algolia's queryID. */
export function newQueryID(): string {
  return randomBytes(16).toString('hex');
}

/**
 * What a search needs of the caller's key: the filter it forces (null: none), its other forced parameters and hit
 * cap, and whether it may see the facet values of unretrievable attributes (`seeUnretrievableAttributes`).
 */
export type SearchAuth =
  | (Pick<AuthContext, 'forcedFilter'> & { forcedParams?: AuthContext['forcedParams']; maxHitsPerQuery?: number; unretrievableFacets?: boolean })
  | null;

/**
 * The engine's per-call options for a key: its forced filter; when it forces `attributesToRetrieve`,
 * highlighting and snippeting within what it retrieves (else `_highlightResult` would show the hidden
 * attributes); its forced parameters and hit cap, which the engine puts back over the rules' consequences.
 */
function engineOptions(auth: SearchAuth): SearchOptions | undefined {
  if (!auth) return undefined;
  const options: SearchOptions = {};
  if (auth.forcedFilter) options.extraFilter = auth.forcedFilter;
  if (auth.forcedParams?.attributesToRetrieve !== undefined) options.highlightRetrievedOnly = true;
  if (auth.forcedParams !== undefined && Object.keys(auth.forcedParams).length > 0) options.forcedParams = auth.forcedParams;
  if (auth.maxHitsPerQuery !== undefined && auth.maxHitsPerQuery > 0) options.maxHitsPerQuery = auth.maxHitsPerQuery;
  if (auth.unretrievableFacets === true) options.unretrievableFacets = true;
  return Object.keys(options).length > 0 ? options : undefined;
}

export function runSearch(registry: IndexRegistry, indexName: string, params: SearchParams, auth: SearchAuth, queryVector?: number[], reRanking?: ReRankingInput, personalization?: SearchPersonalization): SearchResponse {
  const search = runSearchInSteps(registry, indexName, params, auth, queryVector, reRanking, personalization);
  search.buildHits(Number.POSITIVE_INFINITY);
  return search.response;
}

/**
 * A search whose hits the caller builds (`SteppedSearch`), a few at a time if it wants. `queryVector`: the query
 * text's vector a rest embedder gave, for a hybrid search.
 */
export function runSearchInSteps(registry: IndexRegistry, indexName: string, params: SearchParams, auth: SearchAuth, queryVector?: number[], reRanking?: ReRankingInput, personalization?: SearchPersonalization): SteppedSearch {
  const entry = findIndex(registry, indexName);
  const engine = registry.engineOf(entry);
  const override = registry.searchSettingsOf(entry);
  // The engine has no clock: rules with validity ranges are judged at the time the search is answered.
  const options: SearchOptions = { ...engineOptions(auth), nowSeconds: Math.floor(Date.now() / 1000), ...(queryVector === undefined ? {} : { queryVector }), ...(reRanking === undefined ? {} : { reRanking }), ...(personalization === undefined ? {} : { personalization }) };
  const search = engineCheck(() => engine.searchInSteps(params, override, options));
  if (params.clickAnalytics === true) search.response.queryID = newQueryID();
  return search;
}

export function runFacetSearch(
  registry: IndexRegistry,
  indexName: string,
  facetName: string,
  params: SearchParams,
  auth: SearchAuth,
): SearchForFacetValuesResponse {
  const entry = findIndex(registry, indexName);
  const engine = registry.engineOf(entry);
  const facetQuery = typeof params.facetQuery === 'string' ? params.facetQuery : '';
  const { facetQuery: _facetQuery, ...rest } = params;
  return engineCheck(() => engine.searchForFacetValues(facetName, facetQuery, rest, engineOptions(auth)));
}

export function runBrowse(registry: IndexRegistry, indexName: string, params: SearchParams & { cursor?: string }, auth: SearchAuth): BrowseResponse {
  const entry = findIndex(registry, indexName);
  const engine = registry.engineOf(entry);
  return engineCheck(() => engine.browse(params, engineOptions(auth)));
}

/**
 * Records by objectID as a key may read them: null for missing ones (all of them on a missing index) and for
 * those outside the key's forced filter, as if absent, so a restricted key cannot read by objectID what its
 * searches would not find. Attributes are left whole: callers trim them to what the key may see.
 */
export function readObjects(registry: IndexRegistry, indexName: string, objectIDs: readonly string[], auth: SearchAuth): Array<IndexRecord | null> {
  const entry = registry.get(indexName);
  if (!entry) return objectIDs.map(() => null);
  const extraFilter = auth?.forcedFilter ?? undefined;
  return registry.engineOf(entry).getObjects(objectIDs, extraFilter ? { extraFilter } : undefined).map((record) => record ?? null);
}
