/**
 * Which rules a search needs to weigh. Most shop rules are a literal pattern ("lamp", "sale"), and such a
 * condition can only hold when the query has its first word: indexing rules by that word lets a search skip
 * the rest instead of matching every pattern (~90 µs a search at 200 rules that match none).
 * A rule with any condition that can hold without a literal word of the query — no pattern, an empty or
 * placeholder-only pattern, `alternatives` (plurals and synonyms match other words) — is weighed on every search.
 */
import type { Rule } from '@vitrine/protocol';
import { conditionsOf, patternOf } from './match.ts';

export interface RuleCandidates {
  separators: string;
  /** Rules by the first literal word of one of their conditions' patterns. */
  byTerm: Map<string, Rule[]>;
  /** Rules weighed on every search. */
  always: Rule[];
}

/** The literal words any condition of `rule` requires (its first one each); null when one requires none. */
function keyTerms(rule: Rule, separators: string): string[] | null {
  const conditions = conditionsOf(rule);
  if (conditions.length === 0) return null;
  const keys: string[] = [];
  for (const condition of conditions) {
    if (typeof condition.pattern !== 'string' || condition.alternatives === true) return null;
    const literal = patternOf(condition, separators).find((element) => element.kind === 'word');
    if (literal === undefined) return null;
    keys.push(literal.term);
  }
  return keys;
}

export function indexRules(rules: Iterable<Rule>, separators: string): RuleCandidates {
  const byTerm = new Map<string, Rule[]>();
  const always: Rule[] = [];
  for (const rule of rules) {
    const keys = keyTerms(rule, separators);
    if (keys === null) {
      always.push(rule);
      continue;
    }
    for (const key of new Set(keys)) {
      const list = byTerm.get(key);
      if (list === undefined) byTerm.set(key, [rule]);
      else list.push(rule);
    }
  }
  return { separators, byTerm, always };
}

/** The rules that may hold for a query of these (normalised) words, each once. */
export function candidatesFor(index: RuleCandidates, words: readonly string[]): Rule[] {
  if (index.byTerm.size === 0) return index.always;
  const found = new Set<Rule>(index.always);
  for (const word of words) for (const rule of index.byTerm.get(word) ?? []) found.add(rule);
  return [...found];
}
