import type { TypoTolerance, IgnorePlurals, RemoveWordsIfNoResults, QueryType, Distinct, RenderingContent } from './search-params.ts';

/**
 * Index settings, as `GET/PUT /1/indexes/{index}/settings` carry them.
 * Every field is optional on the wire; the engine fills defaults (documented per field).
 */
export interface IndexSettings {
  /** Attributes searched, in order of importance; `unordered(attr)` ignores the position within it. Default: all. */
  searchableAttributes?: string[];
  /** Facetable attributes; modifiers `searchable(attr)`, `filterOnly(attr)`, `afterDistinct(attr)`. Default: []. */
  attributesForFaceting?: string[];
  /** Attributes never returned, whatever `attributesToRetrieve` says. */
  unretrievableAttributes?: string[];
  attributesToRetrieve?: string[];
  /** Tie-breaking criteria, in order. Default: typo, geo, words, filters, proximity, attribute, exact, custom. */
  ranking?: string[];
  /** `desc(attr)` / `asc(attr)` applied by the `custom` criterion. */
  customRanking?: string[];
  /** Standard replicas by name, virtual ones as `virtual(name)`. */
  replicas?: string[];
  /** Set on a replica: the index it mirrors. */
  primary?: string;
  relevancyStrictness?: number;
  attributesToHighlight?: string[];
  attributesToSnippet?: string[];
  highlightPreTag?: string;
  highlightPostTag?: string;
  snippetEllipsisText?: string;
  restrictHighlightAndSnippetArrays?: boolean;
  hitsPerPage?: number;
  paginationLimitedTo?: number;
  minWordSizefor1Typo?: number;
  minWordSizefor2Typos?: number;
  typoTolerance?: TypoTolerance;
  allowTyposOnNumericTokens?: boolean;
  disableTypoToleranceOnAttributes?: string[];
  disableTypoToleranceOnWords?: string[];
  separatorsToIndex?: string;
  queryType?: QueryType;
  removeWordsIfNoResults?: RemoveWordsIfNoResults;
  advancedSyntax?: boolean;
  advancedSyntaxFeatures?: string[];
  optionalWords?: string[] | string | null;
  ignorePlurals?: IgnorePlurals;
  removeStopWords?: boolean | string[];
  decompoundQuery?: boolean;
  queryLanguages?: string[];
  indexLanguages?: string[];
  attributeForDistinct?: string;
  distinct?: Distinct;
  maxValuesPerFacet?: number;
  maxFacetHits?: number;
  sortFacetValuesBy?: 'count' | 'alpha';
  renderingContent?: RenderingContent;
  attributeCriteriaComputedByMinProximity?: boolean;
  minProximity?: number;
  numericAttributesForFiltering?: string[];
  allowCompressionOfIntegerArray?: boolean;
  userData?: unknown;
  /** Anything else Algolia accepts is stored and returned untouched. */
  [setting: string]: unknown;
}
