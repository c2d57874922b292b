/**
 * Whether a rule's condition holds for a search, and how specifically: the facts precedence compares
 * (`precedence.ts`). Query patterns are matched on normalised query words, the way the index sees them.
 */
import type { Anchoring, Condition, Rule, SearchParams } from '@vitrine/protocol';
import { parseFilterString } from '../filter/parser.ts';
import { readFilterList } from '../filter/lists.ts';
import type { FilterNode } from '../filter/types.ts';
import { normalizeText, terms } from '../tokenize/index.ts';
import { englishForms } from '../query/plurals.ts';
import type { SynonymTable } from '../query/synonyms.ts';

/** A word of a pattern: a literal (normalised) or a `{facet:attribute}` placeholder. */
export type PatternElement = { kind: 'word'; term: string } | { kind: 'facet'; attribute: string };

const PLACEHOLDER = /\{facet:([^}]+)\}/g;

/** A pattern as a sequence of elements: placeholders kept whole, literal text split into normalised words. */
export function parsePattern(pattern: string, separators = ''): PatternElement[] {
  const elements: PatternElement[] = [];
  let last = 0;
  for (const found of pattern.matchAll(PLACEHOLDER)) {
    for (const term of terms(pattern.slice(last, found.index), separators)) elements.push({ kind: 'word', term });
    elements.push({ kind: 'facet', attribute: found[1].trim() });
    last = found.index + found[0].length;
  }
  for (const term of terms(pattern.slice(last), separators)) elements.push({ kind: 'word', term });
  return elements;
}

/** The values of a facet by their normalised words joined with spaces, for placeholders. */
export interface FacetValues {
  /** normalised words joined by a space → the value as first spelled in the records. */
  byTerms: Map<string, string>;
  /** The most words any value has. */
  maxWords: number;
}

/** What a condition is matched against: the request, already reduced to what conditions read. */
export interface RuleRequest {
  /** Normalised query words. */
  words: string[];
  contexts: ReadonlySet<string>;
  /** Positive `attr:value` constraints the request's filters impose (`attr\u0000normalised value`). */
  filterFacts: ReadonlySet<string>;
  /** Seconds since the epoch, for `validity`; undefined: rules with a validity never apply. */
  nowSeconds: number | undefined;
  facetValues(attribute: string): FacetValues | undefined;
  synonyms: SynonymTable | null;
  separators: string;
}

/** A facet value a placeholder matched. */
export interface PlaceholderMatch {
  attribute: string;
  value: string;
  /** Query words [start, end) it covers. */
  start: number;
  end: number;
}

/** How one condition matched: the criteria of precedence, and what consequences need from the match. */
export interface ConditionMatch {
  /** First query word matched; +Infinity when the condition has no pattern. */
  position: number;
  /** Query words matched plus request filters matched. */
  length: number;
  /** is 4, startsWith 3, endsWith 2, contains 1, no pattern 0. */
  anchoring: number;
  hasContext: boolean;
  hasFilters: boolean;
  /** Placeholders in the pattern (fewer wins: literals over placeholders). */
  placeholders: number;
  /** Query words [start, end) matched, null without a pattern. */
  span: [number, number] | null;
  facets: PlaceholderMatch[];
}

const ANCHORING_RANK: Record<Anchoring, number> = { is: 4, startsWith: 3, endsWith: 2, contains: 1 };

/** `attr:value` facts of a filter tree's top-level AND (an OR of one counts): what the request surely requires. */
function collectFacts(node: FilterNode, into: Set<string>): void {
  if (node.kind === 'and') for (const child of node.children) collectFacts(child, into);
  else if (node.kind === 'or' && node.children.length === 1) collectFacts(node.children[0], into);
  else if (node.kind === 'facet') into.add(factKey(node.attribute, node.value));
  else if (node.kind === 'tag') into.add(factKey('_tags', node.value));
}

export function factKey(attribute: string, value: string): string {
  return `${attribute}\u0000${normalizeText(value.replace(/^"(.*)"$/, '$1'))}`;
}

/** The facts of the request's `filters` and `facetFilters` (malformed ones are the search's error to report). */
export function requestFilterFacts(params: SearchParams): Set<string> {
  const facts = new Set<string>();
  try {
    if (typeof params.filters === 'string' && params.filters.trim() !== '') collectFacts(parseFilterString(params.filters), facts);
    for (const group of readFilterList(params.facetFilters, 'INVALID_FACET_FILTER')) {
      if (group.length !== 1) continue;
      const entry = group[0];
      const colon = entry.indexOf(':');
      if (colon > 0 && !entry.startsWith('-')) facts.add(factKey(entry.slice(0, colon).trim(), entry.slice(colon + 1).trim()));
    }
  } catch {
    // The search itself reports the malformed filter.
  }
  return facts;
}

/** The `attr:value` facts a condition's `filters` requires (ANDed; no OR, no numeric: rejected by validation). */
export function conditionFacts(filters: string): string[] {
  const facts = new Set<string>();
  collectFacts(parseFilterString(filters), facts);
  return [...facts];
}

function wordMatches(patternTerm: string, queryWord: string, request: RuleRequest, alternatives: boolean): boolean {
  if (patternTerm === queryWord) return true;
  if (!alternatives) return false;
  if (englishForms(patternTerm).includes(queryWord)) return true;
  const synonyms = request.synonyms?.get(patternTerm);
  return synonyms !== undefined && synonyms.some((words) => words.length === 1 && words[0] === queryWord);
}

/**
 * Matches `elements` against the query words from `start`; returns the end (exclusive) of a match, or -1.
 * `mustEnd`: the match must end there (anchoring is / endsWith). Placeholders try their longest value first.
 */
function matchFrom(elements: PatternElement[], k: number, at: number, request: RuleRequest, alternatives: boolean, mustEnd: number | null, facets: PlaceholderMatch[]): number {
  if (k === elements.length) return mustEnd === null || at === mustEnd ? at : -1;
  const element = elements[k];
  const words = request.words;
  if (element.kind === 'word') {
    if (at >= words.length || !wordMatches(element.term, words[at], request, alternatives)) return -1;
    return matchFrom(elements, k + 1, at + 1, request, alternatives, mustEnd, facets);
  }
  const values = request.facetValues(element.attribute);
  if (values === undefined) return -1;
  for (let n = Math.min(values.maxWords, words.length - at); n >= 1; n--) {
    const value = values.byTerms.get(words.slice(at, at + n).join(' '));
    if (value === undefined) continue;
    facets.push({ attribute: element.attribute, value, start: at, end: at + n });
    const end = matchFrom(elements, k + 1, at + n, request, alternatives, mustEnd, facets);
    if (end >= 0) return end;
    facets.pop();
  }
  return -1;
}

/** Where a pattern matches the query under an anchoring: the earliest match, or null. */
export function matchPattern(elements: PatternElement[], anchoring: Anchoring, request: RuleRequest, alternatives: boolean): { span: [number, number]; facets: PlaceholderMatch[] } | null {
  const n = request.words.length;
  // An empty pattern stands for the empty query, with `is` only.
  if (elements.length === 0) return anchoring === 'is' && n === 0 ? { span: [0, 0], facets: [] } : null;
  const starts = anchoring === 'is' || anchoring === 'startsWith' ? [0] : Array.from({ length: n }, (_, i) => i);
  const mustEnd = anchoring === 'is' || anchoring === 'endsWith' ? n : null;
  for (const start of starts) {
    const facets: PlaceholderMatch[] = [];
    const end = matchFrom(elements, 0, start, request, alternatives, mustEnd, facets);
    if (end >= 0) return { span: [start, end], facets };
  }
  return null;
}

/**
 * Conditions compiled once, not at every search: a search weighs every enabled rule, and parsing each pattern
 * and filter again made a search that matches none of 200 rules measurably slower (docs/PERFORMANCE.md, Rules).
 * Keyed by the condition object, which the rule set holds as its own copy until the rule is replaced.
 */
const compiledPatterns = new WeakMap<Condition, { separators: string; elements: PatternElement[] }>();
const compiledFacts = new WeakMap<Condition, string[]>();

export function patternOf(condition: Condition, separators: string): PatternElement[] {
  const cached = compiledPatterns.get(condition);
  if (cached !== undefined && cached.separators === separators) return cached.elements;
  const elements = parsePattern(condition.pattern!, separators);
  compiledPatterns.set(condition, { separators, elements });
  return elements;
}

function factsOf(condition: Condition): string[] {
  let facts = compiledFacts.get(condition);
  if (facts === undefined) compiledFacts.set(condition, (facts = conditionFacts(condition.filters!)));
  return facts;
}

/** How a condition matches the request, or null when it does not hold. */
export function matchCondition(condition: Condition, request: RuleRequest): ConditionMatch | null {
  const hasContext = typeof condition.context === 'string' && condition.context !== '';
  if (hasContext && !request.contexts.has(condition.context!)) return null;
  let filtersMatched = 0;
  const hasFilters = typeof condition.filters === 'string' && condition.filters.trim() !== '';
  if (hasFilters) {
    const facts = factsOf(condition);
    if (!facts.every((fact) => request.filterFacts.has(fact))) return null;
    filtersMatched = facts.length;
  }
  if (typeof condition.pattern !== 'string') {
    return { position: Number.POSITIVE_INFINITY, length: filtersMatched, anchoring: 0, hasContext, hasFilters, placeholders: 0, span: null, facets: [] };
  }
  const anchoring = condition.anchoring ?? 'contains';
  const elements = patternOf(condition, request.separators);
  const found = matchPattern(elements, anchoring, request, condition.alternatives === true);
  if (found === null) return null;
  const [start, end] = found.span;
  return {
    position: start,
    length: end - start + filtersMatched,
    anchoring: ANCHORING_RANK[anchoring],
    hasContext,
    hasFilters,
    placeholders: elements.filter((e) => e.kind === 'facet').length,
    span: found.span,
    facets: found.facets,
  };
}

/** A rule's conditions (`conditions`, or the legacy single `condition`); empty: the rule always holds. */
export function conditionsOf(rule: Rule): Condition[] {
  if (Array.isArray(rule.conditions) && rule.conditions.length > 0) return rule.conditions;
  return rule.condition !== undefined ? [rule.condition] : [];
}

/** Whether the rule is in effect at `nowSeconds`: enabled, and within one of its validity ranges if it has any. */
export function ruleActive(rule: Rule, nowSeconds: number | undefined): boolean {
  if (rule.enabled === false) return false;
  if (!Array.isArray(rule.validity) || rule.validity.length === 0) return true;
  if (nowSeconds === undefined) return false;
  return rule.validity.some((range) => (range.from === undefined || range.from <= nowSeconds) && (range.until === undefined || nowSeconds <= range.until));
}
