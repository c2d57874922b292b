import type { FilterList } from '@vitrine/protocol';
import { createEngineError } from '../errors.ts';
import { facetFiltersToNode, numericFiltersToNode, tagFiltersToNode } from './lists.ts';
import { parseFilterString } from './parser.ts';
import type { FilterLimits, FilterNode } from './types.ts';

/**
 * ANDs filter trees, skipping absent ones; null when none is left.
 *
 * This is how a secured API key's forced filters meet the request's: as two subtrees under one AND, never by
 * concatenating text, so nothing in the request (an unbalanced parenthesis, a trailing `OR …`) can widen them.
 * Inputs are not mutated. Constant `true` operands are dropped; a constant `false` makes the whole AND false.
 */
export function andFilterNodes(...nodes: Array<FilterNode | null | undefined>): FilterNode | null {
  const children: FilterNode[] = [];
  for (const node of nodes) {
    if (node === null || node === undefined) continue;
    if (node.kind === 'boolean') {
      if (!node.value) return node;
      continue;
    }
    if (node.kind === 'and') for (const child of node.children) children.push(child);
    else children.push(node);
  }
  if (children.length === 0) return null;
  if (children.length === 1) return children[0];
  return { kind: 'and', children };
}

export interface FilterParams {
  filters?: string;
  facetFilters?: FilterList;
  numericFilters?: FilterList;
  tagFilters?: FilterList;
}

/**
 * Every filter form of a request (`filters`, `facetFilters`, `numericFilters`, `tagFilters`) as one tree,
 * ANDed; null when the request filters nothing. Bad input throws an `EngineError` (a 400 for the server).
 * The limits apply to each form separately.
 */
export function buildFilterNode(params: FilterParams, limits?: Partial<FilterLimits>): FilterNode | null {
  const { filters } = params;
  let parsed: FilterNode | null = null;
  if (filters !== undefined && filters !== null) {
    if (typeof filters !== 'string') throw createEngineError('INVALID_PARAMETER', 'filters', 'expected a string');
    if (filters.trim().length > 0) parsed = parseFilterString(filters, limits);
  }
  return andFilterNodes(
    parsed,
    facetFiltersToNode(params.facetFilters as FilterList, limits),
    numericFiltersToNode(params.numericFilters as FilterList, limits),
    tagFiltersToNode(params.tagFilters as FilterList, limits),
  );
}
