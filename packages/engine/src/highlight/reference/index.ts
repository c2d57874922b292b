/**
 * The highlighting implementation as it was before the per-page optimisations (commit a7c87ba), kept verbatim
 * as an oracle: `equivalence.test.ts` checks that the optimised `highlight/` produces byte-for-byte the same
 * `_highlightResult` / `_snippetResult` / facet highlights, and `bench/highlight.ts` times one against the
 * other. Never imported by engine code. Only the import paths, these comments and the resolution of dotted paths
 * (keys may hold dots since) differ from the originals.
 */
export { highlightRecord, snippetRecord, highlightFacetValue } from './record.ts';
