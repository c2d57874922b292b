/**
 * Filtering: every filter form of Algolia's API compiled to one `FilterNode` tree, evaluated on bitsets.
 * The module never sees the index; it asks a `FilterSource` for the documents of each condition.
 * Grammar and design notes: GRAMMAR.md beside this file.
 */
export { parseFilterString } from './parser.ts';
export {
  facetFiltersToNode,
  numericFiltersToNode,
  tagFiltersToNode,
  optionalFiltersToNodes,
  type OptionalFilter,
} from './lists.ts';
export { buildFilterNode, andFilterNodes, type FilterParams } from './build.ts';
export { evaluateFilter, evaluateFilterConjuncts, type FilterConjuncts } from './evaluate.ts';
export { filterToString } from './to-string.ts';
export { filterScoreTerms } from './score.ts';
export type { FilterNode, FilterLimits, FilterSource, NumericOperator } from './types.ts';
