/**
 * Rule routes (merchandising): save one, save a batch (optionally replacing all), get, delete, search, clear.
 * Writes are tasks like every other write, validated whole before they are logged; `forwardToReplicas`
 * applies them to every replica too. ACLs as Algolia: `settings` to read, `editSettings` to write.
 */
import type { FastifyInstance } from 'fastify';
import { EngineError, searchRules, validateRule } from '@vitrine/engine';
import type { Anchoring, Rule, SearchRulesParams } from '@vitrine/protocol';
import type { RouteDeps } from './deps.ts';
import { submitWrite } from '../auth/index-scope.ts';
import { createError } from '../errors.ts';
import type { ServerLimits } from '../config.ts';
import { checkRuleParams, isPlainObject } from '../storage/validate.ts';
import { countOf } from './synonyms.ts';

type IndexParams = { indexName: string };
type RuleParams = { indexName: string; objectID: string };
type WriteQuery = { forwardToReplicas?: string; clearExistingRules?: string };

const ANCHORINGS = new Set<Anchoring>(['is', 'startsWith', 'endsWith', 'contains']);

/** A rule as the engine will hold it, or a 400 naming its position and what is wrong. */
export function parseRule(raw: unknown, position: number, limits: ServerLimits, objectID?: string): Rule {
  if (!isPlainObject(raw)) throw createError('INVALID_RULE', position, 'a rule must be an object');
  const rule = (objectID === undefined ? raw : { ...raw, objectID }) as unknown as Rule;
  if (typeof rule.objectID !== 'string' || rule.objectID === '') throw createError('MISSING_PARAMETER', `objectID of the rule at the position ${position}`);
  try {
    validateRule(rule);
  } catch (error) {
    if (error instanceof EngineError) throw createError('INVALID_RULE', position, error.message);
    throw error;
  }
  checkRuleParams(rule, position, limits);
  return rule;
}

function truthy(value: string | undefined): boolean {
  return value === 'true' || value === '1';
}

function searchParams(body: Record<string, unknown>): SearchRulesParams {
  const params: SearchRulesParams = {};
  if (body.query !== undefined) {
    if (typeof body.query !== 'string') throw createError('INVALID_PARAMETER', 'query', 'expected a string');
    params.query = body.query;
  }
  if (body.anchoring !== undefined) {
    if (!ANCHORINGS.has(body.anchoring as Anchoring)) throw createError('INVALID_PARAMETER', 'anchoring', 'expected is, startsWith, endsWith or contains');
    params.anchoring = body.anchoring as Anchoring;
  }
  if (body.context !== undefined) {
    if (typeof body.context !== 'string') throw createError('INVALID_PARAMETER', 'context', 'expected a string');
    params.context = body.context;
  }
  if (body.enabled !== undefined && body.enabled !== null) {
    if (typeof body.enabled !== 'boolean') throw createError('INVALID_PARAMETER', 'enabled', 'expected a boolean or null');
    params.enabled = body.enabled;
  }
  const page = body.page === undefined ? 0 : countOf(body.page);
  const hitsPerPage = body.hitsPerPage === undefined ? 20 : countOf(body.hitsPerPage);
  if (!Number.isInteger(page) || page < 0) throw createError('INVALID_PARAMETER', 'page', 'expected a non-negative integer');
  if (!Number.isInteger(hitsPerPage) || hitsPerPage < 1 || hitsPerPage > 1000) throw createError('INVALID_PARAMETER', 'hitsPerPage', 'must be between 1 and 1000');
  return { ...params, page, hitsPerPage };
}

export function ruleRoutes(app: FastifyInstance, { store, limits }: RouteDeps): void {
  const registry = store.registry;
  const now = () => new Date().toISOString();
  const read = { acl: 'settings' } as const;
  const write = { acl: 'editSettings', largeBody: true } as const;

  app.put<{ Params: RuleParams; Querystring: WriteQuery }>('/1/indexes/:indexName/rules/:objectID', { config: write }, async (request) => {
    const rule = parseRule(request.body, 0, limits, request.params.objectID);
    const updatedAt = now();
    const taskID = await submitWrite(store, request.auth!, {
      kind: 'rules', at: updatedAt, indexName: request.params.indexName, action: 'save', rules: [rule],
      forwardToReplicas: truthy(request.query.forwardToReplicas),
    });
    // The spec's answer (UpdatedAt): taskID and updatedAt only.
    return { taskID, updatedAt };
  });

  app.post<{ Params: IndexParams; Querystring: WriteQuery }>('/1/indexes/:indexName/rules/batch', { config: write }, async (request) => {
    if (!Array.isArray(request.body)) throw createError('INVALID_BODY', 'expected an array of rules');
    const rules = request.body.map((raw, i) => parseRule(raw, i, limits));
    const updatedAt = now();
    const taskID = await submitWrite(store, request.auth!, {
      kind: 'rules', at: updatedAt, indexName: request.params.indexName, action: 'save', rules,
      clearExisting: truthy(request.query.clearExistingRules),
      forwardToReplicas: truthy(request.query.forwardToReplicas),
    });
    return { taskID, updatedAt };
  });

  app.post<{ Params: IndexParams; Querystring: WriteQuery }>('/1/indexes/:indexName/rules/clear', { config: write }, async (request) => {
    const updatedAt = now();
    const taskID = await submitWrite(store, request.auth!, {
      kind: 'rules', at: updatedAt, indexName: request.params.indexName, action: 'clear',
      forwardToReplicas: truthy(request.query.forwardToReplicas),
    });
    return { taskID, updatedAt };
  });

  app.get<{ Params: RuleParams }>('/1/indexes/:indexName/rules/:objectID', { config: read }, async (request) => {
    const rule = registry.get(request.params.indexName)?.rules.get(request.params.objectID);
    if (!rule) throw createError('RULE_NOT_FOUND');
    return rule;
  });

  app.delete<{ Params: RuleParams; Querystring: WriteQuery }>('/1/indexes/:indexName/rules/:objectID', { config: { acl: 'editSettings' } }, async (request) => {
    const entry = registry.get(request.params.indexName);
    if (!entry?.rules.has(request.params.objectID)) throw createError('RULE_NOT_FOUND');
    const updatedAt = now();
    const taskID = await submitWrite(store, request.auth!, {
      kind: 'rules', at: updatedAt, indexName: request.params.indexName, action: 'delete', objectID: request.params.objectID,
      forwardToReplicas: truthy(request.query.forwardToReplicas),
    });
    // `updatedAt`, not `deletedAt`: deleteRule answers UpdatedAt in the spec (deleteSynonym answers DeletedAt).
    return { taskID, updatedAt };
  });

  app.post<{ Params: IndexParams }>('/1/indexes/:indexName/rules/search', { config: read }, async (request) => {
    const params = searchParams(isPlainObject(request.body) ? request.body : {});
    const entry = registry.get(request.params.indexName);
    // The registry's map, not the engine's: a replica owns no engine but has rules of its own.
    return searchRules(entry?.rules.values() ?? [], params);
  });
}
