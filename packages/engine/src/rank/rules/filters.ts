/**
 * `filters`: higher optionalFilters score first. A document scores the sum of the scores of the optional filters
 * it matches. (Without `sumOrFiltersScores` an OR-group scores its best entry only: the filter module already
 * turns such a group into increments whose sum is that maximum.)
 */
import type { RuleFactory } from '../rule.ts';

export const filtersRule: RuleFactory = (context) => {
  const filters = context.optionalFilters;
  if (filters.length === 0) return null;
  return {
    name: 'filters',
    key(doc) {
      let score = 0;
      for (const filter of filters) {
        if (filter.set.has(doc)) score += filter.score;
      }
      // `0 - n`, not `-n`: no -0 (a heap number per document; see exact.ts).
      return 0 - score;
    },
  };
};
