/**
 * Query suggestions built from the search analytics, in the shape of Algolia's query-suggestions records:
 * `{ objectID, query, popularity, nb_words, <sourceIndex>: { exact_nb_hits, facets: { exact_matches, analytics } } }`.
 * A query qualifies when it was searched at least `minHits` times over the window by at least `minUsers`
 * distinct users (`query_user_daily`: client addresses, so that one client cannot plant a suggestion the whole
 * shop then shows, issue 49), is at least `minLetters` long, holds no word or phrase of the block list
 * (`exclude`), and still has results now (each candidate is searched again, which also gives its facet counts).
 */
import type { IndexRecord, IndexSettings } from '@vitrine/protocol';
import type { InsightsDb } from './db.ts';
import type { InsightsDeps, InsightsOptions, QuerySuggestionsConfig } from './deps.ts';
import { dayOf } from './days.ts';
import { MAX_USERS_COUNTED } from './search-batch.ts';

/** Most popular queries considered per source index. */
const MAX_QUERIES = 1000;
/**
 * Searching every candidate again took 1.5 s at once for the demo's month of history, every request waiting:
 * the event loop turns whenever this much time has gone to them.
 */
const SEARCH_SLICE_MS = 8;
const SUGGESTIONS_SUFFIX = '_query_suggestions';

/**
 * A suggestions index's settings. Each source's category values are facets
 * (`<source>.facets.exact_matches.<attr>.value`, through a key holding a dot): Algolia's autocomplete filters
 * suggestions by them ("In Home", "In other categories":
 * `facetFilters: ["instant_search.facets.exact_matches.hierarchicalCategories.lvl0.value:Home"]`).
 */
export function suggestionsSettings(config: QuerySuggestionsConfig): IndexSettings {
  const categories = config.sources.flatMap((source) => source.facets.map((facet) => `${source.indexName}.facets.exact_matches.${facet.attribute}.value`));
  return { searchableAttributes: ['query'], customRanking: ['desc(popularity)'], attributesForFaceting: [...new Set(categories)] };
}

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
      sources: [{ indexName: name, facets: [{ attribute: options.attributes.categories[0], amount: 3 }], minHits: 3, minUsers: DEFAULT_MIN_USERS, minLetters: 2 }],
      exclude: options.suggestionsExclude,
    }));
}

/** Distinct users a query needs by default. */
const DEFAULT_MIN_USERS = 3;

/** A query's words, as the block list compares them: letters and digits, lower case. */
function wordsOf(text: string): string[] {
  return text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((word) => word !== '');
}

/** Whether `query` holds one of the blocked words or phrases (a run of whole words). */
function blocked(query: string, phrases: string[][]): boolean {
  const words = wordsOf(query);
  return phrases.some((phrase) => phrase.length > 0 && words.some((_, i) => phrase.every((word, k) => words[i + k] === word)));
}

export async function buildQuerySuggestions(db: InsightsDb, deps: InsightsDeps, options: InsightsOptions, now: number): Promise<SuggestionsReport[]> {
  const today = dayOf(now);
  const fromDay = today - options.suggestionsWindowDays + 1;
  const reports: SuggestionsReport[] = [];
  for (const config of await configs(db, deps, options, fromDay)) {
    const exclude = config.exclude.map(wordsOf);
    const records = new Map<string, IndexRecord & { query: string; popularity: number }>();
    for (const source of config.sources) {
      const minUsers = Math.min(source.minUsers ?? DEFAULT_MIN_USERS, MAX_USERS_COUNTED);
      const rows = db.prepare(`SELECT q.query AS query, SUM(q.searches) AS count FROM query_daily q WHERE q.index_name = @index AND q.day BETWEEN @from AND @to
        GROUP BY q.query HAVING SUM(q.searches) >= @minHits
          AND (SELECT COUNT(DISTINCT u.user) FROM query_user_daily u WHERE u.index_name = @index AND u.query = q.query AND u.day BETWEEN @from AND @to) >= @minUsers
        ORDER BY count DESC, query ASC LIMIT @limit`)
        .all({ index: source.indexName, from: fromDay, to: today, minHits: source.minHits, minUsers, limit: MAX_QUERIES }) as Array<{ query: string; count: number }>;
      const maxValues = Math.max(1, ...source.facets.map((f) => f.amount));
      let sliceStart = performance.now();
      for (const { query, count } of rows) {
        if (query.length < source.minLetters || blocked(query, exclude)) continue;
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
    await deps.saveSuggestions(config.indexName, list, suggestionsSettings(config));
    reports.push({ indexName: config.indexName, sources: config.sources.map((s) => s.indexName), records: list.length });
  }
  return reports;
}
