/**
 * A rule's shape checked before it is stored (the server checks the same before it acknowledges a write): a
 * bad rule is refused whole, with a message naming what is wrong, rather than ignored at search time.
 */
import type { Rule } from '@vitrine/protocol';
import { createEngineError } from '../errors.ts';
import { parseFilterString } from '../filter/parser.ts';
import type { FilterNode } from '../filter/types.ts';
import { conditionsOf } from './match.ts';

const ANCHORINGS = new Set(['is', 'startsWith', 'endsWith', 'contains']);
const CONTEXT = /^[A-Za-z0-9_-]+$/;
/** Algolia's limits: conditions per rule, promoted entries, records per promoted group, hidden records. */
export const RULE_LIMITS = { conditions: 25, promote: 300, promoteGroup: 100, hide: 50 } as const;

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function fail(id: string, message: string): never {
  throw createEngineError('INVALID_RULE', id, message);
}

/** Condition filters: `attr:value` joined by AND only (no OR, no negation, no numeric comparison). */
function onlyFacetAnd(node: FilterNode): boolean {
  if (node.kind === 'and') return node.children.every(onlyFacetAnd);
  return node.kind === 'facet' || node.kind === 'tag';
}

function validateConditions(rule: Rule, id: string): void {
  if (rule.conditions !== undefined && !Array.isArray(rule.conditions)) fail(id, '"conditions" must be an array');
  if ((rule.conditions?.length ?? 0) > RULE_LIMITS.conditions) fail(id, `at most ${RULE_LIMITS.conditions} conditions`);
  for (const condition of conditionsOf(rule)) {
    if (!isObject(condition)) fail(id, 'each condition must be an object');
    const { pattern, anchoring, context, filters, alternatives } = condition;
    if (pattern !== undefined && typeof pattern !== 'string') fail(id, 'condition "pattern" must be a string');
    if (anchoring !== undefined && !ANCHORINGS.has(anchoring as string)) fail(id, 'condition "anchoring" must be one of is, startsWith, endsWith, contains');
    if (pattern !== undefined && anchoring === undefined) fail(id, 'a condition with a "pattern" needs an "anchoring"');
    if (pattern === '' && anchoring !== 'is') fail(id, 'an empty pattern is only allowed with anchoring "is"');
    if (alternatives !== undefined && typeof alternatives !== 'boolean') fail(id, 'condition "alternatives" must be a boolean');
    if (context !== undefined && (typeof context !== 'string' || !CONTEXT.test(context))) fail(id, 'condition "context" must be letters, digits, "_" or "-"');
    if (filters !== undefined) {
      if (typeof filters !== 'string') fail(id, 'condition "filters" must be a string');
      let node: FilterNode;
      try {
        node = parseFilterString(filters);
      } catch (error) {
        fail(id, `condition "filters": ${(error as Error).message}`);
      }
      if (!onlyFacetAnd(node)) fail(id, 'condition "filters" may only AND facet filters (attr:value)');
    }
  }
}

function validatePromotes(consequence: Record<string, unknown>, id: string): void {
  const promote = consequence.promote;
  if (promote === undefined) return;
  if (!Array.isArray(promote) || promote.length > RULE_LIMITS.promote) fail(id, `"promote" must be an array of at most ${RULE_LIMITS.promote} entries`);
  for (const entry of promote) {
    if (!isObject(entry) || typeof entry.position !== 'number' || !Number.isInteger(entry.position) || entry.position < 0) fail(id, 'each promote needs a "position", an integer ≥ 0');
    const single = typeof entry.objectID === 'string' && entry.objectID !== '';
    const group = Array.isArray(entry.objectIDs) && entry.objectIDs.length > 0 && entry.objectIDs.length <= RULE_LIMITS.promoteGroup && entry.objectIDs.every((o) => typeof o === 'string' && o !== '');
    if (single === group) fail(id, `each promote needs an "objectID", or "objectIDs" (1 to ${RULE_LIMITS.promoteGroup} strings)`);
  }
}

function validateParams(params: unknown, id: string): void {
  if (params === undefined) return;
  if (!isObject(params)) fail(id, 'consequence "params" must be an object');
  const query = params.query;
  if (query !== undefined && typeof query !== 'string') {
    if (!isObject(query)) fail(id, 'consequence query must be a string or an object of edits');
    if (query.remove !== undefined && (!Array.isArray(query.remove) || !query.remove.every((w) => typeof w === 'string'))) fail(id, 'query "remove" must be an array of strings');
    if (query.edits !== undefined) {
      if (!Array.isArray(query.edits)) fail(id, 'query "edits" must be an array');
      for (const edit of query.edits) {
        if (!isObject(edit) || (edit.type !== 'remove' && edit.type !== 'replace') || typeof edit.delete !== 'string') fail(id, 'each edit needs a "type" (remove or replace) and a "delete" string');
        if (edit.type === 'replace' && typeof edit.insert !== 'string') fail(id, 'a replace edit needs an "insert" string');
      }
    }
  }
  for (const name of ['automaticFacetFilters', 'automaticOptionalFacetFilters']) {
    const list = params[name];
    if (list === undefined) continue;
    if (!Array.isArray(list)) fail(id, `"${name}" must be an array`);
    for (const entry of list) {
      const ok = typeof entry === 'string' || (isObject(entry) && typeof entry.facet === 'string' && (entry.score === undefined || typeof entry.score === 'number') && (entry.disjunctive === undefined || typeof entry.disjunctive === 'boolean'));
      if (!ok) fail(id, `"${name}" entries are facet names or {facet, score, disjunctive}`);
    }
  }
}

/** Throws an `EngineError` (INVALID_RULE) when `rule` is not a rule Algolia would accept. */
export function validateRule(rule: Rule): void {
  if (!isObject(rule)) throw createEngineError('INVALID_RULE', '', 'a rule must be an object');
  const id = typeof rule.objectID === 'string' ? rule.objectID : '';
  if (id === '') fail(id, 'a rule needs a non-empty string "objectID"');
  validateConditions(rule, id);
  const consequence = rule.consequence as unknown;
  if (!isObject(consequence)) fail(id, 'a rule needs a "consequence" object');
  validateParams(consequence.params, id);
  validatePromotes(consequence, id);
  if (consequence.filterPromotes !== undefined && typeof consequence.filterPromotes !== 'boolean') fail(id, '"filterPromotes" must be a boolean');
  const hide = consequence.hide;
  if (hide !== undefined && (!Array.isArray(hide) || hide.length > RULE_LIMITS.hide || !hide.every((h) => isObject(h) && typeof h.objectID === 'string' && h.objectID !== ''))) {
    fail(id, `"hide" must be an array of at most ${RULE_LIMITS.hide} {objectID}`);
  }
  if (rule.enabled !== undefined && typeof rule.enabled !== 'boolean') fail(id, '"enabled" must be a boolean');
  if (rule.validity !== undefined) {
    if (!Array.isArray(rule.validity)) fail(id, '"validity" must be an array of {from, until}');
    for (const range of rule.validity) {
      if (!isObject(range) || (range.from !== undefined && typeof range.from !== 'number') || (range.until !== undefined && typeof range.until !== 'number')) {
        fail(id, '"validity" ranges are {from, until} in seconds since the epoch');
      }
    }
  }
  if (rule.description !== undefined && typeof rule.description !== 'string') fail(id, '"description" must be a string');
  if (rule.tags !== undefined && (!Array.isArray(rule.tags) || !rule.tags.every((t) => typeof t === 'string'))) fail(id, '"tags" must be an array of strings');
}
