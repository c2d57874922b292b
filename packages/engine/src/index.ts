/**
 * @vitrine/engine: Vitrine's in-memory search engine (pure, synchronous, no I/O).
 *
 * Status: `SearchIndex` implements `EngineIndex`: records (saveObjects upsert with validate-first atomicity,
 * deleteObjects, clear, getObject, records(), size), settings, synonyms (regular, one-way), and search with
 * Algolia's semantics: prefixLast/prefixAll/prefixNone, typo tolerance (OSA distance, min/strict, per-word and
 * per-attribute exceptions), plurals, advanced syntax (phrases, exclusions), optionalWords and
 * removeWordsIfNoResults, filters (through `filter/`, plus a forced `extraFilter`), optionalFilters, the
 * tie-breaking ranking criteria with customRanking, sort-first (standard replica) and relevant-sort (virtual
 * replica) rankings through `settingsOverride`, exhaustive facets with facets_stats, distinct, pagination,
 * attributesToRetrieve, highlight and snippet (through `highlight/`), getRankingInfo, searchForFacetValues and
 * browse with a cursor. `saveSnapshot`/`loadSnapshot` are still being written (they throw INVALID_SNAPSHOT).
 */
export { SearchIndex } from './search-index.ts';
export { loadSnapshot } from './snapshot/index.ts';
export { EngineError, createEngineError, engineErrors, type EngineErrorCode } from './errors.ts';
export type { EngineIndex, SearchOptions } from './api.ts';
export { buildFilterNode, andFilterNodes, parseFilterString, filterToString, evaluateFilter } from './filter/index.ts';
export type { FilterNode, FilterSource, NumericOperator, FilterLimits } from './filter/types.ts';
export type { DocId } from './structures/ids.ts';
