/**
 * `POST /1/indexes/*\/recommendations`: each request is answered from the models (lookups) and searches of the
 * index (content similarity), then the candidates are fetched in one search restricted to their objectIDs and
 * the request's `queryParameters` (so filters apply with the engine's own semantics), ordered by score, cut at
 * `threshold` and `maxRecommendations`, and completed with a `fallbackParameters` search when too few remain.
 */
import type { IndexRecord, RecommendationsResult, SearchParams, TrendingFacetHit } from '@vitrine/protocol';
import type { InsightsCaller, InsightsDeps, InsightsOptions } from './deps.ts';
import { attributeValue } from './deps.ts';
import { indexNotFound, invalidParameter, missingParameter } from './errors.ts';
import type { Models, ScoredItem, TrendStat } from './models.ts';
import { trendScore } from './models.ts';
import { boostOf, contextsOf, placePins, planRules, rulesReadSource, withFilter, withoutFilters } from './recommend-rules.ts';
import type { RulePlan } from './recommend-rules.ts';
import { contentCandidates, similarCandidates } from './similarity.ts';

const MODELS = new Set(['related-products', 'bought-together', 'trending-items', 'trending-facets', 'looking-similar']);
const MAX_RECOMMENDATIONS = 30;
const MAX_REQUESTS = 100;
/** Candidates fetched per request: enough for filters to remove many and still fill 30. */
const MAX_CANDIDATES = 200;
/** Trending facet rankings kept per model build: one per index, facet and forced filter of the keys asking. */
const MAX_CACHED_FACET_RANKINGS = 256;
/** Weight of the behavioural signal (co-interest) against content similarity in related-products. */
const CO_INTEREST_WEIGHT = 0.45;

export interface ParsedRecommendRequest {
  indexName: string;
  model: string;
  objectID?: string;
  facetName?: string;
  facetValue?: string;
  threshold: number;
  maxRecommendations: number;
  queryParameters: SearchParams;
  fallbackParameters?: SearchParams;
}

function paramsObject(value: unknown, name: string): SearchParams | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) throw invalidParameter(name, 'expected an object of search parameters');
  return value as SearchParams;
}

export function parseRecommendRequest(raw: unknown, i: number): ParsedRecommendRequest {
  const at = (name: string) => `requests[${i}].${name}`;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw invalidParameter(`requests[${i}]`, 'expected an object');
  const r = raw as Record<string, unknown>;
  if (typeof r.indexName !== 'string' || r.indexName === '') throw missingParameter(at('indexName'));
  if (typeof r.model !== 'string' || !MODELS.has(r.model)) throw invalidParameter(at('model'), 'expected related-products, bought-together, trending-items, trending-facets or looking-similar');
  const threshold = r.threshold ?? 0;
  if (typeof threshold !== 'number' || !(threshold >= 0 && threshold <= 100)) throw invalidParameter(at('threshold'), 'expected a number from 0 to 100');
  const max = r.maxRecommendations ?? MAX_RECOMMENDATIONS;
  if (typeof max !== 'number' || !Number.isInteger(max) || max < 1 || max > MAX_RECOMMENDATIONS) {
    throw invalidParameter(at('maxRecommendations'), `expected an integer from 1 to ${MAX_RECOMMENDATIONS}`);
  }
  const needsObject = r.model === 'related-products' || r.model === 'bought-together' || r.model === 'looking-similar';
  if (needsObject && (typeof r.objectID !== 'string' || r.objectID === '')) throw missingParameter(at('objectID'));
  if (r.model === 'trending-facets' && (typeof r.facetName !== 'string' || r.facetName === '')) throw missingParameter(at('facetName'));
  for (const name of ['facetName', 'facetValue'] as const) {
    if (r[name] !== undefined && typeof r[name] !== 'string') throw invalidParameter(at(name), 'expected a string');
  }
  if (r.model === 'trending-items' && (r.facetName === undefined) !== (r.facetValue === undefined)) {
    throw invalidParameter(at('facetValue'), 'facetName and facetValue go together');
  }
  return {
    indexName: r.indexName,
    model: r.model,
    objectID: needsObject ? (r.objectID as string) : undefined,
    facetName: r.facetName as string | undefined,
    facetValue: r.facetValue as string | undefined,
    threshold,
    maxRecommendations: max,
    queryParameters: paramsObject(r.queryParameters, at('queryParameters')) ?? {},
    fallbackParameters: paramsObject(r.fallbackParameters, at('fallbackParameters')),
  };
}

function asFilterList(value: unknown): Array<string | string[]> {
  if (value === undefined || value === null) return [];
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? (value as Array<string | string[]>) : [];
}

/** A facet-filter entry matching exactly this value (a leading `-` would mean negation). */
export function facetEntry(attribute: string, value: string): string {
  return `${attribute}:${value.startsWith('-') ? `\\${value}` : value}`;
}

function matchesFacet(record: IndexRecord, facetName: string, facetValue: string): boolean {
  const value = attributeValue(record, facetName);
  const wanted = facetValue.toLowerCase();
  const values = Array.isArray(value) ? value : [value];
  return values.some((v) => (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') && String(v).toLowerCase() === wanted);
}

export class Recommender<C extends InsightsCaller = InsightsCaller> {
  private facetCache = new Map<string, Array<{ facetValue: string; score: number }>>();
  private facetCacheBuiltAt = -1;

  constructor(
    private readonly deps: InsightsDeps<C>,
    private readonly options: InsightsOptions,
    private readonly models: () => Models,
  ) {}

  async recommend(body: unknown, caller: C | null, now: () => number): Promise<{ results: RecommendationsResult[] }> {
    if (typeof body !== 'object' || body === null || !Array.isArray((body as { requests?: unknown }).requests)) throw missingParameter('requests');
    const raw = (body as { requests: unknown[] }).requests;
    // Counted before parsing: a refused call costs nothing.
    if (raw.length > MAX_REQUESTS) throw invalidParameter('requests', `at most ${MAX_REQUESTS} requests per call`);
    const requests = raw.map(parseRecommendRequest);
    const indices = new Set(await this.deps.listIndices());
    for (const request of requests) {
      caller?.requireIndex(request.indexName);
      if (!indices.has(request.indexName)) throw indexNotFound();
    }
    const results: RecommendationsResult[] = [];
    for (const request of requests) {
      const started = now();
      const hits = await this.answer(request, caller, now);
      results.push({
        hits,
        nbHits: hits.length,
        page: 0,
        nbPages: hits.length > 0 ? 1 : 0,
        hitsPerPage: request.maxRecommendations,
        processingTimeMS: Math.max(0, now() - started),
        // As Algolia's recorded answers: every candidate was scored, none left out for time or typos.
        exhaustiveNbHits: true,
        exhaustiveTypo: true,
        exhaustive: { nbHits: true, typo: true },
        query: '',
        params: '',
        index: request.indexName,
      });
    }
    return { results };
  }

  private async answer(request: ParsedRecommendRequest, caller: C | null, now: () => number): Promise<RecommendationsResult['hits']> {
    // Recommend rules curate items: a trending facet's answer is facet values, which they do not touch.
    if (request.model === 'trending-facets') return this.trendingFacets(request, caller);
    const plan = await this.rulePlan(request, caller, now);
    const models = this.models();
    let candidates: ScoredItem[] = [];
    // The source item, hidden items and pinned ones (placed last) never come from the models.
    const exclude = new Set<string>([...(request.objectID ? [request.objectID] : []), ...(plan?.hide ?? []), ...(plan?.promote.map((pin) => pin.objectID) ?? [])]);
    switch (request.model) {
      case 'bought-together':
        candidates = models.boughtTogether(request.indexName, request.objectID!);
        break;
      case 'related-products':
        candidates = await this.related(request, models, caller);
        break;
      case 'looking-similar':
        candidates = await this.lookingSimilar(request, caller);
        break;
      case 'trending-items':
        candidates = await this.trendingItems(request, models, caller);
        break;
    }
    const kept = candidates.filter((c) => c.score >= request.threshold && !exclude.has(c.objectID)).slice(0, MAX_CANDIDATES);
    const hits: Array<IndexRecord & { _score?: number }> = await this.fetch(request, kept, caller, plan);
    if (hits.length < request.maxRecommendations && request.fallbackParameters) {
      const seen = new Set([...exclude, ...hits.map((h) => h.objectID)]);
      const fallback = await this.deps.search(request.indexName, {
        ...withFilter(request.fallbackParameters, plan?.filter ?? null),
        hitsPerPage: request.maxRecommendations + seen.size,
        page: 0,
        analytics: false,
        clickAnalytics: false,
      }, caller);
      for (const hit of fallback.hits) {
        if (hits.length >= request.maxRecommendations) break;
        if (!seen.has(hit.objectID)) hits.push(hit);
      }
    }
    if (!plan || plan.promote.length === 0) return hits;
    const scores = new Map(candidates.map((c) => [c.objectID, c.score]));
    return placePins(hits, await this.pins(request, plan, scores, caller), request.maxRecommendations);
  }

  /** The Recommend rules holding for this request, merged; null when none does (or `enableRules: false`). */
  private async rulePlan(request: ParsedRecommendRequest, caller: C | null, now: () => number): Promise<RulePlan | null> {
    if (!this.deps.recommendRules || request.queryParameters.enableRules === false) return null;
    const rules = await this.deps.recommendRules(request.indexName, request.model);
    if (rules.length === 0) return null;
    const source = request.objectID !== undefined && rulesReadSource(rules)
      ? ((await this.deps.getObjects(request.indexName, [request.objectID], caller))[0] ?? null)
      : null;
    return planRules(rules, { source, contexts: contextsOf(request.queryParameters), nowSeconds: Math.floor(now() / 1000) });
  }

  /**
   * The pinned items as the caller's key may see them (its forced filter applies), shown as the request asks
   * (attributes to retrieve, highlighting) but not held to its filters or the rules': a pin places an item the
   * merchant chose. Hidden items and the source item are not pinned. At most `MAX_CANDIDATES`, lowest positions first.
   */
  private async pins(request: ParsedRecommendRequest, plan: RulePlan, scores: Map<string, number>, caller: C | null): Promise<Array<{ hit: IndexRecord & { _score?: number }; position: number }>> {
    const pins = plan.promote
      .filter((pin) => !plan.hide.has(pin.objectID) && pin.objectID !== request.objectID)
      .sort((a, b) => a.position - b.position)
      .slice(0, MAX_CANDIDATES);
    if (pins.length === 0) return [];
    const response = await this.deps.search(request.indexName, {
      ...withoutFilters(request.queryParameters),
      query: '',
      facetFilters: [pins.map((pin) => facetEntry('objectID', pin.objectID))],
      hitsPerPage: pins.length,
      page: 0,
      analytics: false,
      clickAnalytics: false,
    }, caller);
    const found = new Map(response.hits.map((hit) => [hit.objectID, hit]));
    return pins.flatMap(({ objectID, position }) => {
      const hit = found.get(objectID);
      if (!hit) return [];
      const score = scores.get(objectID);
      return [{ hit: score === undefined ? hit : { ...hit, _score: score }, position }];
    });
  }

  /**
   * The candidates as records, through one search restricted to them, to the request's filters and to the
   * rules' (`plan`), best score first; items the rules boost before the others, those they bury after.
   */
  private async fetch(request: ParsedRecommendRequest, candidates: ScoredItem[], caller: C | null, plan: RulePlan | null): Promise<Array<IndexRecord & { _score: number }>> {
    if (candidates.length === 0) return [];
    const params = withFilter(request.queryParameters, plan?.filter ?? null);
    const response = await this.deps.search(request.indexName, {
      ...params,
      query: typeof params.query === 'string' ? params.query : '',
      facetFilters: [...asFilterList(params.facetFilters), candidates.map((c) => facetEntry('objectID', c.objectID))],
      hitsPerPage: candidates.length,
      page: 0,
      analytics: false,
      clickAnalytics: false,
    }, caller);
    const scores = new Map(candidates.map((c) => [c.objectID, c.score]));
    const hits = response.hits.map((hit) => ({ ...hit, _score: scores.get(hit.objectID) ?? 0 }));
    // Boosts read the whole records: the hits carry only the attributes the request retrieves.
    const boosts = new Map<string, number>();
    if (plan && plan.optional.length > 0) {
      const records = await this.deps.getObjects(request.indexName, hits.map((hit) => hit.objectID), caller);
      hits.forEach((hit, i) => boosts.set(hit.objectID, boostOf(records[i], plan.optional)));
    }
    const boost = (id: string) => boosts.get(id) ?? 0;
    return hits
      .sort((a, b) => boost(b.objectID) - boost(a.objectID) || b._score - a._score || (a.objectID < b.objectID ? -1 : 1))
      .slice(0, request.maxRecommendations);
  }

  // The source record is read as the caller's key may read it: one outside its forced filter is as missing, so
  // its attributes never steer what the key is recommended.
  private async related(request: ParsedRecommendRequest, models: Models, caller: C | null): Promise<ScoredItem[]> {
    const [record] = await this.deps.getObjects(request.indexName, [request.objectID!], caller);
    const content = record ? await contentCandidates(this.deps, this.options.attributes, request.indexName, record, request.queryParameters) : new Map<string, number>();
    const co = models.coInterest(request.indexName, request.objectID!);
    const blended = new Map<string, number>();
    for (const [id, similarity] of content) blended.set(id, (1 - CO_INTEREST_WEIGHT) * similarity * 100);
    for (const item of co) blended.set(item.objectID, (blended.get(item.objectID) ?? 0) + CO_INTEREST_WEIGHT * item.score);
    return [...blended]
      .map(([objectID, score]) => ({ objectID, score: Math.round(score * 100) / 100 }))
      .sort((a, b) => b.score - a.score || (a.objectID < b.objectID ? -1 : 1));
  }

  private async lookingSimilar(request: ParsedRecommendRequest, caller: C | null): Promise<ScoredItem[]> {
    const [record] = await this.deps.getObjects(request.indexName, [request.objectID!], caller);
    if (!record) return [];
    return similarCandidates(this.deps, this.options.attributes, request.indexName, record, request.queryParameters);
  }

  private async trendingItems(request: ParsedRecommendRequest, models: Models, caller: C | null): Promise<ScoredItem[]> {
    const list = models.trending(request.indexName);
    // Best first: the candidates past the first MAX_CANDIDATES would be cut anyway.
    if (request.facetName === undefined) return list.slice(0, MAX_CANDIDATES);
    // Walk the ranking in chunks until enough items carry the facet value.
    const out: ScoredItem[] = [];
    const chunk = 500;
    for (let start = 0; start < list.length && out.length < MAX_CANDIDATES; start += chunk) {
      const slice = list.slice(start, start + chunk);
      const records = await this.deps.getObjects(request.indexName, slice.map((item) => item.objectID), caller);
      slice.forEach((item, i) => {
        const record = records[i];
        if (record && matchesFacet(record, request.facetName!, request.facetValue!)) out.push(item);
      });
    }
    return out;
  }

  /**
   * Facet values ranked by the trend of their items plus the filter events naming them, as the caller's key
   * sees them: only a facet its searches can count (declared in attributesForFaceting, not filterOnly), only the
   * records inside its forced filter. Cached per model build, index, facet and forced filter.
   */
  private async trendingFacets(request: ParsedRecommendRequest, caller: C | null): Promise<TrendingFacetHit[]> {
    const facetName = request.facetName!;
    const counted = await this.deps.search(request.indexName, { query: '', hitsPerPage: 0, facets: [facetName], analytics: false, clickAnalytics: false }, caller);
    // Own keys only: `__proto__` or `constructor` must not read as counted facets.
    const countable = counted.facets && Object.hasOwn(counted.facets, facetName) ? counted.facets[facetName] : undefined;
    if (countable === undefined) {
      throw invalidParameter('facetName', `\`${facetName}\` is not a facet of ${request.indexName}: only attributes in attributesForFaceting, not filterOnly, can be asked`);
    }
    const models = this.models();
    if (this.facetCacheBuiltAt !== models.builtAt) {
      this.facetCache.clear();
      this.facetCacheBuiltAt = models.builtAt;
    }
    const key = `${request.indexName}\u0000${facetName}\u0000${caller?.visibilityKey ?? 'null'}`;
    let ranked = this.facetCache.get(key);
    if (!ranked) {
      ranked = await this.rankFacetValues(request.indexName, facetName, models, caller, new Set(Object.keys(countable)));
      if (this.facetCache.size >= MAX_CACHED_FACET_RANKINGS) this.facetCache.delete(this.facetCache.keys().next().value!);
      this.facetCache.set(key, ranked);
    }
    return ranked
      .filter((entry) => entry.score >= request.threshold)
      .slice(0, request.maxRecommendations)
      .map((entry) => ({ facetName: request.facetName!, facetValue: entry.facetValue, _score: entry.score }));
  }

  /**
   * `visibleValues`: the facet's values the key's own search counted. Filter events, which any shopper sends,
   * count only for those and for the values of the items it may see, never for a value only others' records carry.
   */
  private async rankFacetValues(
    indexName: string, facetName: string, models: Models, caller: C | null, visibleValues: ReadonlySet<string>,
  ): Promise<Array<{ facetValue: string; score: number }>> {
    const stats = new Map<string, TrendStat>();
    const add = (value: string, stat: TrendStat) => {
      const current = stats.get(value) ?? { recent: 0, previous: 0 };
      current.recent += stat.recent;
      current.previous += stat.previous;
      stats.set(value, current);
    };
    const items = models.itemStats(indexName);
    for (let start = 0; start < items.length; start += 1000) {
      const slice = items.slice(start, start + 1000);
      const records = await this.deps.getObjects(indexName, slice.map((item) => item.objectID), caller);
      slice.forEach((stat, i) => {
        const record = records[i];
        if (!record) return;
        const value = attributeValue(record, facetName);
        for (const v of Array.isArray(value) ? value : [value]) {
          if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') add(String(v), stat);
        }
      });
    }
    const prefix = `${facetName}\u0000`;
    const signals = models.facetSignals(indexName);
    for (const { objectID: key, ...stat } of signals.slice(0, signals.length)) {
      if (!key.startsWith(prefix)) continue;
      const value = key.slice(prefix.length);
      if (stats.has(value) || visibleValues.has(value)) add(value, stat);
    }
    const ranked = [...stats].filter(([, s]) => s.recent > 0).map(([facetValue, s]) => ({ facetValue, score: trendScore(s) }));
    ranked.sort((a, b) => b.score - a.score || (a.facetValue < b.facetValue ? -1 : 1));
    const top = ranked[0]?.score ?? 1;
    return ranked.map((entry) => ({ facetValue: entry.facetValue, score: Math.round((entry.score / top) * 10_000) / 100 }));
  }
}
