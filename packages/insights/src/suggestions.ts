/**
 * Query suggestions built from the search analytics, in the shape of Algolia's query-suggestions records:
 * `{ objectID, query, popularity, nb_words, <sourceIndex>: { exact_nb_hits, facets: { exact_matches, analytics } } }`.
 * A query qualifies when it was searched at least `minHits` times over the window, is at least `minLetters`
 * long, and still has results now (each candidate is searched again, which also gives its facet counts).
 */
import type { IndexRecord, IndexSettings } from '@vitrine/protocol';
import type { InsightsDb } from './db.ts';
import type { InsightsDeps, InsightsOptions, QuerySuggestionsConfig } from './deps.ts';
import { dayOf } from './days.ts';

/** Most popular queries considered per source index. */
const MAX_QUERIES = 1000;
/**
 * Searching every candidate again took 1.5 s at once for the demo's month of history, every request waiting:
 * the event loop turns whenever this much time has gone to them.
 */
const SEARCH_SLICE_MS = 8;
const SUGGESTIONS_SUFFIX = '_query_suggestions';

export const suggestionsSettings: IndexSettings = {
  searchableAttributes: ['query'],
  customRanking: ['desc(popularity)'],
  attributesForFaceting: [],
};

export interface SuggestionsReport {
  indexName: string;
  sources: string[];
  records: number;
}

/** The configured suggestions indices, or one `<index>_query_suggestions` per searched index. */
async function configs(db: InsightsDb, deps: InsightsDeps, options: InsightsOptions, fromDay: number): Promise<QuerySuggestionsConfig[]> {
  if (options.querySuggestions) return options.querySuggestions;
  const existing = new Set(await deps.listIndices());
  const rows = db.prepare('SELECT DISTINCT index_name FROM query_daily WHERE day >= ?').all(fromDay) as Array<{ index_name: string }>;
  return rows
    .map((row) => row.index_name)
    .filter((name) => existing.has(name) && !name.endsWith(SUGGESTIONS_SUFFIX))
    .sort()
    .map((name) => ({
      indexName: `${name}${SUGGESTIONS_SUFFIX}`,
      sources: [{ indexName: name, facets: [{ attribute: options.attributes.categories[0], amount: 3 }], minHits: 3, minLetters: 2 }],
      exclude: [],
    }));
}

export async function buildQuerySuggestions(db: InsightsDb, deps: InsightsDeps, options: InsightsOptions, now: number): Promise<SuggestionsReport[]> {
  const today = dayOf(now);
  const fromDay = today - options.suggestionsWindowDays + 1;
  const reports: SuggestionsReport[] = [];
  for (const config of await configs(db, deps, options, fromDay)) {
    const exclude = new Set(config.exclude.map((q) => q.toLowerCase()));
    const records = new Map<string, IndexRecord & { query: string; popularity: number }>();
    for (const source of config.sources) {
      const rows = db.prepare(`SELECT query, SUM(searches) AS count FROM query_daily WHERE index_name = ? AND day BETWEEN ? AND ?
        GROUP BY query HAVING SUM(searches) >= ? ORDER BY count DESC, query ASC LIMIT ?`).all(source.indexName, fromDay, today, source.minHits, MAX_QUERIES) as Array<{ query: string; count: number }>;
      const maxValues = Math.max(1, ...source.facets.map((f) => f.amount));
      let sliceStart = performance.now();
      for (const { query, count } of rows) {
        if (query.length < source.minLetters || exclude.has(query)) continue;
        if (performance.now() - sliceStart > SEARCH_SLICE_MS) {
          await new Promise((resolve) => setImmediate(resolve));
          sliceStart = performance.now();
        }
        const response = await deps.search(source.indexName, {
          query, hitsPerPage: 0, facets: source.facets.map((f) => f.attribute), maxValuesPerFacet: maxValues, analytics: false, clickAnalytics: false,
        });
        if (response.nbHits === 0) continue;
        const exactMatches: Record<string, Array<{ value: string; count: number }>> = {};
        for (const facet of source.facets) {
          const counts = response.facets?.[facet.attribute] ?? {};
          exactMatches[facet.attribute] = Object.entries(counts)
            .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
            .slice(0, facet.amount)
            .map(([value, n]) => ({ value, count: n }));
        }
        const record = records.get(query) ?? { objectID: query, query, popularity: 0, nb_words: query.split(' ').length };
        record.popularity += count;
        // Defined, not assigned: an index named `__proto__` would otherwise set the record's prototype.
        Object.defineProperty(record, source.indexName, {
          value: { exact_nb_hits: response.nbHits, facets: { exact_matches: exactMatches, analytics: {} } }, enumerable: true, writable: true, configurable: true,
        });
        records.set(query, record);
      }
    }
    const list = [...records.values()].sort((a, b) => b.popularity - a.popularity || (a.query < b.query ? -1 : 1));
    await deps.saveSuggestions(config.indexName, list, structuredClone(suggestionsSettings));
    reports.push({ indexName: config.indexName, sources: config.sources.map((s) => s.indexName), records: list.length });
  }
  return reports;
}
