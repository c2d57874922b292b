/**
 * The first half of a search, shared by search, search-for-facet-values and browse: resolve options, evaluate
 * filters, expand the query words, compute the match set (with the retries of `removeWordsIfNoResults` and the
 * narrowing of `typoTolerance: min/strict`), and set up the ranking criteria.
 */
import type { IndexSettings, SearchParams, SynonymHit } from '@vitrine/protocol';
import type { SearchOptions } from '../api.ts';
import type { Bitset } from '../structures/bitset.ts';
import { queryBitsets } from '../structures/bitset-pool.ts';
import type { IndexStore } from '../index/store.ts';
import { andFilterNodes, buildFilterNode, evaluateFilter, evaluateFilterConjuncts, filterScoreTerms, optionalFiltersToNodes } from '../filter/index.ts';
import type { FilterList } from '@vitrine/protocol';
import type { FilterNode } from '../filter/types.ts';
import { hitsAsked, resolveOptions, type QueryOptions } from '../query/options.ts';
import { parseQuery, type ParsedQuery } from '../query/parse.ts';
import { withoutStopWords } from '../query/stop-words.ts';
import { decompound } from '../query/decompound.ts';
import type { Dictionaries } from '../query/dictionaries.ts';
import { combineWords, expandWords, postingsBitset, type WordCache } from '../query/match.ts';
import type { ExpandedWord } from '../query/expand.ts';
import type { SynonymTable } from '../query/synonyms.ts';
import type { DocumentScanner } from '../rank/scan.ts';
import type { RankContext, RankRule, OptionalFilter } from '../rank/rule.ts';
import { computeSortOrder, customOrderFor, extendSortOrder, sortOrderDeps, type CustomOrder } from '../rank/custom-rank.ts';
import { buildRules } from '../rank/rules/index.ts';
import { insertPersonalization, personalizationRule } from '../rank/personalization.ts';
import { reRankedDocs, reRankingRule, withReRanking, type ReRanked } from '../rank/re-ranking.ts';
import { geoDistance, geoKeyFor } from '../rank/geo-distance.ts';
import { adjacentPairsFor } from '../index/adjacent-pairs.ts';
import type { VectorStore } from '../vectors/vector-store.ts';

export interface SearchEnvironment {
  store: IndexStore;
  settings: IndexSettings;
  synonyms: SynonymTable | null;
  synonymHits?: SynonymHit[];
  scanner: DocumentScanner;
  words: WordCache;
  dictionaries: Dictionaries;
  /** Records' vectors, for hybrid searches (`vectors/hybrid.ts`). */
  vectors: VectorStore;
}

export interface PreparedSearch {
  options: QueryOptions;
  /** Every filter of the search (the request's and the forced one) as one tree; null: none. */
  filter: FilterNode | null;
  /** SearchOptions.highlightRetrievedOnly. */
  highlightRetrievedOnly: boolean;
  parsed: ParsedQuery;
  words: ExpandedWord[];
  required: boolean[];
  matches: Bitset;
  matchCount: number;
  rules: RankRule[];
  context: RankContext;
  customOrder: CustomOrder | null;
  /** Dynamic re-ranking's boosts that apply to this search (`rank/re-ranking.ts`); null: none. */
  reRanked: ReRanked | null;
}

export function prepareSearch(env: SearchEnvironment, params: SearchParams, override: IndexSettings | undefined, extra: SearchOptions | undefined): PreparedSearch {
  const { store, scanner } = env;
  const options = resolveOptions(params, env.settings, override);
  const filterNode = andFilterNodes(
    buildFilterNode({
      filters: params.filters,
      facetFilters: params.facetFilters,
      numericFilters: params.numericFilters,
      tagFilters: params.tagFilters,
    }),
    extra?.extraFilter,
  );
  // Live documents passing the filters, as the sets to intersect and to subtract: combineWords intersects them
  // with the words in one pass (the filter's top-level AND costs no pass of its own). Without deleted records
  // every id is live: intersecting with the live set would change nothing (at a million documents, 125 KB
  // read per search).
  const live = store.all();
  const conjuncts = filterNode === null ? null : evaluateFilterConjuncts(filterNode, store, queryBitsets);
  const filtered = conjuncts === null ? [live] : store.tombstones === 0 ? conjuncts.include : [...conjuncts.include, live];
  const filteredOut = conjuncts?.exclude ?? [];

  const parsed = parseQuery(options.query, {
    queryType: options.queryType,
    advancedSyntax: options.advancedSyntax,
    exactPhrase: options.exactPhrase,
    excludeWords: options.excludeWords,
    separatorsToIndex: options.separatorsToIndex,
  });
  const { dictionaries } = env;
  if (options.stopWordLanguages.length > 0) parsed.words = withoutStopWords(parsed.words, dictionaries.stopWords(options.stopWordLanguages));
  parsed.words = decompound(parsed.words, dictionaries, options.decompoundLanguages);
  const words = expandWords(store.text, parsed.words, options, env.synonyms, env.words, dictionaries);
  const excluded = [...filteredOut, ...parsed.excluded.map((term) => postingsBitset(store.text, term))];
  const slots = store.text.slots;
  const slotsNamed = (names: string[]): Set<number> => {
    const wanted = new Set(names);
    return new Set(slots.flatMap((slot, index) => (wanted.has(slot.attribute) ? [index] : [])));
  };
  const ignoredSlots = options.restrictSearchableAttributes === null ? new Set<number>() : new Set(slots.flatMap((slot, index) => (options.restrictSearchableAttributes!.includes(slot.attribute) ? [] : [index])));
  const scanOptions = {
    typoFreeSlots: slotsNamed(options.disableTypoToleranceOnAttributes),
    ignoredSlots,
    minProximity: options.minProximity,
    exactOnSingleWord: options.exactOnSingleWordQuery,
  };
  // Positions decide membership for phrases and for per-attribute restrictions: those need a scan per match.
  const verify = parsed.phraseCount > 0 || ignoredSlots.size > 0 || (scanOptions.typoFreeSlots.size > 0 && words.some((w) => w.maxTypos > 0));

  const attempt = (required: boolean[]): { matches: Bitset; count: number } => {
    const { matches, count } = combineWords(words, required, excluded, filtered, store.capacity);
    if (!verify || words.length === 0) return { matches, count };
    scanner.begin(words, required, scanOptions);
    matches.forEach((doc) => {
      scanner.scan(doc);
      if (scanner.validAt(doc) === 0) matches.delete(doc);
    });
    return { matches, count: matches.count() };
  };

  let required = words.map((w) => !options.optionalWords.has(w.word.term));
  // A query made only of optional words still needs one of them: the OR in combineWords handles that.
  let { matches, count } = attempt(required);
  if (count === 0 && words.length > 1 && options.removeWordsIfNoResults !== 'none') {
    const n = words.length;
    const tries: boolean[][] = [];
    if (options.removeWordsIfNoResults === 'allOptional') tries.push(words.map(() => false));
    else {
      for (let k = 1; k < n; k++) {
        tries.push(words.map((_, i) => required[i] && (options.removeWordsIfNoResults === 'lastWords' ? i < n - k : i >= k)));
      }
    }
    for (const attemptRequired of tries) {
      const result = attempt(attemptRequired);
      if (result.count > 0) {
        required = attemptRequired;
        ({ matches, count } = result);
        break;
      }
    }
  }

  scanner.begin(words, required, scanOptions);
  if (words.length > 0 && (options.typoTolerance === 'min' || options.typoTolerance === 'strict') && count > 0) {
    // Keep the matches with the fewest typos ("min"), or the two smallest typo counts ("strict").
    const seen = new Set<number>();
    matches.forEach((doc) => {
      scanner.scan(doc);
      seen.add(scanner.typosAt(doc));
    });
    const sorted = [...seen].sort((a, b) => a - b);
    const limit = options.typoTolerance === 'min' ? sorted[0] : sorted[Math.min(1, sorted.length - 1)];
    matches.forEach((doc) => {
      if (scanner.typosAt(doc) > limit) matches.delete(doc);
    });
    count = matches.count();
  }

  if (options.aroundLatLng !== null && typeof options.aroundRadius === 'number' && count > 0) {
    // aroundRadius filters: records farther than the radius (or without a location) are not hits.
    const [lat, lng] = options.aroundLatLng;
    const radius = options.aroundRadius;
    matches.forEach((doc) => {
      if (!(geoDistance(store, doc, lat, lng) <= radius)) matches.delete(doc);
    });
    count = matches.count();
  }

  const scoring = { sumOrFiltersScores: options.sumOrFiltersScores };
  const rankingFilters = [
    ...(options.optionalFilters === undefined || options.optionalFilters === null ? [] : optionalFiltersToNodes(options.optionalFilters as FilterList, scoring)),
    ...filterScoreTerms(filterNode, scoring),
  ];
  const optionalFilters: OptionalFilter[] = rankingFilters.map((f) => ({ set: evaluateFilter(f.node, store), score: f.score }));
  const customOrder = options.customRanking.length === 0 ? null : customOrderFor(store, options.customRanking);
  const context: RankContext = {
    text: store.text,
    words,
    scanner,
    verify,
    hasOptionalWords: required.some((r) => !r),
    minProximity: options.minProximity,
    adjacentPairs: () => adjacentPairsFor(store),
    exactOnSingleWord: options.exactOnSingleWordQuery,
    optionalFilters,
    custom: customOrder,
    sortOrder: (attribute, ascending) =>
      store.cached(
        `sort:${attribute}:${ascending}`,
        () => computeSortOrder(store.numericColumn(attribute).first, ascending),
        (previous) => extendSortOrder(previous, store.numericColumn(attribute).first, ascending),
        sortOrderDeps(attribute, ascending),
      ),
    geoKey: geoKeyFor(store, options),
  };
  // Learning orders hits and nothing else: a search that returns none (InstantSearch's facet-count queries beside a
  // page, a facet value search) skips it, its parameters still checked. The result cache keys such a search
  // without the shopper's learning (`result-cache.ts`), so shoppers share it.
  const learning = learningApplies(options, override) ? extra : undefined;
  const personalization = personalizationRule(store, env.settings, override, params, learning);
  const reRanked = reRankedDocs(store, env.settings, override, params, learning, matches, { personalized: personalization !== null, options });
  const ranked = buildRules(options.ranking, context);
  const rules = reRanked === null ? ranked : withReRanking(ranked, reRankingRule(reRanked));
  insertPersonalization(rules, personalization, customOrder);
  return { options, filter: filterNode, highlightRetrievedOnly: extra?.highlightRetrievedOnly === true, parsed, words, required, matches, matchCount: count, rules, context, customOrder, reRanked };
}

/**
 * Whether re-ranking and personalization can change the answer: when it has hits to order, or when a virtual
 * replica's relevant sort counts its relevant records (`nbSortedHits`, which ranks them with every criterion).
 */
function learningApplies(options: QueryOptions, override: IndexSettings | undefined): boolean {
  if (override !== undefined && options.relevancyStrictness !== undefined) return true;
  return hitsAsked(options) > 0;
}
