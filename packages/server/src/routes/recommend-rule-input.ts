/**
 * Recommend rules as callers send them, checked whole before anything is logged: the shape of Algolia's
 * `RecommendRule` (no attribute it does not define: a search rule's `conditions` sent here would otherwise be
 * dropped and the rule apply to every recommendation), filter expressions the engine parses, and the limits of
 * search rules for pins and hides. Every refusal is a 400 naming the rule's position and what is wrong.
 */
import { EngineError, optionalFiltersToNodes, parseFilterString } from '@vitrine/engine';
import type { FilterNode } from '@vitrine/engine';
import type { RecommendRule, RecommendRuleModel, SearchRecommendRulesParams } from '@vitrine/protocol';
import type { ServerLimits } from '../config.ts';
import { createError } from '../errors.ts';
import { isRecommendRuleModel, RECOMMEND_RULE_MODELS } from '../storage/recommend-rules.ts';
import { isPlainObject } from '../storage/validate.ts';
import { countOf } from './synonyms.ts';

/** As search rules (the engine's RULE_LIMITS): pinned and hidden items per rule. */
const MAX_PROMOTE = 300;
const MAX_HIDE = 50;
const CONTEXT = /^[A-Za-z0-9_-]+$/;
const RULE_KEYS = new Set(['_metadata', 'objectID', 'condition', 'consequence', 'description', 'enabled', 'validity']);
const CONDITION_KEYS = new Set(['filters', 'context']);
const CONSEQUENCE_KEYS = new Set(['hide', 'promote', 'params']);
const PARAMS_KEYS = new Set(['automaticFacetFilters', 'filters', 'optionalFilters']);

/** The `{model}` of a path: 400 for a model rules do not exist for. */
export function ruleModel(raw: string): RecommendRuleModel {
  if (!isRecommendRuleModel(raw)) throw createError('INVALID_PARAMETER', 'model', `expected ${RECOMMEND_RULE_MODELS.join(', ')} (rules do not apply to other models)`);
  return raw;
}

/** A filter expression parsed by the engine, or the engine's message as `fail`'s. */
function filterTree(text: unknown, what: string, fail: (message: string) => never): FilterNode {
  if (typeof text !== 'string') fail(`${what} must be a string`);
  try {
    return parseFilterString(text);
  } catch (error) {
    if (error instanceof EngineError) fail(`${what}: ${error.message}`);
    throw error;
  }
}

function onlyKeys(value: Record<string, unknown>, allowed: Set<string>, where: string, fail: (message: string) => never): void {
  for (const key of Object.keys(value)) {
    if (allowed.has(key)) continue;
    const hint = key === 'conditions' ? ' (a Recommend rule has one "condition": {filters, context})' : '';
    fail(`unknown attribute "${key}" in ${where}; expected ${[...allowed].join(', ')}${hint}`);
  }
}

function checkCondition(condition: unknown, fail: (message: string) => never): void {
  if (!isPlainObject(condition)) fail('"condition" must be an object');
  onlyKeys(condition, CONDITION_KEYS, 'the condition', fail);
  if (condition.filters !== undefined) filterTree(condition.filters, 'condition "filters"', fail);
  if (condition.context !== undefined && (typeof condition.context !== 'string' || !CONTEXT.test(condition.context))) {
    fail('condition "context" must be letters, digits, "_" or "-"');
  }
}

function objectIDList(list: unknown, name: string, max: number, fail: (message: string) => never, withPosition: boolean): void {
  if (!Array.isArray(list) || list.length > max) fail(`"${name}" must be an array of at most ${max} entries`);
  for (const entry of list) {
    const keys = withPosition ? ['objectID', 'position'] : ['objectID'];
    if (!isPlainObject(entry) || typeof entry.objectID !== 'string' || entry.objectID === '' || Object.keys(entry).some((key) => !keys.includes(key))) {
      fail(`each "${name}" entry is {${keys.join(', ')}} with a non-empty string objectID`);
    }
    if (withPosition && (typeof entry.position !== 'number' || !Number.isInteger(entry.position) || entry.position < 0)) fail(`each "${name}" entry needs a "position", an integer ≥ 0`);
  }
}

function checkParams(params: unknown, limits: ServerLimits, fail: (message: string) => never): void {
  if (!isPlainObject(params)) fail('consequence "params" must be an object');
  onlyKeys(params, PARAMS_KEYS, 'the consequence\'s params (Recommend rules filter only)', fail);
  if (params.filters !== undefined) filterTree(params.filters, 'consequence "filters"', fail);
  const automatic = params.automaticFacetFilters;
  if (automatic !== undefined) {
    if (!Array.isArray(automatic) || automatic.length > limits.maxListEntries) fail(`"automaticFacetFilters" must be an array of at most ${limits.maxListEntries} entries`);
    for (const entry of automatic) {
      const ok = isPlainObject(entry) && typeof entry.facet === 'string' && entry.facet !== '' && (entry.negative === undefined || typeof entry.negative === 'boolean') && Object.keys(entry).every((key) => key === 'facet' || key === 'negative');
      if (!ok) fail('"automaticFacetFilters" entries are {facet, negative}: a non-empty facet name and an optional boolean');
    }
  }
  const optional = params.optionalFilters;
  if (optional !== undefined) {
    if (!Array.isArray(optional) || optional.length > limits.maxListEntries || !optional.every((entry) => typeof entry === 'string')) {
      fail(`"optionalFilters" must be an array of at most ${limits.maxListEntries} strings`);
    }
    try {
      optionalFiltersToNodes(optional as string[]);
    } catch (error) {
      if (error instanceof EngineError) fail(`"optionalFilters": ${error.message}`);
      throw error;
    }
  }
}

/** A rule as it will be stored (without `_metadata`, which the server sets), or a 400. */
export function parseRecommendRule(raw: unknown, position: number, limits: ServerLimits): RecommendRule {
  // Annotated, so that the compiler narrows after each failed check.
  const fail: (message: string) => never = (message) => {
    throw createError('INVALID_RULE', position, message);
  };
  if (!isPlainObject(raw)) fail('a rule must be an object');
  const rule: Record<string, unknown> = raw;
  if (typeof rule.objectID !== 'string' || rule.objectID === '') throw createError('MISSING_PARAMETER', `objectID of the rule at the position ${position}`);
  onlyKeys(rule, RULE_KEYS, 'the rule', fail);
  if (rule.condition !== undefined) checkCondition(rule.condition, fail);
  const consequence = rule.consequence;
  if (consequence !== undefined) {
    if (!isPlainObject(consequence)) fail('"consequence" must be an object');
    onlyKeys(consequence, CONSEQUENCE_KEYS, 'the consequence', fail);
    if (consequence.hide !== undefined) objectIDList(consequence.hide, 'hide', MAX_HIDE, fail, false);
    if (consequence.promote !== undefined) objectIDList(consequence.promote, 'promote', MAX_PROMOTE, fail, true);
    if (consequence.params !== undefined) checkParams(consequence.params, limits, fail);
  }
  if (rule.description !== undefined && typeof rule.description !== 'string') fail('"description" must be a string');
  if (rule.enabled !== undefined && typeof rule.enabled !== 'boolean') fail('"enabled" must be a boolean');
  if (rule.validity !== undefined) {
    const ranges = rule.validity;
    const bound = (value: unknown) => value === undefined || (typeof value === 'number' && Number.isFinite(value));
    if (!Array.isArray(ranges) || !ranges.every((range) => isPlainObject(range) && bound(range.from) && bound(range.until) && Object.keys(range).every((key) => key === 'from' || key === 'until'))) {
      fail('"validity" must be an array of {from, until}, in seconds since the epoch');
    }
  }
  if (rule._metadata !== undefined && !isPlainObject(rule._metadata)) fail('"_metadata" must be an object');
  // What the server sets itself is not kept from the caller.
  const { _metadata: _ignored, ...stored } = rule;
  return stored as unknown as RecommendRule;
}

/** `searchRecommendRules`' body, checked; `filters` parsed. */
export function parseRuleSearch(body: unknown): SearchRecommendRulesParams & { page: number; hitsPerPage: number; filterTree?: FilterNode } {
  const params = isPlainObject(body) ? body : {};
  const fail: (name: string, expected: string) => never = (name, expected) => {
    throw createError('INVALID_PARAMETER', name, expected);
  };
  for (const name of ['query', 'context'] as const) if (params[name] !== undefined && typeof params[name] !== 'string') fail(name, 'expected a string');
  if (params.enabled !== undefined && params.enabled !== null && typeof params.enabled !== 'boolean') fail('enabled', 'expected a boolean or null');
  if (params.facets !== undefined && (!Array.isArray(params.facets) || !params.facets.every((f) => typeof f === 'string'))) fail('facets', 'expected an array of strings');
  const page = params.page === undefined ? 0 : countOf(params.page);
  const hitsPerPage = params.hitsPerPage === undefined ? 20 : countOf(params.hitsPerPage);
  if (!Number.isInteger(page) || page < 0) fail('page', 'expected a non-negative integer');
  if (!Number.isInteger(hitsPerPage) || hitsPerPage < 1 || hitsPerPage > 1000) fail('hitsPerPage', 'must be between 1 and 1000');
  const filters = params.filters;
  const tree = filters === undefined || (typeof filters === 'string' && filters.trim() === '')
    ? undefined
    : filterTree(filters, 'not a filter expression', (message) => fail('filters', message));
  return {
    query: params.query as string | undefined,
    context: params.context as string | undefined,
    enabled: typeof params.enabled === 'boolean' ? params.enabled : undefined,
    page,
    hitsPerPage,
    ...(tree ? { filterTree: tree } : {}),
  };
}
