/**
 * Recommend rules applied to one recommendation request: which rules hold (enabled, within a validity period, the
 * request's `ruleContexts` holding their context, the source item matching their condition's filters) and what
 * they do together (`RulePlan`): items hidden, items pinned at positions, a filter every recommended item must
 * pass (the rules' `filters` and `automaticFacetFilters`, ANDed), optional filters that boost or bury.
 *
 * Conditions read the source item as the caller's key may read it: one outside its forced filter is as missing,
 * and a rule whose condition needs a source item then does not hold. A rule with no condition holds for every
 * request of its model.
 */
import { andFilterNodes, filterToString, optionalFiltersToNodes, parseFilterString, recordMatches } from '@vitrine/engine';
import type { FilterNode, OptionalFilter } from '@vitrine/engine';
import type { IndexRecord, RecommendRule, SearchParams } from '@vitrine/protocol';
import { attributeValue } from './deps.ts';

export interface RulePlan {
  /** objectIDs never recommended. */
  hide: Set<string>;
  /** Pins, by rule order (a later pin of the same item is dropped). */
  promote: Array<{ objectID: string; position: number }>;
  /** What every recommended item must match (pinned ones excepted), or null. */
  filter: FilterNode | null;
  /** Boost (`attr:value<score=N>`) and bury (`attr:-value`) terms: an item's boost is the sum of those it matches. */
  optional: OptionalFilter[];
}

export interface RuleRequest {
  /** The source item as the caller may read it; null when the request names none or the key may not see it. */
  source: IndexRecord | null;
  contexts: ReadonlySet<string>;
  nowSeconds: number;
}

/** Parsed trees by rule object: the host hands back the same objects while the rules are unchanged. */
const parsed = new WeakMap<RecommendRule, { condition?: FilterNode; filter?: FilterNode; optional: OptionalFilter[] }>();

function treesOf(rule: RecommendRule): { condition?: FilterNode; filter?: FilterNode; optional: OptionalFilter[] } {
  let trees = parsed.get(rule);
  if (!trees) {
    // The host checked every expression when the rule was saved.
    const condition = rule.condition?.filters;
    const filter = rule.consequence?.params?.filters;
    trees = {
      condition: condition !== undefined && condition.trim() !== '' ? parseFilterString(condition) : undefined,
      filter: filter !== undefined && filter.trim() !== '' ? parseFilterString(filter) : undefined,
      optional: optionalFiltersToNodes(rule.consequence?.params?.optionalFilters ?? []),
    };
    parsed.set(rule, trees);
  }
  return trees;
}

/** The request's `ruleContexts` (a list, or one string). */
export function contextsOf(params: SearchParams): Set<string> {
  const value: unknown = params.ruleContexts;
  if (typeof value === 'string') return new Set([value]);
  return new Set(Array.isArray(value) ? value.filter((c): c is string => typeof c === 'string') : []);
}

/** Whether any rule reads the source item (a condition's filters, automatic facet filters). */
export function rulesReadSource(rules: readonly RecommendRule[]): boolean {
  return rules.some((rule) => rule.condition?.filters !== undefined || (rule.consequence?.params?.automaticFacetFilters?.length ?? 0) > 0);
}

function active(rule: RecommendRule, nowSeconds: number): boolean {
  if (rule.enabled === false) return false;
  if (!Array.isArray(rule.validity) || rule.validity.length === 0) return true;
  return rule.validity.some((range) => (range.from === undefined || range.from <= nowSeconds) && (range.until === undefined || nowSeconds <= range.until));
}

function holds(rule: RecommendRule, request: RuleRequest): boolean {
  const context = rule.condition?.context;
  if (context !== undefined && !request.contexts.has(context)) return false;
  const condition = treesOf(rule).condition;
  return condition === undefined || (request.source !== null && recordMatches(request.source, condition));
}

/**
 * `facet` sharing a value with the source item (any of its values), or with `negative` sharing none. A source
 * without a value for the facet adds no filter.
 */
function automaticFilter(source: IndexRecord | null, facet: string, negative: boolean): FilterNode | null {
  if (source === null) return null;
  const raw = attributeValue(source, facet);
  const values = (Array.isArray(raw) ? raw : [raw]).filter((v) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean');
  if (values.length === 0) return null;
  const same: FilterNode = { kind: 'or', children: values.map((value) => ({ kind: 'facet', attribute: facet, value: String(value) })) };
  return negative ? { kind: 'not', child: same } : same;
}

/** What the rules holding for this request do, merged; null when none holds. */
export function planRules(rules: readonly RecommendRule[], request: RuleRequest): RulePlan | null {
  const plan: RulePlan = { hide: new Set(), promote: [], filter: null, optional: [] };
  let any = false;
  for (const rule of rules) {
    if (!active(rule, request.nowSeconds) || !holds(rule, request)) continue;
    any = true;
    const consequence = rule.consequence ?? {};
    for (const { objectID } of consequence.hide ?? []) plan.hide.add(objectID);
    for (const pin of consequence.promote ?? []) if (!plan.promote.some((p) => p.objectID === pin.objectID)) plan.promote.push(pin);
    const trees = treesOf(rule);
    const automatic = (consequence.params?.automaticFacetFilters ?? []).map((entry) => automaticFilter(request.source, entry.facet, entry.negative === true));
    plan.filter = andFilterNodes(plan.filter, trees.filter, ...automatic);
    plan.optional.push(...trees.optional);
  }
  return any ? plan : null;
}

/** `params` with `filter` ANDed to its own `filters` (as trees: no text of the request can undo the rules'). */
export function withFilter(params: SearchParams, filter: FilterNode | null): SearchParams {
  if (filter === null) return params;
  const own = typeof params.filters === 'string' && params.filters.trim() !== '' ? parseFilterString(params.filters) : null;
  return { ...params, filters: filterToString(andFilterNodes(own, filter)!) };
}

/** Parameters that filter or rank items (and the query), which a pinned item is not held to. */
const FILTERING = ['query', 'similarQuery', 'filters', 'facetFilters', 'numericFilters', 'tagFilters', 'optionalFilters', 'sumOrFiltersScores', 'aroundLatLng', 'aroundLatLngViaIP', 'aroundRadius', 'aroundPrecision', 'minimumAroundRadius', 'insideBoundingBox', 'insidePolygon'];

/** `params` without what filters: what shows an item (attributes to retrieve, highlighting) stays. */
export function withoutFilters(params: SearchParams): SearchParams {
  const out: SearchParams = { ...params };
  for (const name of FILTERING) delete out[name];
  return out;
}

/** An item's boost: the sum of the optional filters' scores it matches (0 without the record). */
export function boostOf(record: IndexRecord | null, optional: readonly OptionalFilter[]): number {
  if (record === null) return 0;
  let sum = 0;
  for (const term of optional) if (recordMatches(record, term.node)) sum += term.score;
  return sum;
}

/**
 * Pins placed into `list` (which holds none of them), lowest position first: an item pinned past the end goes
 * last. The result is cut at `max`.
 */
export function placePins<T extends { objectID: string }>(list: T[], pins: ReadonlyArray<{ hit: T; position: number }>, max: number): T[] {
  const out = [...list];
  for (const { hit, position } of [...pins].sort((a, b) => a.position - b.position)) out.splice(Math.min(position, out.length), 0, hit);
  return out.slice(0, max);
}
