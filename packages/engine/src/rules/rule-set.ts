/**
 * An index's rules: stored by objectID, searched (`searchRules`), and turned into a plan for each search
 * (`plan`). A search with no rules, or with `enableRules: false`, costs one check.
 */
import type { Rule, SearchParams, SearchRulesParams, SearchRulesResponse } from '@vitrine/protocol';
import { createEngineError } from '../errors.ts';
import { terms } from '../tokenize/index.ts';
import { conditionsOf, matchCondition, requestFilterFacts, ruleActive, type ConditionMatch, type FacetValues, type RuleRequest } from './match.ts';
import { bestCondition, selectRules, type RuleMatch } from './precedence.ts';
import { planConsequences, type RulePlan } from './consequences.ts';
import { validateRule } from './validate.ts';
import { candidatesFor, indexRules, type RuleCandidates } from './candidates.ts';

/** What planning needs from the index besides the rules. */
export interface RuleEnvironment {
  separators: string;
  synonyms: RuleRequest['synonyms'];
  facetValues(attribute: string): FacetValues | undefined;
}

function contextsOf(value: unknown): Set<string> {
  if (typeof value === 'string') return new Set([value]);
  return new Set(Array.isArray(value) ? value.filter((c): c is string => typeof c === 'string') : []);
}

export class RuleSet {
  private readonly byId = new Map<string, Rule>();
  /** Rules by the query word they need, built at the first search after a change. */
  private candidates: RuleCandidates | null = null;

  get size(): number {
    return this.byId.size;
  }

  /** Replaces every rule (validated first: a bad rule anywhere leaves the set as it was). */
  replaceAll(rules: Rule[]): void {
    if (!Array.isArray(rules)) throw createEngineError('INVALID_PARAMETER', 'rules', 'expected an array');
    rules.forEach(validateRule);
    this.byId.clear();
    for (const rule of structuredClone(rules)) this.byId.set(rule.objectID, rule);
    this.candidates = null;
  }

  /** Adds or replaces rules by objectID. */
  save(rules: Rule[]): void {
    rules.forEach(validateRule);
    for (const rule of structuredClone(rules)) this.byId.set(rule.objectID, rule);
    this.candidates = null;
  }

  delete(objectID: string): boolean {
    this.candidates = null;
    return this.byId.delete(objectID);
  }

  clear(): void {
    this.byId.clear();
    this.candidates = null;
  }

  get(objectID: string): Rule | undefined {
    const rule = this.byId.get(objectID);
    return rule === undefined ? undefined : structuredClone(rule);
  }

  all(): Rule[] {
    return structuredClone([...this.byId.values()]);
  }

  search(params: SearchRulesParams = {}): SearchRulesResponse {
    return searchRules(this.byId.values(), params);
  }

  /**
   * The rules that apply to a search and their merged consequences; null when none applies (or the search
   * turned rules off). `nowSeconds` decides validity ranges: the engine has no clock of its own.
   */
  plan(params: SearchParams, env: RuleEnvironment, nowSeconds: number | undefined): RulePlan | null {
    if (this.byId.size === 0 || params.enableRules === false) return null;
    const request: RuleRequest = {
      words: terms(typeof params.query === 'string' ? params.query : '', env.separators),
      contexts: contextsOf(params.ruleContexts),
      filterFacts: requestFilterFacts(params),
      nowSeconds,
      facetValues: (attribute) => env.facetValues(attribute),
      synonyms: env.synonyms,
      separators: env.separators,
    };
    const matching: RuleMatch[] = [];
    if (this.candidates === null || this.candidates.separators !== env.separators) this.candidates = indexRules(this.byId.values(), env.separators);
    for (const rule of candidatesFor(this.candidates, request.words)) {
      if (!ruleActive(rule, nowSeconds)) continue;
      const conditions = conditionsOf(rule);
      if (conditions.length === 0) {
        matching.push({ rule, match: { position: Number.POSITIVE_INFINITY, length: 0, anchoring: 0, hasContext: false, hasFilters: false, placeholders: 0, span: null, facets: [] } });
        continue;
      }
      const matches = conditions.map((c) => matchCondition(c, request)).filter((m): m is ConditionMatch => m !== null);
      const best = bestCondition(rule, matches);
      if (best !== null) matching.push({ rule, match: best });
    }
    if (matching.length === 0) return null;
    return planConsequences(params, selectRules(matching), env.separators);
  }
}

/**
 * Rules whose objectID, description or a condition's pattern or context contains every word of `query`,
 * narrowed by anchoring, context and enabled; sorted by objectID, paged (20 per page by default).
 */
export function searchRules(rules: Iterable<Rule>, params: SearchRulesParams = {}): SearchRulesResponse {
  const query = typeof params.query === 'string' ? params.query.toLowerCase().split(/\s+/).filter(Boolean) : [];
  const page = params.page ?? 0;
  const hitsPerPage = params.hitsPerPage ?? 20;
  const found = [...rules]
    .filter((rule) => {
      const conditions = conditionsOf(rule);
      if (params.anchoring !== undefined && !conditions.some((c) => c.anchoring === params.anchoring)) return false;
      if (params.context !== undefined && !conditions.some((c) => c.context === params.context)) return false;
      if (typeof params.enabled === 'boolean' && (rule.enabled !== false) !== params.enabled) return false;
      const text = [rule.objectID, rule.description ?? '', ...conditions.flatMap((c) => [c.pattern ?? '', c.context ?? ''])].join(' ').toLowerCase();
      return query.every((word) => text.includes(word));
    })
    .sort((a, b) => (a.objectID < b.objectID ? -1 : a.objectID > b.objectID ? 1 : 0));
  return {
    hits: structuredClone(found.slice(page * hitsPerPage, (page + 1) * hitsPerPage)),
    nbHits: found.length,
    page,
    nbPages: Math.ceil(found.length / hitsPerPage),
  };
}
