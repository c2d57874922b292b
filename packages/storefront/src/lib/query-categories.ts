/**
 * "In <category>" suggestions from the server's query categorization (`extensions.queryCategorization` of a
 * search response, which the search page asks for): the categories the query's shoppers went to, most
 * confident first, as the category paths the hierarchical menu refines (`['Home & Kitchen', 'Lighting']`).
 * Weak predictions (`very low`) are not offered. Hosted Algolia answers the same shape when its Query
 * Categorization is on; otherwise there is nothing to show.
 */
import type { QueryCategorization } from '@vitrine/protocol';
import { categorySeparator } from './catalog.ts';

export interface CategorySuggestion {
  /** The category's levels, broadest first. */
  path: string[];
  /** Its deepest level's name. */
  label: string;
}

/** The suggestions of a raw search result (anything: a result without the extension has none). */
export function categorySuggestions(raw: unknown, limit = 3): CategorySuggestion[] {
  const categorization = (raw as { extensions?: { queryCategorization?: QueryCategorization } } | null | undefined)?.extensions?.queryCategorization;
  const suggestions: CategorySuggestion[] = [];
  for (const prediction of categorization?.categories ?? []) {
    const deepest = prediction.hierarchyPath?.[prediction.hierarchyPath.length - 1];
    if (prediction.bin === 'very low' || typeof deepest?.facetValue !== 'string') continue;
    const path = deepest.facetValue.split(categorySeparator);
    suggestions.push({ path, label: path[path.length - 1] });
  }
  return suggestions.slice(0, limit);
}
