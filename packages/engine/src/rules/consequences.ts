/**
 * The applied rules' consequences merged into one plan for the search: the search parameters as the rules
 * leave them, the query after edits, the records to pin and to hide, and what the response gains.
 */
import type { AutomaticFacetFilter, ConsequenceQueryObject, Edit, FilterList, RenderingContent, SearchParams } from '@vitrine/protocol';
import { readFilterList } from '../filter/lists.ts';
import { tokenize, terms } from '../tokenize/index.ts';
import type { PlaceholderMatch } from './match.ts';
import type { RuleMatch } from './precedence.ts';

/** Records a rule pins: a group at a position (0-based), in the order given. */
export interface PromoteGroup {
  objectIDs: string[];
  position: number;
}

export interface RulePlan {
  /** The search's parameters after the rules (the request's, with the rules' merged in). */
  params: SearchParams;
  /** objectIDs of the applied rules, highest precedence first. */
  applied: string[];
  promotes: PromoteGroup[];
  /** Whether pinned records must pass the request's filters (any applied rule asking for it). */
  filterPromotes: boolean;
  hidden: string[];
  userData: unknown[];
  /** The rules' renderingContent, each top-level key from the highest rule setting it. */
  renderingContent?: RenderingContent;
  /** The query after the rules' edits, when they changed it. */
  queryAfterRemoval?: string;
}

/** Filter parameters: a rule's are ANDed with the request's (and other rules'), never replace them. */
const LIST_FILTERS = ['facetFilters', 'numericFilters', 'tagFilters', 'optionalFilters'] as const;
/** Parameters of a consequence that are not search parameters as such. */
const SPECIAL = new Set(['query', 'automaticFacetFilters', 'automaticOptionalFacetFilters', 'renderingContent', 'filters', ...LIST_FILTERS]);

function asList(list: unknown, code: 'INVALID_FACET_FILTER' | 'INVALID_NUMERIC_FILTER' | 'INVALID_TAG_FILTER' | 'INVALID_OPTIONAL_FILTER'): Array<string | string[]> {
  return readFilterList(list, code).map((group) => (group.length === 1 ? group[0] : group));
}

const LIST_CODES = {
  facetFilters: 'INVALID_FACET_FILTER',
  numericFilters: 'INVALID_NUMERIC_FILTER',
  tagFilters: 'INVALID_TAG_FILTER',
  optionalFilters: 'INVALID_OPTIONAL_FILTER',
} as const;

/** Query words (by index) a `delete` text stands for: its literal words wherever they occur, or a placeholder's words. */
function wordsToEdit(edit: string, queryTerms: string[], facets: PlaceholderMatch[], separators: string): Array<[number, number]> {
  const placeholder = /^\{facet:([^}]+)\}$/.exec(edit.trim());
  if (placeholder !== null) return facets.filter((f) => f.attribute === placeholder[1].trim()).map((f) => [f.start, f.end]);
  const target = terms(edit, separators);
  const spans: Array<[number, number]> = [];
  if (target.length === 0) return spans;
  for (let i = 0; i + target.length <= queryTerms.length; i++) {
    if (target.every((term, k) => queryTerms[i + k] === term)) {
      spans.push([i, i + target.length]);
      i += target.length - 1;
    }
  }
  return spans;
}

function editsOf(query: ConsequenceQueryObject): Edit[] {
  const edits: Edit[] = [];
  for (const word of query.remove ?? []) edits.push({ type: 'remove', delete: word });
  for (const edit of query.edits ?? []) edits.push(edit);
  return edits;
}

/**
 * The query with the applied rules' word edits: each word removed or replaced at most once, the first (highest
 * precedence) edit touching it winning. Returns null when nothing changed.
 */
function editQuery(query: string, kept: RuleMatch[], separators: string): string | null {
  const tokens = tokenize(query, separators);
  const queryTerms = tokens.map((t) => t.term);
  const replacement: Array<string | null | undefined> = new Array(tokens.length).fill(undefined);
  let changed = false;
  for (const { rule, match } of kept) {
    const edit = rule.consequence.params?.query;
    if (edit === undefined || edit === null || typeof edit === 'string') continue;
    for (const one of editsOf(edit)) {
      if (typeof one.delete !== 'string') continue;
      for (const [start, end] of wordsToEdit(one.delete, queryTerms, match.facets, separators)) {
        if (replacement.slice(start, end).some((r) => r !== undefined)) continue;
        for (let i = start; i < end; i++) replacement[i] = null;
        if (one.type === 'replace' && typeof one.insert === 'string') replacement[start] = one.insert;
        changed = true;
      }
    }
  }
  if (!changed) return null;
  const words: string[] = [];
  tokens.forEach((token, i) => {
    const r = replacement[i];
    if (r === undefined) words.push(query.slice(token.start, token.end));
    else if (r !== null && r !== '') words.push(r);
  });
  return words.join(' ');
}

/** Facet filters from a rule's placeholders: AND of the values, or one OR group with `disjunctive`. */
function automaticFilters(specs: Array<AutomaticFacetFilter | string> | undefined, facets: PlaceholderMatch[], optional: boolean): Array<string | string[]> {
  const out: Array<string | string[]> = [];
  for (const raw of specs ?? []) {
    const spec: AutomaticFacetFilter = typeof raw === 'string' ? { facet: raw } : raw;
    const values = [...new Set(facets.filter((f) => f.attribute === spec.facet).map((f) => f.value))];
    if (values.length === 0) continue;
    const score = optional && typeof spec.score === 'number' ? `<score=${spec.score}>` : '';
    const entries = values.map((value) => `${spec.facet}:${value.startsWith('-') ? `\\${value}` : value}${score}`);
    if (spec.disjunctive === true) out.push(entries);
    else out.push(...entries);
  }
  return out;
}

/** Merges the consequences of the rules to apply (highest precedence first) into a plan for `params`. */
export function planConsequences(params: SearchParams, kept: RuleMatch[], separators: string): RulePlan {
  const merged: SearchParams = { ...params };
  const claimed = new Set<string>();
  const filters: string[] = typeof params.filters === 'string' && params.filters.trim() !== '' ? [params.filters] : [];
  const lists: Record<(typeof LIST_FILTERS)[number], Array<string | string[]>> = { facetFilters: [], numericFilters: [], tagFilters: [], optionalFilters: [] };
  const plan: RulePlan = { params: merged, applied: [], promotes: [], filterPromotes: false, hidden: [], userData: [] };
  let rendering: RenderingContent | undefined;
  let replacedQuery: string | undefined;
  for (const { rule, match } of kept) {
    const consequence = rule.consequence;
    plan.applied.push(rule.objectID);
    const ruleParams = (consequence.params ?? {}) as Record<string, unknown>;
    // Any other search parameter: the highest rule setting it wins over lower rules and over the request.
    for (const [key, value] of Object.entries(ruleParams)) {
      if (SPECIAL.has(key) || claimed.has(key)) continue;
      claimed.add(key);
      merged[key] = value;
    }
    if (typeof ruleParams.filters === 'string' && ruleParams.filters.trim() !== '') filters.push(ruleParams.filters);
    for (const name of LIST_FILTERS) if (ruleParams[name] !== undefined) lists[name].push(...asList(ruleParams[name], LIST_CODES[name]));
    lists.facetFilters.push(...automaticFilters(ruleParams.automaticFacetFilters as AutomaticFacetFilter[] | undefined, match.facets, false));
    lists.optionalFilters.push(...automaticFilters(ruleParams.automaticOptionalFacetFilters as AutomaticFacetFilter[] | undefined, match.facets, true));
    if (typeof ruleParams.query === 'string' && replacedQuery === undefined) replacedQuery = ruleParams.query;
    const content = ruleParams.renderingContent as RenderingContent | undefined;
    if (content !== null && typeof content === 'object') rendering = { ...content, ...rendering };
    for (const promote of consequence.promote ?? []) {
      const ids = 'objectIDs' in promote ? promote.objectIDs : [promote.objectID];
      plan.promotes.push({ objectIDs: ids, position: promote.position });
    }
    if (consequence.filterPromotes === true) plan.filterPromotes = true;
    for (const hide of consequence.hide ?? []) plan.hidden.push(hide.objectID);
    if (consequence.userData !== undefined) plan.userData.push(consequence.userData);
  }
  if (filters.length > 0) merged.filters = filters.length === 1 ? filters[0] : filters.map((f) => `(${f})`).join(' AND ');
  for (const name of LIST_FILTERS) {
    if (lists[name].length === 0) continue;
    merged[name] = [...asList(params[name], LIST_CODES[name]), ...lists[name]] as FilterList;
  }
  const query = typeof params.query === 'string' ? params.query : '';
  const edited = replacedQuery ?? editQuery(query, kept, separators);
  if (edited !== null) {
    merged.query = edited;
    plan.queryAfterRemoval = edited;
  }
  if (rendering !== undefined) plan.renderingContent = rendering;
  return plan;
}
