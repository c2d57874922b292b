/**
 * @vitrine/engine: Vitrine's in-memory search engine (pure, synchronous, no I/O). Design: ../DESIGN.md.
 *
 * Status: `SearchIndex` implements `EngineIndex` in full: records (saveObjects upsert with validate-first
 * atomicity, deleteObjects, clear, getObject, records(), size), settings, synonyms (regular, one-way,
 * multi-word in the query), and search with Algolia's semantics: prefixLast/prefixAll/prefixNone, typo
 * tolerance (adjacent swaps count one; min/strict; per-word, numeric and per-attribute exceptions), English
 * plurals, advanced syntax (phrases, exclusions), optionalWords and removeWordsIfNoResults, filters (through
 * `filter/`, plus a forced `extraFilter` from secured keys), optionalFilters, the ranking criteria (typo, geo,
 * words, filters, proximity, attribute, exact, custom) with sort-first rankings (standard replicas) and relevant
 * sort (virtual replicas) through `settingsOverride`, exhaustive facets with facets_stats, distinct,
 * pagination, attributesToRetrieve, highlight and snippet (through `highlight/`), getRankingInfo,
 * searchForFacetValues, browse with a cursor, and binary snapshots (`saveSnapshot` / `loadSnapshot`).
 */
export { SearchIndex } from './search-index.ts';
// How the engine reads settings' attribute lists and records' attributes, for callers that must agree with it.
export { parseAttributesForFaceting, parseSearchableAttributes } from './settings.ts';
export { leaves, parsePath, topLevelAttributes } from './index/attributes.ts';
// What a caller may see of a record (attributesToRetrieve, unretrievableAttributes), as hits show it.
export { parseRetrieve, retrieve } from './response/retrieve.ts';
export type { RecordSource, RecordsStamp } from './index/record-list.ts';
export { loadSnapshot, snapshotLayout, type SectionPlacement, type SnapshotBytes } from './snapshot/index.ts';
export { EngineError, createEngineError, engineErrors, type EngineErrorCode } from './errors.ts';
export type { EngineIndex, SearchOptions, SnapshotOptions, SteppedSearch } from './api.ts';
export { withinKeyLimits, type KeyLimits } from './search/key-limits.ts';
// The embedders setting and records' `_vectors` as the engine reads them (the server checks writes with them).
export { parseEmbedders, readRecordVectors, type EmbedderSpec } from './vectors/embedders.ts';
export { buildFilterNode, andFilterNodes, parseFilterString, filterToString, evaluateFilter } from './filter/index.ts';
// One record against a filter tree, without an index (what a Recommend rule's condition asks of the source item).
export { recordMatches } from './filter/array-source.ts';
export { optionalFiltersToNodes } from './filter/lists.ts';
export type { ReRankingBoost, ReRankingInput } from './rank/re-ranking.ts';
export type { FilterNode, FilterSource, NumericOperator, FilterLimits, OptionalFilter } from './filter/types.ts';
export type { DocId } from './structures/ids.ts';
export { validateRule } from './rules/validate.ts';
export { checkSettingValues } from './query/options.ts';
export { searchRules } from './rules/rule-set.ts';
export { Dictionaries, DICTIONARY_NAMES, emptyDictionaryState, type DictionaryState } from './query/dictionaries.ts';
export { standardStopWords, STOP_WORD_LANGUAGES } from './query/standard-stop-words.ts';
