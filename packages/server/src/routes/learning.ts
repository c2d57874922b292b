/**
 * What the shop learned, attached to each search before it goes to a search thread (issue 45):
 * - dynamic re-ranking's boosts for the query (`Insights.reRankingFor`); the engine applies them when the index
 *   enables re-ranking (`enableReRanking`) and the search does not turn it off;
 * - query categorization (`extensions.queryCategorization` of the response) when the search asks for it
 *   (`extensions: { queryCategorization: { enableCategoriesRetrieval: true } }`), and its automatic boost: when the
 *   search asks (`enableAutoFiltering: true`) or the index's `queryCategorizationAutoFiltering` setting is true (off
 *   by default; a search's `enableAutoFiltering: false` wins), the predicted category of a high or better bin
 *   is added to the search's `optionalFilters`: its records come first, none is left out.
 * Lookups in memory only: a search never waits for learning.
 */
import type { QueryCategorization, SearchExtensions } from '@vitrine/protocol';
import type { Insights } from '@vitrine/insights';
import type { QuerySpec } from '../search/queries.ts';
import type { IndexRegistry } from '../storage/registry.ts';

const CONFIDENT = new Set(['certain', 'very high', 'high']);

/** The `optionalFilters` entry a confident prediction adds, or undefined. */
function autoBoost(categorization: QueryCategorization): { filter: string; depth: number } | undefined {
  const [first] = categorization.categories ?? [];
  if (first === undefined || !CONFIDENT.has(first.bin) || categorization.type === 'ambiguous') return undefined;
  const deepest = first.hierarchyPath[first.hierarchyPath.length - 1];
  const value = deepest.facetValue.startsWith('-') ? `\\${deepest.facetValue}` : deepest.facetValue;
  return { filter: `${deepest.facetName}:${value}`, depth: deepest.depth };
}

function withOptionalFilter(existing: unknown, filter: string): Array<string | string[]> {
  if (existing === undefined || existing === null || existing === '') return [filter];
  return [...(Array.isArray(existing) ? (existing as Array<string | string[]>) : [String(existing)]), filter];
}

export function attachLearning(queries: QuerySpec[], insights: Pick<Insights, 'reRankingFor' | 'queryCategorization'>, registry: IndexRegistry): void {
  for (const query of queries) {
    if (query.type !== 'default') continue;
    const boosts = insights.reRankingFor(query.indexName, query.params.query);
    if (boosts !== undefined) query.reRanking = boosts;
    const asked = (query.params.extensions as SearchExtensions | undefined)?.queryCategorization;
    const setting = registry.get(query.indexName)?.settings.queryCategorizationAutoFiltering === true;
    const autoFiltering = typeof asked?.enableAutoFiltering === 'boolean' ? asked.enableAutoFiltering : setting;
    if (asked?.enableCategoriesRetrieval !== true && !autoFiltering) continue;
    const categorization = insights.queryCategorization(query.indexName, query.params.query);
    const boost = autoFiltering ? autoBoost(categorization) : undefined;
    if (boost !== undefined) query.params = { ...query.params, optionalFilters: withOptionalFilter(query.params.optionalFilters, boost.filter) };
    if (asked?.enableCategoriesRetrieval !== true) continue;
    const autofiltering = boost === undefined ? { enabled: false } : { enabled: true, maxDepth: boost.depth + 1, facetFilters: [boost.filter] };
    query.categorization = Object.keys(categorization).length === 0 ? {} : { ...categorization, autofiltering };
  }
}
