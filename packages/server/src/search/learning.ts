/**
 * What the shop learned, attached to a search's queries on the main thread before they go to a search thread
 * (issue 45). One function, `withLearning`, used by the search routes and by server-rendered pages
 * (`pages/backend.ts`), so a rendered first page is ordered as the browser's searches after it:
 * - A/B tests: a default query naming the first index of an active test goes to the searcher's variant
 *   (`@vitrine/insights`' `AbTests.route`): its index, with its custom search parameters over the request's and
 *   the key's forced parameters over both (the key's forced filter is the call's, so it holds on either
 *   variant). Queries with `enableABTest: false`, facet queries and indexes in no test go as they came;
 * - dynamic re-ranking's boosts for the query (`Insights.reRankingFor`); the engine applies them when the index
 *   enables re-ranking (`enableReRanking`) and the search does not turn it off;
 * - query categorization (`extensions.queryCategorization` of the response) when the search asks for it
 *   (`extensions: { queryCategorization: { enableCategoriesRetrieval: true } }`), and its automatic boost: when the
 *   search asks (`enableAutoFiltering: true`) or the index's `queryCategorizationAutoFiltering` setting is true (off
 *   by default; a search's `enableAutoFiltering: false` wins), the predicted category of a high or better bin
 *   is added to the search's `optionalFilters`: its records come first, none is left out;
 * - personalization: each query that may be personalized (`enablePersonalization` true, or not false and the
 *   index's setting on) gets the searching user's affinities (a cached profile, or one row of the profiles file);
 *   the engine applies them (`rank/personalization.ts` of the engine).
 * Lookups in memory only: a search never waits for learning.
 */
import type { QueryCategorization, SearchExtensions } from '@vitrine/protocol';
import type { Insights } from '@vitrine/insights';
import type { AuthContext } from '../auth/authenticate.ts';
import type { ServerLimits } from '../config.ts';
import type { IndexRegistry } from '../storage/registry.ts';
import type { QuerySpec } from './queries.ts';
import { withForcedParams } from './run.ts';

/** Who searches, as far as learning needs to know. */
export interface Searcher {
  /** The `X-Algolia-UserToken` header (routes), or the shopper's token from a cookie (rendered pages). */
  userToken?: string;
  /**
   * The client's address, which A/B tests split users by when no user token is known (as the search log counts
   * users); undefined: no one to split (a rendered page without the shopper's token is routed to no variant).
   */
  address?: string;
  auth: AuthContext | null;
}

export type LearningSource = Pick<Insights, 'reRankingFor' | 'queryCategorization' | 'personalization' | 'abTests'>;

/** Longer tokens count as the address, as the search log counts users (`userOf` in insights). */
const MAX_USER_TOKEN_LENGTH = 129;
const CONFIDENT = new Set(['certain', 'very high', 'high']);

/** The query's user token: its `userToken` parameter, else the searcher's. */
function userTokenOf(params: QuerySpec['params'], searcher: Searcher): string | undefined {
  return typeof params.userToken === 'string' ? params.userToken : searcher.userToken;
}

/** Who an A/B test splits: the user token, else the address. */
function splitKey(params: QuerySpec['params'], searcher: Searcher): string | undefined {
  const token = userTokenOf(params, searcher);
  return token !== undefined && token !== '' && token.length <= MAX_USER_TOKEN_LENGTH ? token : searcher.address;
}

function routed(query: QuerySpec, insights: LearningSource, searcher: Searcher, limits: ServerLimits): QuerySpec {
  if (query.type !== 'default' || query.params.enableABTest === false) return query;
  const key = splitKey(query.params, searcher);
  const route = key === undefined ? undefined : insights.abTests.route(query.indexName, key);
  if (!route) return query;
  const params = route.customSearchParameters ? withForcedParams({ ...query.params, ...route.customSearchParameters }, searcher.auth, limits) : query.params;
  return { ...query, indexName: route.index, params, abTest: { abTestID: route.abTestID, abTestVariantID: route.abTestVariantID, requestedIndex: query.indexName } };
}

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

function attachReRankingAndCategories(query: QuerySpec, insights: LearningSource, registry: IndexRegistry): void {
  const boosts = insights.reRankingFor(query.indexName, query.params.query);
  if (boosts !== undefined) query.reRanking = boosts;
  const asked = (query.params.extensions as SearchExtensions | undefined)?.queryCategorization;
  const setting = registry.get(query.indexName)?.settings.queryCategorizationAutoFiltering === true;
  const autoFiltering = typeof asked?.enableAutoFiltering === 'boolean' ? asked.enableAutoFiltering : setting;
  if (asked?.enableCategoriesRetrieval !== true && !autoFiltering) return;
  const categorization = insights.queryCategorization(query.indexName, query.params.query);
  const boost = autoFiltering ? autoBoost(categorization) : undefined;
  if (boost !== undefined) query.params = { ...query.params, optionalFilters: withOptionalFilter(query.params.optionalFilters, boost.filter) };
  if (asked?.enableCategoriesRetrieval !== true) return;
  const autofiltering = boost === undefined ? { enabled: false } : { enabled: true, maxDepth: boost.depth + 1, facetFilters: [boost.filter] };
  query.categorization = Object.keys(categorization).length === 0 ? {} : { ...categorization, autofiltering };
}

function personalize(query: QuerySpec, insights: LearningSource, registry: IndexRegistry, searcher: Searcher): void {
  const asked = query.params.enablePersonalization as unknown;
  if (asked === false || asked === 'false') return;
  if (asked !== true && asked !== 'true') {
    const entry = registry.get(query.indexName);
    const override = entry === undefined ? undefined : registry.searchSettingsOf(entry);
    if ((override?.enablePersonalization ?? entry?.settings.enablePersonalization) !== true) return;
  }
  const input = insights.personalization.searchInput(userTokenOf(query.params, searcher));
  if (input !== undefined) query.personalization = input;
}

/** The queries as the active A/B tests send them, each default query carrying what the shop learned. */
export function withLearning(queries: QuerySpec[], searcher: Searcher, insights: LearningSource, registry: IndexRegistry, limits: ServerLimits): QuerySpec[] {
  return queries.map((query) => {
    const out = routed(query, insights, searcher, limits);
    if (out.type !== 'default') return out;
    attachReRankingAndCategories(out, insights, registry);
    personalize(out, insights, registry, searcher);
    return out;
  });
}
