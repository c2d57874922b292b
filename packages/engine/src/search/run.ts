/**
 * The second half of a search: facets, page selection and the response (hits with highlight, snippet and
 * ranking info), plus search-for-facet-values and browse on the same prepared match set.
 */
import type {
  BrowseResponse,
  FacetHit,
  FacetStats,
  Hit,
  IndexRecord,
  IndexSettings,
  RankingInfo,
  SearchForFacetValuesResponse,
  SearchParams,
  SearchResponse,
} from '@vitrine/protocol';
import type { SearchOptions } from '../api.ts';
import { createEngineError } from '../errors.ts';
import { buildFacetRows, countFacets, extendFacetRows, countFacetValues, facetStats, sharedRowColumns, topFacetValues, type FacetRows } from '../facet/count.ts';
import { highlightFacetValue, highlightRecord, snippetRecord, type HighlightOptions, type HighlightQuery, type SnippetOptions } from '../highlight/index.ts';
import { hitsAsked, type SnippetSpec } from '../query/options.ts';
import type { FacetColumn } from '../index/facet-column.ts';
import { parseRecord } from '../index/record-list.ts';
import { parseAttributesForFaceting, type FacetAttribute } from '../settings.ts';
import { terms } from '../tokenize/index.ts';
import { encodeParams, parseRetrieve, retrieve, type RetrieveSpec } from '../response/retrieve.ts';
import { prepareSearch, type PreparedSearch, type SearchEnvironment } from './prepare.ts';
import { reRankingInfo } from '../rank/re-ranking.ts';
import { personalizationInfo } from '../rank/personalization.ts';
import { distinctCount, distinctGroups, distinctMatches, distinctPrefix, rankedPrefix, relevantSort } from './select.ts';
import { geoDistance } from '../rank/geo-distance.ts';
import { topLevel } from '../index/changes.ts';
import { NO_RECORD_READS } from '../index/store.ts';
import type { FilterNode } from '../filter/types.ts';
import type { RulePlan } from '../rules/consequences.ts';
import { merchandise, placePins } from './merchandise.ts';
import { selectHybrid, semanticSide, type HybridSelection } from '../vectors/hybrid.ts';
import { hitVectors, vectorsShown } from '../vectors/retrieve.ts';

export type { SearchEnvironment } from './prepare.ts';

/** The query words as highlighting and snippets need them (also used by `bench/highlight.ts`). */
export function highlightQuery(prepared: PreparedSearch): HighlightQuery {
  return {
    words: prepared.words.map((w) => ({
      original: w.word.original,
      term: w.word.term,
      prefix: w.word.prefix,
      maxTypos: w.maxTypos,
      ...(w.alternativeTerms.length > 0 ? { alternatives: w.alternativeTerms } : {}),
    })),
  };
}

/**
 * Facet names to count: the requested ones (`*`: all) among the attributesForFaceting entries. filterOnly ones
 * are never counted, even when named: as in Algolia, they filter but do not give away their values.
 */
function facetNames(env: SearchEnvironment, requested: string[]): string[] {
  const parsed = parseAttributesForFaceting(env.settings.attributesForFaceting);
  let countable = countableFacets.get(parsed);
  if (countable === undefined) {
    countable = parsed.filter((f) => !f.filterOnly).map((f) => f.attribute);
    countableFacets.set(parsed, countable);
  }
  // One array, no set: a handful of names (a search asks for this twice).
  const names = requested.includes('*') ? countable : requested;
  const out: string[] = [];
  for (const name of names) if (!out.includes(name) && countable.includes(name) && env.store.facets.has(name)) out.push(name);
  return out;
}

/** The countable attributes of each parsed attributesForFaceting list (those lists are memoised and shared). */
const countableFacets = new WeakMap<readonly FacetAttribute[], string[]>();

/** The store's cache key of the rows of these columns. */
function rowsKey(columns: FacetColumn[]): string {
  return `rows:${columns.map((column) => column.attribute).join('\u0000')}`;
}

/** Whether a facet lies under an unretrievable attribute (`cost` hides `cost` and `cost.eur`). */
function unretrievableFacet(name: string, unretrievable: string[]): boolean {
  return unretrievable.some((attribute) => name === attribute || name.startsWith(`${attribute}.`));
}

function computeFacets(env: SearchEnvironment, prepared: PreparedSearch, groups: Int32Array | null, extra: SearchOptions | undefined): Pick<SearchResponse, 'facets' | 'facets_stats'> {
  const { options } = prepared;
  const { set: matches, count: matchCount } =
    groups !== null && options.facetingAfterDistinct ? distinctMatches(prepared.matches, groups, options.distinct) : { set: prepared.matches, count: prepared.matchCount };
  if (options.facets.length === 0) return {};
  const hidden = extra?.unretrievableFacets === true ? [] : options.unretrievableAttributes;
  const names = facetNames(env, options.facets).filter((name) => !unretrievableFacet(name, hidden));
  const facets: Record<string, Record<string, number>> = {};
  const stats: Record<string, FacetStats> = {};
  const columns = names.map((name) => env.store.facets.get(name)!);
  const allCounts = countFacets(columns, matches, matchCount, (walked) => {
    // A set of columns walked for the first time reads the shared rows, built by the first walk of any set (the
    // warm-up's: no build in a shopper's first search after a restart); its own, narrower rows are built when it
    // is walked again (shared rows are wider: a set's own rows count its facets in about half the time).
    const own = rowsKey(walked);
    const seen = env.store.cached('facet row sets walked', () => new Set<string>(), (previous) => previous, NO_RECORD_READS);
    const firstWalk = !seen.has(own) && !env.store.hasCached(own);
    seen.add(own);
    const rowsOf = (inRows: FacetColumn[]): FacetRows =>
      env.store.cached(
        rowsKey(inRows),
        () => buildFacetRows(inRows, env.store.capacity),
        (previous, from) => extendFacetRows(previous, inRows, from, env.store.capacity),
        // Built from facet columns: a change in place never touches them.
        NO_RECORD_READS,
      );
    if (firstWalk) {
      // Once per version of the store: worked out per search, it cost facet-heavy searches 10-20%.
      const shared = env.store.cached('shared facet rows', () => sharedRowColumns(facetNames(env, ['*']).map((name) => env.store.facets.get(name)!)), undefined, NO_RECORD_READS);
      const sharedRows = shared.length > 0 ? rowsOf(shared) : null;
      if (sharedRows !== null && walked.every((column) => shared.includes(column))) return { rows: sharedRows, positions: walked.map((column) => shared.indexOf(column)) };
    }
    return { rows: rowsOf(walked), positions: walked.map((_, c) => c) };
  });
  for (let i = 0; i < names.length; i++) {
    const name = names[i];
    const column = columns[i];
    const counts = allCounts[i];
    facets[name] = topFacetValues(column, counts, options.maxValuesPerFacet, options.sortFacetValuesBy);
    const stat = facetStats(column, counts);
    if (stat !== null) stats[name] = stat;
  }
  return Object.keys(stats).length > 0 ? { facets, facets_stats: stats } : { facets };
}

/** What building any hit of a search needs, fixed when its page is chosen. */
interface HitSpec {
  query: HighlightQuery;
  highlightAttributes: string[];
  retrieve: RetrieveSpec;
  /** What highlighting may read: everything but unretrievable attributes, or only what is retrieved; null: the whole record. */
  visible: RetrieveSpec | null;
  tags: HighlightOptions;
  snippets: SnippetSpec[];
  snippetOptions: SnippetOptions;
}

function hitSpec(env: SearchEnvironment, prepared: PreparedSearch): HitSpec {
  const { options } = prepared;
  const retrieve = parseRetrieve(options.attributesToRetrieve, options.unretrievableAttributes);
  let visible: RetrieveSpec | null = null;
  if (prepared.highlightRetrievedOnly) visible = retrieve;
  else if (options.unretrievableAttributes.length > 0) visible = parseRetrieve(['*'], options.unretrievableAttributes);
  const tags = { preTag: options.highlightPreTag, postTag: options.highlightPostTag, separatorsToIndex: options.separatorsToIndex };
  return {
    query: highlightQuery(prepared),
    highlightAttributes: defaultHighlightAttributes(env, prepared),
    retrieve,
    visible,
    tags,
    snippets: options.attributesToSnippet,
    snippetOptions: { ...tags, ellipsis: options.snippetEllipsisText },
  };
}

/** `_rankingInfo` of a hit: read from the search's scratch state, so computed while the search holds it. */
function rankingInfo(env: SearchEnvironment, prepared: PreparedSearch, doc: number, promoted: ReadonlySet<number> | null): RankingInfo {
  const { options, context } = prepared;
  const { scanner } = context;
  if (prepared.words.length > 0) scanner.scan(doc);
  const textual = prepared.words.length > 0;
  let filters = 0;
  for (const filter of context.optionalFilters) if (filter.set.has(doc)) filters += filter.score;
  return {
    nbTypos: textual ? scanner.typosAt(doc) : 0,
    firstMatchedWord: textual ? scanner.attributeAt(doc) : 0,
    proximityDistance: textual ? scanner.proximityAt(doc) : 0,
    // Ranks of documents written since the last merge are fractional: the score counts whole places.
    userScore: context.custom === null ? 0 : context.custom.rank.length - Math.ceil(context.custom.rank[doc]),
    geoDistance: options.aroundLatLng === null ? 0 : Math.round(geoDistance(env.store, doc, options.aroundLatLng[0], options.aroundLatLng[1])),
    geoPrecision: options.aroundPrecision,
    nbExactWords: textual ? scanner.exactAt(doc) : 0,
    words: textual ? scanner.matchedWordsAt(doc) : 0,
    filters,
    ...(promoted?.has(doc) === true ? { promoted: true } : {}),
    ...reRankingInfo(prepared.reRanked?.get(doc)),
    ...personalizationInfo(prepared.rules, doc),
  };
}

function buildHit(record: IndexRecord, spec: HitSpec, info: RankingInfo | undefined): Hit {
  const { query, highlightAttributes } = spec;
  // Unretrievable attributes must not leak through highlighting either.
  const visible = spec.visible === null ? record : retrieve(record, spec.visible);
  const highlighted = highlightAttributes.length > 0 ? highlightRecord(visible, highlightAttributes, query, spec.tags) : undefined;
  const snippeted = spec.snippets.length > 0 ? snippetRecord(visible, spec.snippets, query, spec.snippetOptions) : undefined;
  // The record was parsed for this hit alone: when every attribute is retrieved, it becomes the hit (no copy).
  const hit = (spec.retrieve.all && spec.retrieve.exclude.length === 0 ? record : retrieve(record, spec.retrieve)) as Hit;
  if (highlighted !== undefined) hit._highlightResult = highlighted;
  if (snippeted !== undefined) hit._snippetResult = snippeted;
  if (info !== undefined) hit._rankingInfo = info;
  return hit;
}

/**
 * The hits of a chosen page, built when asked, a few at a time if the caller wants (`SteppedSearch`): from the
 * records' bytes as they were when the page was chosen (`RecordList.bytes`), so writes made meanwhile change
 * nothing of the page, and with nothing of the search's scratch state (ranking info is read up front).
 */
export class PageHits {
  private readonly records: Uint8Array[];
  private readonly infos: RankingInfo[] | null;
  /** The hits' `_vectors`, read with their records (null: hits show none). */
  private readonly vectors: Array<Record<string, number[]> | undefined> | null;
  private next = 0;

  /** `params`: the search's, for `retrieveVectors`; `hybrid`: a hybrid search's ranks and scores. */
  constructor(env: SearchEnvironment, prepared: PreparedSearch, docs: number[], promoted: ReadonlySet<number> | null = null, params: SearchParams = {}, hybrid: HybridSelection | null = null, private readonly spec = hitSpec(env, prepared)) {
    this.records = docs.map((doc) => env.store.records.bytes(doc)!);
    this.infos = prepared.options.getRankingInfo ? docs.map((doc) => ({ ...rankingInfo(env, prepared, doc, promoted), ...hybrid?.info(doc) })) : null;
    const shown = vectorsShown(params, prepared.options.attributesToRetrieve, prepared.options.unretrievableAttributes);
    this.vectors = shown === null ? null : docs.map((doc) => hitVectors(env.vectors, doc, shown));
  }

  get remaining(): number {
    return this.records.length - this.next;
  }

  /** JSON bytes of the records whose hits are still to build. */
  get remainingBytes(): number {
    let bytes = 0;
    for (let i = this.next; i < this.records.length; i++) bytes += this.records[i].byteLength;
    return bytes;
  }

  /** Builds up to `count` more hits into `hits`. */
  build(count: number, hits: Hit[]): void {
    const end = Math.min(this.records.length, this.next + count);
    for (; this.next < end; this.next++) {
      const hit = buildHit(parseRecord(this.records[this.next]), this.spec, this.infos?.[this.next]);
      const vectors = this.vectors?.[this.next];
      if (vectors !== undefined) hit._vectors = vectors;
      hits.push(hit);
    }
  }
}

function defaultHighlightAttributes(env: SearchEnvironment, prepared: PreparedSearch): string[] {
  if (prepared.options.attributesToHighlight !== null) return prepared.options.attributesToHighlight;
  if (!Array.isArray(env.settings.searchableAttributes) || env.settings.searchableAttributes.length === 0) return ['*'];
  return env.store.text.slots.map((slot) => slot.attribute);
}

/** A search's response and what it depends on, for the result cache (see `result-cache.ts`). */
export interface ExecutedSearch {
  /** The response; its `hits` are empty until `page` builds them. */
  response: SearchResponse;
  /** Attributes (first path segments) the response depends on besides the set of records; null: everything. */
  dependencies: string[] | null;
  page: PageHits;
}

/**
 * Runs a search up to the choice of its page: everything of the response but the hits, which `page` builds
 * (the costly part of a large page, with highlighting and snippets). `plan`: the rules applied (their
 * parameters already merged into `params`), which hide and pin records.
 */
export function executeSearch(env: SearchEnvironment, params: SearchParams, override: IndexSettings | undefined, extra: SearchOptions | undefined, plan: RulePlan | null = null): ExecutedSearch {
  const started = performance.now();
  // The vector side first (a hybrid search): preparing a search resets the environment's document scanner.
  const semantic = semanticSide(env, params, override, extra, plan?.hidden ?? []);
  const prepared = prepareSearch(env, params, override, extra);
  const { options } = prepared;
  const merchandising = plan === null ? null : merchandise(env, prepared, plan, extra);
  const pins = merchandising?.pins ?? [];
  const useOffset = options.offset !== undefined || options.length !== undefined;
  const start = useOffset ? (options.offset ?? 0) : options.page * options.hitsPerPage;
  const wanted = hitsAsked(options);
  const limit = options.paginationLimitedTo;
  const count = Math.max(0, Math.min(wanted, limit - start));
  const need = start + count;
  // Pinned records may come from beyond the page: rank enough to fill it once they are taken out.
  const needRanked = need + pins.length;

  let nbHits = prepared.matchCount;
  let page: number[];
  let sortedInfo: Pick<SearchResponse, 'nbSortedHits' | 'appliedRelevancyStrictness'> = {};
  const groups = options.distinct > 0 && options.attributeForDistinct !== undefined ? distinctGroups(env.store, options.attributeForDistinct) : null;
  let outside = merchandising?.outside ?? 0;
  const hybrid = semantic === null ? null : selectHybrid(prepared, semantic, groups, options.distinct, needRanked, pins);
  if (hybrid !== null) ({ page, nbHits, outside } = hybrid);
  else if (override !== undefined && options.relevancyStrictness !== undefined && prepared.context.custom !== null && !prepared.rules.some((r) => r.name.startsWith('asc(') || r.name.startsWith('desc('))) {
    const { sorted, nbSortedHits } = relevantSort(prepared, options.relevancyStrictness);
    page = sorted.slice(0, needRanked);
    sortedInfo = { nbSortedHits, appliedRelevancyStrictness: options.relevancyStrictness };
  } else if (groups !== null) {
    nbHits = distinctCount(prepared.matches, groups, options.distinct);
    page = distinctPrefix(prepared, groups, options.distinct, needRanked);
  } else {
    page = rankedPrefix(prepared, prepared.matches, prepared.matchCount, needRanked);
  }
  page = (pins.length > 0 ? placePins(page, pins) : page).slice(start, need);
  nbHits += outside;
  const facets = computeFacets(env, prepared, groups, extra);
  const hits = new PageHits(env, prepared, page, pins.length > 0 ? new Set(pins.map((p) => p.doc)) : null, params, hybrid);
  const pageable = Math.min(sortedInfo.nbSortedHits ?? nbHits, limit);
  const response: SearchResponse = {
    hits: [],
    nbHits,
    ...(useOffset ? { offset: start, length: count } : {}),
    page: useOffset ? (options.hitsPerPage > 0 ? Math.floor(start / options.hitsPerPage) : 0) : options.page,
    nbPages: options.hitsPerPage > 0 ? Math.ceil(pageable / options.hitsPerPage) : 0,
    hitsPerPage: options.hitsPerPage,
    ...facets,
    exhaustiveNbHits: true,
    exhaustiveTypo: true,
    ...(options.facets.length > 0 ? { exhaustiveFacetsCount: true } : {}),
    exhaustive: { nbHits: true, typo: true, ...(options.facets.length > 0 ? { facetsCount: true } : {}) },
    ...sortedInfo,
    query: options.query,
    params: encodeParams(params),
    renderingContent: options.renderingContent ?? {},
    ...(hybrid !== null ? { semanticHitCount: page.filter((doc) => hybrid.semantic(doc)).length } : {}),
    processingTimeMS: Math.round(performance.now() - started),
  };
  const hitFree = count === 0 && groups === null && sortedInfo.nbSortedHits === undefined && pins.length === 0 && hybrid === null;
  return { response, dependencies: hitFree ? countDependencies(env, prepared) : null, page: hits };
}

/**
 * What a response without hits depends on besides the set of records: its counts come from the match set and
 * the counted facets, and the match set from the words (searchable attributes), the filters and the geo
 * radius. Null (everything) when every attribute may be searchable.
 */
function countDependencies(env: SearchEnvironment, prepared: PreparedSearch): string[] | null {
  const attributes = new Set<string>();
  if (prepared.words.length > 0 || prepared.parsed.excluded.length > 0) {
    if (env.store.text.dynamic) return null;
    for (const slot of env.store.text.slots) attributes.add(topLevel(slot.attribute));
  }
  const pending: FilterNode[] = prepared.filter === null ? [] : [prepared.filter];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    if (node.kind === 'and' || node.kind === 'or') pending.push(...node.children);
    else if (node.kind === 'not') pending.push(node.child);
    else if (node.kind === 'tag') attributes.add('_tags');
    else if (node.kind !== 'boolean') attributes.add(topLevel(node.attribute));
  }
  if (prepared.options.facets.length > 0) for (const name of facetNames(env, prepared.options.facets)) attributes.add(topLevel(name));
  if (prepared.options.aroundLatLng !== null) attributes.add('_geoloc');
  return [...attributes];
}

/** Whether every word of the facet query starts some word of the value. */
function facetValueMatches(valueTerms: string[], queryTerms: string[]): boolean {
  return queryTerms.every((q) => valueTerms.some((v) => v.startsWith(q)));
}

export function runFacetSearch(env: SearchEnvironment, facetName: string, facetQuery: string, params: SearchParams, extra: SearchOptions | undefined): SearchForFacetValuesResponse {
  const started = performance.now();
  const declared = parseAttributesForFaceting(env.settings.attributesForFaceting).find((f) => f.attribute === facetName);
  if (declared === undefined || !declared.searchable) throw createEngineError('UNKNOWN_ATTRIBUTE_FOR_FACETING', facetName, facetName);
  if (typeof facetQuery !== 'string') throw createEngineError('INVALID_PARAMETER', 'facetQuery', 'expected a string');
  const prepared = prepareSearch(env, { ...params, facets: [], hitsPerPage: 0 }, undefined, extra);
  if (extra?.unretrievableFacets !== true && unretrievableFacet(facetName, prepared.options.unretrievableAttributes)) {
    throw createEngineError('UNKNOWN_ATTRIBUTE_FOR_FACETING', facetName, facetName);
  }
  const column = env.store.facets.get(facetName)!;
  const counts = countFacetValues(column, prepared.matches, prepared.matchCount);
  const separators = prepared.options.separatorsToIndex;
  const queryTerms = terms(facetQuery, separators);
  const candidates: number[] = [];
  const labels: string[] = [];
  for (let v = 0; v < counts.length; v++) {
    if (counts[v] === 0) continue;
    labels[v] = column.labels.get(v);
    if (facetValueMatches(terms(labels[v], separators), queryTerms)) candidates.push(v);
  }
  candidates.sort((a, b) => counts[b] - counts[a] || (labels[a] < labels[b] ? -1 : labels[a] > labels[b] ? 1 : 0));
  const query: HighlightQuery = { words: queryTerms.map((term) => ({ original: term, term, prefix: true, maxTypos: 0 })) };
  const tags = { preTag: prepared.options.highlightPreTag, postTag: prepared.options.highlightPostTag, separatorsToIndex: separators };
  const facetHits: FacetHit[] = candidates.slice(0, prepared.options.maxFacetHits).map((v) => ({
    value: labels[v],
    highlighted: highlightFacetValue(labels[v], query, tags),
    count: counts[v],
  }));
  return { facetHits, exhaustiveFacetsCount: true, processingTimeMS: Math.round(performance.now() - started) };
}

/**
 * Where a browse resumes. A cursor holds the next internal id, the store it was issued by and the objectID of
 * the last record returned: within the same store ids are stable (writes append); after a rebuild or a
 * restart the ids changed, so the browse resumes after the new id of that record (ids keep their relative
 * order), and a cursor whose record is gone by then has expired.
 */
function decodeCursor(env: SearchEnvironment, cursor: unknown): number {
  if (cursor === undefined || cursor === null || cursor === '') return 0;
  if (typeof cursor !== 'string') throw createEngineError('INVALID_PARAMETER', 'cursor', 'expected a string');
  const parsed: unknown = (() => {
    try {
      return JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    } catch {
      return null;
    }
  })();
  const { next, store, last } = (parsed ?? {}) as { next?: unknown; store?: unknown; last?: unknown };
  if (typeof next !== 'number' || !Number.isInteger(next) || next < 0) throw createEngineError('INVALID_PARAMETER', 'cursor', 'not a cursor this index issued');
  if (store === undefined || store === env.store.generation) return next;
  const moved = typeof last === 'string' ? env.store.docOf(last) : undefined;
  if (moved === undefined) throw createEngineError('INVALID_PARAMETER', 'cursor', 'expired: the index was rebuilt since; browse again from the start');
  return moved + 1;
}

function encodeCursor(env: SearchEnvironment, lastDoc: number): string {
  const last = env.store.records.get(lastDoc)?.objectID;
  return Buffer.from(JSON.stringify({ next: lastDoc + 1, store: env.store.generation, last })).toString('base64url');
}

export function runBrowse(env: SearchEnvironment, params: SearchParams & { cursor?: string }, extra: SearchOptions | undefined): BrowseResponse {
  const started = performance.now();
  const from = decodeCursor(env, params.cursor);
  const { cursor: _cursor, ...rest } = params;
  const hitsPerPage = rest.hitsPerPage === undefined ? 1000 : rest.hitsPerPage;
  const prepared = prepareSearch(env, { ...rest, hitsPerPage, facets: [] }, undefined, extra);
  const perPage = prepared.options.hitsPerPage;
  const docs: number[] = [];
  let more = false;
  prepared.matches.forEach((doc) => {
    if (doc < from) return true;
    if (docs.length === perPage) {
      more = true;
      return false;
    }
    docs.push(doc);
    return true;
  });
  const hits: Hit[] = [];
  new PageHits(env, prepared, docs, null, rest).build(docs.length, hits);
  const nbHits = prepared.matchCount;
  const response: BrowseResponse = {
    hits,
    nbHits,
    page: 0,
    nbPages: perPage > 0 ? Math.ceil(nbHits / perPage) : 0,
    hitsPerPage: perPage,
    exhaustiveNbHits: true,
    query: prepared.options.query,
    params: encodeParams(rest),
    processingTimeMS: Math.round(performance.now() - started),
  };
  if (more) response.cursor = encodeCursor(env, docs[docs.length - 1]);
  return response;
}
