/**
 * Recommend rules (`/1/indexes/{indexName}/{model}/recommend/rules/...`) and the task status the recommend client
 * polls (`getRecommendStatus`). Writes are tasks like every other write, validated whole before they are logged
 * (a batch is applied whole or not at all); rules are kept by index name and model (`storage/recommend-rules.ts`)
 * and applied by `@vitrine/insights` to `/1/indexes/*\/recommendations`. ACLs as Algolia's spec: `settings` to
 * read, `editSettings` to write and to ask a task's status.
 */
import type { FastifyInstance } from 'fastify';
import { recordMatches } from '@vitrine/engine';
import type { RecommendRule, SearchRecommendRulesResponse } from '@vitrine/protocol';
import { submitWrite } from '../auth/index-scope.ts';
import { createError } from '../errors.ts';
import { MAX_RECOMMEND_RULES } from '../storage/recommend-rules.ts';
import type { RouteDeps } from './deps.ts';
import { parseRecommendRule, parseRuleSearch, ruleModel } from './recommend-rule-input.ts';
import { parseTaskID } from './tasks.ts';

type ModelParams = { indexName: string; model: string };
type RuleParams = ModelParams & { objectID: string };

/** Rules matching a search: every word of `query` in the objectID, description, context or condition filters. */
export function searchRecommendRules(rules: readonly RecommendRule[], body: unknown): SearchRecommendRulesResponse {
  const params = parseRuleSearch(body);
  const words = (params.query ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  const found = rules
    .filter((rule) => {
      if (params.context !== undefined && rule.condition?.context !== params.context) return false;
      if (params.enabled !== undefined && (rule.enabled !== false) !== params.enabled) return false;
      if (params.filterTree && !recordMatches(rule as unknown as Record<string, unknown>, params.filterTree)) return false;
      const text = [rule.objectID, rule.description ?? '', rule.condition?.context ?? '', rule.condition?.filters ?? ''].join(' ').toLowerCase();
      return words.every((word) => text.includes(word));
    })
    .sort((a, b) => (a.objectID < b.objectID ? -1 : a.objectID > b.objectID ? 1 : 0));
  const { page, hitsPerPage } = params;
  return { hits: found.slice(page * hitsPerPage, (page + 1) * hitsPerPage), nbHits: found.length, page, nbPages: Math.ceil(found.length / hitsPerPage) };
}

function truthy(value: string | undefined): boolean {
  return value === 'true' || value === '1';
}

export function recommendRuleRoutes(app: FastifyInstance, { store, limits }: RouteDeps): void {
  const rules = store.registry.recommendRules;
  const read = { acl: 'settings' } as const;
  const write = { acl: 'editSettings', largeBody: true } as const;

  app.post<{ Params: ModelParams; Querystring: { clearExistingRules?: string } }>('/1/indexes/:indexName/:model/recommend/rules/batch', { config: write }, async (request) => {
    const { indexName } = request.params;
    const model = ruleModel(request.params.model);
    if (!Array.isArray(request.body)) throw createError('INVALID_BODY', 'expected an array of Recommend rules');
    const parsed = request.body.map((raw, i) => parseRecommendRule(raw, i, limits));
    const clearExisting = truthy(request.query.clearExistingRules);
    // Counted against what is applied now: a batch that would take the model past the limit is refused whole.
    const added = new Set(parsed.map((rule) => rule.objectID).filter((id) => clearExisting || !rules.has(indexName, model, id)));
    const total = (clearExisting ? 0 : rules.count(indexName, model)) + added.size;
    if (total > MAX_RECOMMEND_RULES) throw createError('INVALID_BODY', `${indexName} would hold ${total} ${model} rules, the limit is ${MAX_RECOMMEND_RULES}`);
    const updatedAt = new Date().toISOString();
    const taskID = await submitWrite(store, request.auth!, { kind: 'recommendRules', at: updatedAt, indexName, model, action: 'save', rules: parsed, clearExisting });
    return { taskID, updatedAt };
  });

  app.get<{ Params: RuleParams }>('/1/indexes/:indexName/:model/recommend/rules/:objectID', { config: read }, async (request) => {
    const rule = rules.get(request.params.indexName, ruleModel(request.params.model), request.params.objectID);
    if (!rule) throw createError('RULE_NOT_FOUND');
    return rule;
  });

  app.delete<{ Params: RuleParams }>('/1/indexes/:indexName/:model/recommend/rules/:objectID', { config: { acl: 'editSettings' } }, async (request) => {
    const { indexName, objectID } = request.params;
    const model = ruleModel(request.params.model);
    if (!rules.has(indexName, model, objectID)) throw createError('RULE_NOT_FOUND');
    const deletedAt = new Date().toISOString();
    const taskID = await submitWrite(store, request.auth!, { kind: 'recommendRules', at: deletedAt, indexName, model, action: 'delete', objectID });
    return { taskID, deletedAt };
  });

  app.post<{ Params: ModelParams }>('/1/indexes/:indexName/:model/recommend/rules/search', { config: read }, async (request) =>
    searchRecommendRules(rules.list(request.params.indexName, ruleModel(request.params.model)), request.body),
  );

  app.get<{ Params: ModelParams & { taskID: string } }>('/1/indexes/:indexName/:model/task/:taskID', { config: { acl: 'editSettings' } }, async (request) => {
    ruleModel(request.params.model);
    const status = store.taskStatus(parseTaskID(request.params.taskID));
    if (!status) throw createError('TASK_NOT_FOUND');
    return { status };
  });
}
