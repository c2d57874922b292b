/**
 * Which of the matching rules apply: Algolia's documented rule matching algorithm. The matching rules are
 * sorted by precedence (a tie-breaking list, like ranking criteria); then, walking them in that order, a rule
 * that conflicts with one already kept is dropped; the rest apply.
 */
import type { Rule } from '@vitrine/protocol';
import type { ConditionMatch } from './match.ts';

/** A rule that holds for the search, with its best-matching condition. */
export interface RuleMatch {
  rule: Rule;
  match: ConditionMatch;
}

/** Temporary (with validity ranges) over permanent. */
function temporary(rule: Rule): number {
  return Array.isArray(rule.validity) && rule.validity.length > 0 ? 1 : 0;
}

/**
 * Negative when `a` takes precedence over `b`. Criteria in order, each consulted only on a tie of the ones
 * before: position (earliest match first), match length (words plus filters, longest first), anchoring
 * (is > startsWith > endsWith > contains), context, filters, literals over placeholders, temporary over
 * permanent, and last the smaller objectID (lexicographic), which breaks every remaining tie.
 */
export function comparePrecedence(a: RuleMatch, b: RuleMatch): number {
  const x = a.match;
  const y = b.match;
  if (x.position !== y.position) return x.position < y.position ? -1 : 1;
  if (x.length !== y.length) return y.length - x.length;
  if (x.anchoring !== y.anchoring) return y.anchoring - x.anchoring;
  if (x.hasContext !== y.hasContext) return x.hasContext ? -1 : 1;
  if (x.hasFilters !== y.hasFilters) return x.hasFilters ? -1 : 1;
  if (x.placeholders !== y.placeholders) return x.placeholders - y.placeholders;
  const temporal = temporary(b.rule) - temporary(a.rule);
  if (temporal !== 0) return temporal;
  return a.rule.objectID < b.rule.objectID ? -1 : a.rule.objectID > b.rule.objectID ? 1 : 0;
}

/** How a rule changes the query text: not at all, word edits, or a whole new query. */
function queryChange(rule: Rule): 'none' | 'edits' | 'replace' {
  const query = rule.consequence?.params?.query;
  if (typeof query === 'string') return 'replace';
  return query !== undefined && query !== null ? 'edits' : 'none';
}

/**
 * Two rules conflict when their patterns matched overlapping query words (several rules apply together only
 * on distinct words), or when one replaces the whole query and the other changes it too (a query rewritten
 * twice has no meaning).
 */
export function rulesConflict(a: RuleMatch, b: RuleMatch): boolean {
  const x = a.match.span;
  const y = b.match.span;
  if (x !== null && y !== null) {
    const sameEmpty = x[0] === x[1] && y[0] === y[1] && x[0] === y[0];
    if (sameEmpty || (x[0] < y[1] && y[0] < x[1])) return true;
  }
  const p = queryChange(a.rule);
  const q = queryChange(b.rule);
  return (p === 'replace' && q !== 'none') || (q === 'replace' && p !== 'none');
}

/** The rules to apply, highest precedence first. */
export function selectRules(matches: RuleMatch[]): RuleMatch[] {
  const sorted = [...matches].sort(comparePrecedence);
  const kept: RuleMatch[] = [];
  for (const candidate of sorted) if (!kept.some((rule) => rulesConflict(rule, candidate))) kept.push(candidate);
  return kept;
}

/** The best-matching condition of a rule, by the same criteria. */
export function bestCondition(rule: Rule, matches: ConditionMatch[]): ConditionMatch | null {
  let best: ConditionMatch | null = null;
  for (const match of matches) if (best === null || comparePrecedence({ rule, match }, { rule, match: best }) < 0) best = match;
  return best;
}
