/**
 * Search parameters as both client generations send them: JSON fields (v5) or a url-encoded `params` string
 * (v4, InstantSearch through v4 clients, and secured API keys). In the string form every value is text, so
 * values are coerced by parameter: numbers, booleans, JSON arrays (`facetFilters=%5B%22brand%3AApple%22%5D`),
 * comma lists (`attributesToRetrieve=name,brand`). Unknown parameters are kept (JSON-decoded when they look
 * like JSON), as Algolia ignores what it does not know; but a search counts them among its parameters, which are
 * at most `maxSearchParameters`, counted before any is decoded.
 */
import type { SearchParams } from '@vitrine/protocol';
import { defaultLimits, type ServerLimits } from '../config.ts';
import { createError } from '../errors.ts';
import { checkJsonValue } from './json.ts';

const NUMBER_PARAMS = new Set([
  'page', 'hitsPerPage', 'offset', 'length', 'maxValuesPerFacet', 'maxFacetHits', 'minWordSizefor1Typo',
  'minWordSizefor2Typos', 'minProximity', 'relevancyStrictness', 'minimumAroundRadius', 'validUntil',
  'personalizationImpact', 'paginationLimitedTo',
]);
const BOOLEAN_PARAMS = new Set([
  'getRankingInfo', 'clickAnalytics', 'analytics', 'enableABTest', 'enablePersonalization', 'enableRules',
  'enableReRanking', 'allowReRankingOnPersonalization', 'allowTyposOnNumericTokens', 'advancedSyntax', 'synonyms', 'replaceSynonymsInHighlight',
  'restrictHighlightAndSnippetArrays', 'sumOrFiltersScores', 'facetingAfterDistinct', 'percentileComputation',
  'aroundLatLngViaIP', 'attributeCriteriaComputedByMinProximity', 'decompoundQuery', 'enableSynonyms',
  'retrieveVectors',
]);
/** Lists that also come comma-separated. */
const LIST_PARAMS = new Set([
  'attributesToRetrieve', 'attributesToHighlight', 'attributesToSnippet', 'restrictSearchableAttributes',
  'facets', 'analyticsTags', 'ruleContexts', 'queryLanguages', 'naturalLanguages', 'responseFields',
  'disableTypoToleranceOnAttributes', 'advancedSyntaxFeatures', 'optionalWords', 'restrictIndices',
  'alternativesAsExact', 'disableExactOnAttributes',
]);
/** Filters: a string, or a JSON (possibly nested) array. */
const FILTER_LIST_PARAMS = new Set(['facetFilters', 'numericFilters', 'tagFilters', 'optionalFilters', 'reRankingApplyFilter']);
/** Parameters that are booleans or strings (`typoTolerance=min`) or booleans or lists (`ignorePlurals=fr,en`). */
const BOOLEAN_OR_STRING = new Set(['typoTolerance', 'ignorePlurals', 'removeStopWords', 'distinct']);
/** Text as typed by the user: never coerced. */
const STRING_PARAMS = new Set(['query', 'filters', 'facetQuery', 'similarQuery', 'highlightPreTag', 'highlightPostTag', 'snippetEllipsisText', 'userToken', 'cursor', 'aroundLatLng', 'queryType', 'removeWordsIfNoResults', 'sortFacetValuesBy', 'exactOnSingleWordQuery']);

function looksLikeJson(value: string): boolean {
  const first = value.trimStart()[0];
  return first === '[' || first === '{';
}

function parseJsonParam(name: string, value: string, maxDepth: number): unknown {
  try {
    const parsed: unknown = JSON.parse(value);
    checkJsonValue(parsed, maxDepth);
    return parsed;
  } catch (error) {
    if ((error as { status?: number }).status) throw error;
    throw createError('INVALID_PARAMETER', name, 'not valid JSON');
  }
}

/** Coerces one value of a url-encoded params string. */
export function coerceParam(name: string, value: string, maxDepth = 64): unknown {
  if (STRING_PARAMS.has(name)) return value;
  if (NUMBER_PARAMS.has(name)) {
    const number = Number(value);
    if (value.trim() === '' || !Number.isFinite(number)) throw createError('INVALID_PARAMETER', name, `expected a number, got "${value}"`);
    return number;
  }
  if (BOOLEAN_PARAMS.has(name)) {
    if (value === 'true' || value === '1') return true;
    if (value === 'false' || value === '0') return false;
    throw createError('INVALID_PARAMETER', name, `expected a boolean, got "${value}"`);
  }
  if (LIST_PARAMS.has(name)) {
    if (looksLikeJson(value)) return parseJsonParam(name, value, maxDepth);
    return value === '' ? [] : value.split(',').map((item) => item.trim());
  }
  if (FILTER_LIST_PARAMS.has(name)) return looksLikeJson(value) ? parseJsonParam(name, value, maxDepth) : value;
  if (BOOLEAN_OR_STRING.has(name)) {
    if (value === 'true' || value === 'false') return value === 'true';
    if (name === 'distinct' && /^\d+$/.test(value)) return Number(value);
    if ((name === 'ignorePlurals' || name === 'removeStopWords') && value !== '') return looksLikeJson(value) ? parseJsonParam(name, value, maxDepth) : value.split(',');
    return value;
  }
  if (name === 'aroundRadius') return value === 'all' ? value : Number(value);
  if (name === 'aroundPrecision') return looksLikeJson(value) ? parseJsonParam(name, value, maxDepth) : Number(value);
  if (name === 'insideBoundingBox' || name === 'insidePolygon') return looksLikeJson(value) ? parseJsonParam(name, value, maxDepth) : value;
  if (looksLikeJson(value)) {
    try {
      return parseJsonParam(name, value, maxDepth);
    } catch {
      return value;
    }
  }
  return value;
}

/** Entries of a url-encoded string (those `URLSearchParams` yields: `a=1&&b` has two), counted without decoding any. */
export function countParams(params: string): number {
  let count = 0;
  for (let start = 0; start <= params.length; ) {
    let end = params.indexOf('&', start);
    if (end === -1) end = params.length;
    if (end > start) count++;
    start = end + 1;
  }
  return count;
}

function checkParamCount(count: number, maxParameters: number): void {
  if (count > maxParameters) throw createError('TOO_MANY_PARAMETERS', count, maxParameters);
}

/**
 * Parses a url-encoded params string (`query=a&hitsPerPage=2`) into typed parameters; past `maxParameters`
 * entries, refused before any is decoded.
 */
export function parseParamsString(params: string, maxDepth = 64, maxParameters = defaultLimits.maxSearchParameters): Record<string, unknown> {
  checkParamCount(countParams(params), maxParameters);
  const out: Record<string, unknown> = {};
  for (const [name, value] of new URLSearchParams(params)) {
    if (name === '__proto__' || name === 'constructor' || name === 'prototype') continue;
    out[name] = coerceParam(name, value, maxDepth);
  }
  return out;
}

/**
 * One request's search parameters: JSON fields, overlaid by the `params` string when present (v4 sends only
 * the string; when both are sent the string is the more specific form).
 */
export function mergeParams(body: Record<string, unknown> | undefined, maxDepth = 64, maxParameters = defaultLimits.maxSearchParameters): SearchParams {
  const out: Record<string, unknown> = {};
  if (body) {
    const nested = body.params;
    const inParams = typeof nested === 'string' ? countParams(nested) : typeof nested === 'object' && nested !== null ? Object.keys(nested).length : 0;
    let fields = 0;
    for (const key of Object.keys(body)) if (key !== 'params' && key !== 'indexName' && key !== 'type') fields++;
    checkParamCount(fields + inParams, maxParameters);
    for (const [key, value] of Object.entries(body)) {
      if (key === 'params' || key === 'indexName' || key === 'type' || key === '__proto__') continue;
      out[key] = value;
    }
    if (body.params !== undefined) {
      if (typeof body.params === 'string') Object.assign(out, parseParamsString(body.params, maxDepth, Number.POSITIVE_INFINITY));
      else if (typeof body.params === 'object' && body.params !== null && !Array.isArray(body.params)) {
        // Some callers (older v5 snippets) nest params as an object.
        for (const [key, value] of Object.entries(body.params)) if (key !== '__proto__') out[key] = value;
      } else throw createError('INVALID_PARAMETER', 'params', 'expected a url-encoded string');
    }
  }
  // Comma lists may also arrive as JSON strings; normalise the most used ones to arrays.
  for (const name of ['attributesToRetrieve', 'attributesToHighlight', 'attributesToSnippet', 'facets', 'restrictSearchableAttributes']) {
    if (typeof out[name] === 'string') out[name] = coerceParam(name, out[name] as string, maxDepth);
  }
  return out as SearchParams;
}

const MAX_ANALYTICS_TAGS = 100;
/** The Insights API's user token length, also used for analytics tags. */
const MAX_TOKEN_LENGTH = 129;

function assertInteger(params: SearchParams, name: string, min: number, max: number): void {
  const value = params[name];
  if (value === undefined || value === null) return;
  if (typeof value !== 'number' || !Number.isInteger(value)) throw createError('INVALID_PARAMETER', name, 'expected an integer');
  if (value < min || value > max) throw createError('INVALID_PARAMETER', name, `must be between ${min} and ${max}`);
}

/** Rejects what the limits forbid (before the engine spends time on it); everything else is the engine's call. */
export function validateSearchParams(params: SearchParams, limits: ServerLimits): SearchParams {
  if (params.query !== undefined && params.query !== null) {
    if (typeof params.query !== 'string') throw createError('INVALID_PARAMETER', 'query', 'expected a string');
    const bytes = Buffer.byteLength(params.query);
    if (bytes > limits.maxQueryBytes) throw createError('QUERY_TOO_LONG', bytes, limits.maxQueryBytes);
  }
  if (params.filters !== undefined && params.filters !== null && typeof params.filters !== 'string') {
    throw createError('INVALID_PARAMETER', 'filters', 'expected a string');
  }
  assertInteger(params, 'hitsPerPage', 0, limits.maxHitsPerPage);
  assertInteger(params, 'length', 0, limits.maxHitsPerPage);
  assertInteger(params, 'page', 0, Number.MAX_SAFE_INTEGER);
  assertInteger(params, 'offset', 0, Number.MAX_SAFE_INTEGER);
  assertInteger(params, 'maxValuesPerFacet', 0, limits.maxValuesPerFacet);
  assertInteger(params, 'maxFacetHits', 0, 100);
  // Both end up in the search log's rows (keys of the analytics rollups): bounded like the Insights API's.
  const tags = params.analyticsTags;
  if (tags !== undefined && tags !== null) {
    if (!Array.isArray(tags) || !tags.every((tag) => typeof tag === 'string')) throw createError('INVALID_PARAMETER', 'analyticsTags', 'expected an array of strings');
    if (tags.length > MAX_ANALYTICS_TAGS) throw createError('INVALID_PARAMETER', 'analyticsTags', `at most ${MAX_ANALYTICS_TAGS} tags`);
    if (tags.some((tag) => tag.length > MAX_TOKEN_LENGTH)) throw createError('INVALID_PARAMETER', 'analyticsTags', `tags are at most ${MAX_TOKEN_LENGTH} characters`);
  }
  if (params.userToken !== undefined && params.userToken !== null) {
    if (typeof params.userToken !== 'string' || params.userToken.length > MAX_TOKEN_LENGTH) {
      throw createError('INVALID_PARAMETER', 'userToken', `expected a string of at most ${MAX_TOKEN_LENGTH} characters`);
    }
  }
  for (const name of ['highlightPreTag', 'highlightPostTag', 'snippetEllipsisText', 'facetQuery']) {
    if (params[name] !== undefined && params[name] !== null && typeof params[name] !== 'string') {
      throw createError('INVALID_PARAMETER', name, 'expected a string');
    }
  }
  checkHighlightTags(params, limits);
  checkListLengths(params, limits);
  return params;
}

/** Parameters whose entries each cost work per hit or per word: lists, filters (counted to the second level). */
const COUNTED_LISTS = [...LIST_PARAMS, ...FILTER_LIST_PARAMS, 'ignorePlurals', 'removeStopWords'];

/**
 * A list's entries each cost work, some per hit (attributes to highlight, snippet or retrieve, matched against
 * each hit's attributes): past `maxListEntries`, refused. Checked on the request's parameters and again on what
 * a key forces (anyone can mint a secured key from the public one).
 */
export function checkListLengths(params: SearchParams, limits: ServerLimits): void {
  for (const name of COUNTED_LISTS) {
    const value = params[name];
    if (!Array.isArray(value)) continue;
    let entries = value.length;
    for (const item of value) if (Array.isArray(item)) entries += item.length - 1;
    if (entries > limits.maxListEntries) throw createError('LIST_TOO_LONG', name, entries, limits.maxListEntries);
  }
}

/**
 * The tags surround every matched word of every hit: a long one multiplies the response (a 200 KB tag made a
 * 1,000-hit answer gigabytes). Checked on the request's parameters and again on what a key forces.
 */
export function checkHighlightTags(params: SearchParams, limits: ServerLimits): void {
  for (const name of ['highlightPreTag', 'highlightPostTag', 'snippetEllipsisText']) {
    const value = params[name];
    if (typeof value !== 'string') continue;
    const bytes = Buffer.byteLength(value);
    if (bytes > limits.maxHighlightTagBytes) throw createError('PARAMETER_TOO_LONG', name, bytes, limits.maxHighlightTagBytes);
  }
}
