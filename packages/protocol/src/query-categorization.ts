/**
 * Query categorization (Algolia's `extensions.queryCategorization` of a search response): the categories a query
 * leads shoppers to, learned from the shop's events. Asked per search with
 * `extensions: { queryCategorization: { enableCategoriesRetrieval: true } }`.
 */

/** How sure a category prediction is. */
export type CategoryBin = 'certain' | 'very high' | 'high' | 'low' | 'very low';

export interface HierarchyPathEntry {
  /** The facet attribute of this level, such as `hierarchicalCategories.lvl1`. */
  facetName: string;
  facetValue: string;
  /** 0 for the broadest level. */
  depth: number;
}

export interface CategoryPrediction {
  bin: CategoryBin;
  /** From the broadest level to the predicted category. */
  hierarchyPath: HierarchyPathEntry[];
}

export interface AutoFilteringResult {
  enabled: boolean;
  maxDepth?: number;
  facetFilters?: string[];
}

/** Empty (`{}`) when the query cannot be categorised. */
export interface QueryCategorization {
  normalizedQuery?: string;
  /** Searches of the normalised query over the window the prediction was learned from. */
  count?: number;
  /** One category (narrow), several (ambiguous), spread wide (broad), or none. */
  type?: 'narrow' | 'broad' | 'ambiguous' | 'none';
  categories?: CategoryPrediction[];
  autofiltering?: AutoFilteringResult;
}

/** The search parameter asking for it (`extensions`). */
export interface SearchExtensions {
  queryCategorization?: { enableCategoriesRetrieval?: boolean; enableAutoFiltering?: boolean };
}
