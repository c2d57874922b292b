/**
 * When and how the storefront asks for recommendations. The widgets themselves are react-instantsearch's; this
 * module holds the decisions they are given.
 */
import { listRefinements } from './refinements.ts';
import type { StorefrontIndexUiState } from './search-state.ts';

/** Items per carousel: enough to fill a row on a wide screen, few enough to load fast. */
export const recommendLimits = { related: 8, boughtTogether: 4, trending: 8 } as const;

/**
 * The home page is the search page before the shopper asked for anything: no query, no refinement, first page,
 * default sort. Only there do trending items replace nothing the shopper wanted to see.
 */
export function isHomeState(state: StorefrontIndexUiState, primaryIndex: string): boolean {
  if ((state.query ?? '').trim() !== '') return false;
  if ((state.page ?? 1) > 1) return false;
  if (state.sortBy !== undefined && state.sortBy !== primaryIndex) return false;
  return listRefinements(state).length === 0;
}
