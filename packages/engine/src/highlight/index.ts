/**
 * Highlighting and snippeting: `_highlightResult`, `_snippetResult` and the `highlighted` field of facet
 * hits, computed from a hit's record and the query's words (see `HighlightQuery`, built by the query stage).
 * Build one `HighlightQuery` per search and do not mutate it: the work a page of hits shares (term matches,
 * analysed values) is kept on the query object (see `pageState` in record.ts), so every hit reuses it.
 * `reference/` holds the code as it was before that sharing, as the oracle of `equivalence.test.ts`.
 */
export { highlightRecord, snippetRecord, highlightFacetValue } from './record.ts';
export type { HighlightOptions, HighlightQuery, HighlightWord, SnippetOptions } from './types.ts';
