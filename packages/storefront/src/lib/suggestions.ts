/**
 * Query suggestions for the search box: a plain search on the suggestions index (records shaped as the server's
 * query-suggestions build writes them, the same shape as hosted Algolia's), turned into what the dropdown shows.
 * Searches here are sent with `analytics: false`: typing must not count as searching. `dropdown-search.ts` sends
 * them.
 */
import { categoryAttributes } from './catalog.ts';
import { highlightPostTag, highlightPreTag } from './highlight.ts';
import type { SearchQuery } from 'algoliasearch/lite';

export interface QuerySuggestion {
  query: string;
  /** The query with highlight tags (see `highlight.ts`) around what matched the typed text. */
  highlighted: string;
  /** Top category of the suggestion's results, when the record has one ("Lighting"). */
  category?: string;
}

/** The part of a suggestions record this module reads. */
export interface SuggestionRecord {
  query?: unknown;
  _highlightResult?: { query?: { value?: unknown } };
  [sourceIndex: string]: unknown;
}

type FacetValue = { value?: unknown; count?: unknown };

/** The most frequent top-level category recorded for `sourceIndex`, if any. */
function topCategory(record: SuggestionRecord, sourceIndex: string): string | undefined {
  const source = record[sourceIndex] as { facets?: { exact_matches?: Record<string, FacetValue[]> } } | undefined;
  const values = source?.facets?.exact_matches?.[categoryAttributes[0]];
  const first = Array.isArray(values) ? values[0] : undefined;
  return typeof first?.value === 'string' && first.value !== '' ? first.value : undefined;
}

/** Suggestions records → dropdown entries; the exact typed query and malformed records are left out. */
export function toSuggestions(hits: readonly SuggestionRecord[], typed: string, sourceIndex: string): QuerySuggestion[] {
  const typedLower = typed.trim().toLowerCase();
  const out: QuerySuggestion[] = [];
  for (const hit of hits) {
    if (typeof hit.query !== 'string' || hit.query === '' || hit.query.toLowerCase() === typedLower) continue;
    const highlighted = hit._highlightResult?.query?.value;
    const category = topCategory(hit, sourceIndex);
    out.push({ query: hit.query, highlighted: typeof highlighted === 'string' ? highlighted : hit.query, ...(category ? { category } : {}) });
  }
  return out;
}

/**
 * The search for suggestions of `typed`, as one query of a multi-query: it rides along with the page's own
 * search (`dropdown-search.ts`), so a keystroke costs one request.
 */
export function suggestionsQuery(indexName: string, typed: string, limit = 6): SearchQuery {
  return {
    indexName,
    query: typed,
    hitsPerPage: limit,
    highlightPreTag,
    highlightPostTag,
    attributesToHighlight: ['query'],
    analytics: false,
    clickAnalytics: false,
  };
}
