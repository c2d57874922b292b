/**
 * Dynamic re-ranking's hand on a search (Algolia's `enableReRanking`): the records shoppers engaged with more
 * than their positions predicted, for this query, move up. The engine learns nothing: the server hands it the
 * query's boosts (`SearchOptions.reRanking`, from `@vitrine/insights`' re-ranking model) and the engine decides
 * whether and where they apply:
 * - only when the index enables it (the `enableReRanking` setting, off by default, as on Algolia where the
 *   dashboard turns it on) and the search does not turn it off (the `enableReRanking` parameter, default true);
 * - only to records that `reRankingApplyFilter` lets through (the search's, else the setting's);
 * - not on a personalized search unless it says `allowReRankingOnPersonalization` (Algolia's default: the two
 *   would both move records the shopper sees, and the shop chooses whether they may), and never with
 *   `distinct` above 1 (a group's members would be reordered apart from their group, as Algolia also declines);
 * - only to records the search found: a ranking criterion, so the match set (filters, a secured key's filter,
 *   hidden records) is untouched, nbHits and facets are the same, and rules' pins, placed after ranking
 *   (`search/merchandise.ts`), keep their positions.
 *
 * The criterion comes first, after the leading sort criteria of a sorted replica (`asc(price)`), whose order it
 * only breaks ties of: a sorted list stays sorted.
 */
import type { FilterList, IndexSettings, RankingInfo, SearchParams } from '@vitrine/protocol';
import type { SearchOptions } from '../api.ts';
import { createEngineError } from '../errors.ts';
import { buildFilterNode } from '../filter/build.ts';
import { evaluateFilter } from '../filter/evaluate.ts';
import type { QueryOptions } from '../query/options.ts';
import type { FilterNode } from '../filter/types.ts';
import type { IndexStore } from '../index/store.ts';
import type { Bitset } from '../structures/bitset.ts';
import { queryBitsets } from '../structures/bitset-pool.ts';
import type { BucketPart, RankRule } from './rule.ts';

/** One record's learned boost for a query, with what it was learned from (shown in `_rankingInfo.reRanking`). */
export interface ReRankingBoost {
  objectID: string;
  /** Observed engagement over the engagement its positions predicted, shrunk towards 1; above 1 moves it up. */
  score: number;
  clicks: number;
  conversions: number;
  /** Clicks its positions predicted (the shop's position click-through curve). */
  expectedClicks: number;
}

/** What the server passes for a search: the boosts learned for its (normalised) query, best first. */
export interface ReRankingInput {
  query: string;
  boosts: ReRankingBoost[];
}

/** The boosts that apply to this search, by document. */
export type ReRanked = Map<number, ReRankingBoost>;

function setting<K extends keyof IndexSettings>(settings: IndexSettings, override: IndexSettings | undefined, name: K): IndexSettings[K] {
  return override !== undefined && override[name] !== undefined ? override[name] : settings[name];
}

/** `reRankingApplyFilter` as a filter tree: a filter string, or a list as `facetFilters` reads it; null: none. */
export function reRankingFilterNode(value: unknown, code: 'INVALID_SETTING' | 'INVALID_PARAMETER' = 'INVALID_SETTING'): FilterNode | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return value.trim() === '' ? null : buildFilterNode({ filters: value });
  if (Array.isArray(value)) return value.length === 0 ? null : buildFilterNode({ facetFilters: value as FilterList });
  throw createEngineError(code, 'reRankingApplyFilter', 'expected a filter string, an array of filters or null');
}

/**
 * Checks of the learning settings (a bad PUT settings is a 400 at once, not a failing search later), with
 * `queryCategorizationAutoFiltering`, which the server reads (the engine has no use for it).
 */
export function validateReRankingSettings(settings: IndexSettings): void {
  for (const name of ['enableReRanking', 'queryCategorizationAutoFiltering'] as const) {
    if (settings[name] !== undefined && typeof settings[name] !== 'boolean') throw createEngineError('INVALID_SETTING', name, 'expected a boolean');
  }
  reRankingFilterNode(settings.reRankingApplyFilter);
}

/** The boosts that apply to this search (null: none), among the records of `matches`. */
export function reRankedDocs(
  store: IndexStore,
  settings: IndexSettings,
  override: IndexSettings | undefined,
  params: SearchParams,
  extra: SearchOptions | undefined,
  matches: Bitset,
  search: { personalized: boolean; options: Pick<QueryOptions, 'reRankingAsked' | 'allowReRankingOnPersonalization' | 'distinct'> },
): ReRanked | null {
  // A malformed parameter is a 400 whether or not the query has boosts.
  const asked = params.reRankingApplyFilter === undefined ? undefined : reRankingFilterNode(params.reRankingApplyFilter, 'INVALID_PARAMETER');
  const input = extra?.reRanking;
  if (input === undefined || input.boosts.length === 0) return null;
  if (setting(settings, override, 'enableReRanking') !== true) return null;
  const { reRankingAsked, allowReRankingOnPersonalization, distinct } = search.options;
  if (!reRankingAsked || (search.personalized && !allowReRankingOnPersonalization) || distinct > 1) return null;
  const node = asked !== undefined ? asked : reRankingFilterNode(setting(settings, override, 'reRankingApplyFilter'));
  const allowed = node === null ? null : evaluateFilter(node, store);
  const reRanked: ReRanked = new Map();
  for (const boost of input.boosts) {
    const doc = store.docOf(boost.objectID);
    if (doc === undefined || !matches.has(doc) || (allowed !== null && !allowed.has(doc)) || !(boost.score > 1)) continue;
    if (!reRanked.has(doc)) reRanked.set(doc, boost);
  }
  return reRanked.size === 0 ? null : reRanked;
}

/**
 * The criterion: boosted records first, higher score first; the others tied. Large buckets are split rather
 * than keyed record by record: one part per boosted record in the bucket, then the rest.
 */
export function reRankingRule(reRanked: ReRanked): RankRule {
  const ordered = [...reRanked.entries()].sort((a, b) => b[1].score - a[1].score || a[0] - b[0]).map(([doc]) => doc);
  return {
    name: 'reRanking',
    // `0 - x`, not `-x`: a record not re-ranked would key -0, a heap number per document (see rules/exact.ts).
    key: (doc) => 0 - (reRanked.get(doc)?.score ?? 0),
    split(set: Bitset, count: number): BucketPart[] {
      const parts: BucketPart[] = [];
      const rest = (): Bitset => {
        const others = queryBitsets.copy(set);
        for (const doc of ordered) others.delete(doc);
        return others;
      };
      let inBucket = 0;
      for (const doc of ordered) {
        if (!set.has(doc)) continue;
        inBucket++;
        parts.push({ set: () => single(set.capacity, doc), ids: () => Uint32Array.of(doc), count: 1, resolved: true });
      }
      parts.push({ set: rest, count: count - inBucket, resolved: true });
      return parts;
    },
  };
}

/** A set of the search's own (from the thread's pool, handed back when the search ends). */
function single(capacity: number, doc: number): Bitset {
  const set = queryBitsets.acquire(capacity);
  set.add(doc);
  return set;
}

/** The criteria with re-ranking inserted first, after the leading sort criteria (`asc(…)`/`desc(…)`). */
export function withReRanking(rules: RankRule[], rule: RankRule): RankRule[] {
  let at = 0;
  while (at < rules.length && /^(asc|desc)\(/.test(rules[at].name)) at++;
  return [...rules.slice(0, at), rule, ...rules.slice(at)];
}

/** `_rankingInfo` of a boosted hit: that re-ranking placed it, and what from. */
export function reRankingInfo(boost: ReRankingBoost | undefined): Pick<RankingInfo, 'promotedByReRanking' | 'reRanking'> {
  if (boost === undefined) return {};
  const { score, clicks, conversions, expectedClicks } = boost;
  return { promotedByReRanking: true, reRanking: { score, clicks, conversions, expectedClicks } };
}
