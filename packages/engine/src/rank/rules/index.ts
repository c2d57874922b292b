/** The ranking criteria of a query, in the order of the `ranking` setting, without those that are constant. */
import type { RankingCriterion } from '../../settings.ts';
import type { RankContext, RankRule, RuleFactory } from '../rule.ts';
import { typoRule } from './typo.ts';
import { geoRule } from './geo.ts';
import { wordsRule } from './words.ts';
import { filtersRule } from './filters.ts';
import { proximityRule } from './proximity.ts';
import { attributeRule } from './attribute.ts';
import { exactRule } from './exact.ts';
import { customRule } from './custom.ts';
import { sortRule } from './sort.ts';

const FACTORIES: Record<string, RuleFactory> = {
  typo: typoRule,
  geo: geoRule,
  words: wordsRule,
  filters: filtersRule,
  proximity: proximityRule,
  attribute: attributeRule,
  exact: exactRule,
  custom: customRule,
};

export function buildRules(ranking: RankingCriterion[], context: RankContext): RankRule[] {
  const rules: RankRule[] = [];
  for (const criterion of ranking) {
    const rule = criterion.kind === 'sort' ? sortRule(context, criterion.attribute, criterion.ascending) : FACTORIES[criterion.kind](context);
    if (rule !== null) rules.push(rule);
  }
  return rules;
}
