/**
 * Highlighting and snippeting: `_highlightResult`, `_snippetResult` and the `highlighted` field of facet
 * hits, computed from a hit's record and the query's words (see `HighlightQuery`, built by the query stage).
 * Build one `HighlightQuery` per search and do not mutate it: word matches are memoised per query object,
 * so every hit of a page reuses them.
 */
export { highlightRecord, snippetRecord, highlightFacetValue } from './record.ts';
export type { HighlightOptions, HighlightQuery, HighlightWord, SnippetOptions } from './types.ts';
