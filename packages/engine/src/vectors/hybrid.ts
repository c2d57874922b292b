/**
 * Hybrid search: the keyword results and the nearest vectors, merged into one list.
 *
 * Fusion: weighted reciprocal ranks. A hit at rank `a` among the keyword results and rank `b` among the nearest
 * vectors (1-based; a list it is not in adds nothing) scores `(1 − ratio) / (60 + a) + ratio / (60 + b)`.
 * Why ranks rather than a convex combination of normalised scores: Algolia's keyword relevance is an order of
 * tie-breaking criteria with no score to normalise (a min-max of made-up scores would change with the page of
 * results), and cosines of different embedders are spread differently; ranks compare the two lists as they are.
 * 60 is the usual constant of reciprocal rank fusion: the first places of each list weigh about the same. Ties
 * go to the better keyword rank, then the better vector rank, then the lower id. `semanticRatio` 0 is the keyword
 * search unchanged; 1 is the vector search alone (keyword matches are not hits).
 *
 * What a hit is: every keyword match, plus the `K` nearest vectors among the records that pass the filters
 * (K = paginationLimitedTo, at most 1,000: as many as pages can reach). Filters (the request's, a secured key's,
 * `aroundRadius`) and rules' hidden records apply to both sides; facets are counted over the merged set, and
 * `distinct` keeps the best of each group in the merged order. Keyword matches beyond the first K follow the
 * fused list in keyword order. A query without words (empty, or only stop words) has no keyword list: with a
 * vector, the vector search alone; without one, the keyword search as usual (browsing a category). On a
 * replica sorting by an attribute (asc/desc first, or relevant sort) the search stays a keyword search: its
 * order is the sort.
 */
import type { IndexSettings, RankingInfo, SearchParams } from '@vitrine/protocol';
import type { SearchOptions } from '../api.ts';
import { createEngineError } from '../errors.ts';
import type { Bitset } from '../structures/bitset.ts';
import { queryBitsets } from '../structures/bitset-pool.ts';
import { prepareSearch, type PreparedSearch, type SearchEnvironment } from '../search/prepare.ts';
import { distinctCount, rankedPrefix } from '../search/select.ts';
import { readVector, type EmbedderSpec } from './embedders.ts';
import type { VectorStore } from './vector-store.ts';

/** Reciprocal rank fusion's constant. */
export const RRF_K = 60;
/** The most vector hits a search takes (with paginationLimitedTo, the default 1,000). */
export const MAX_SEMANTIC_HITS = 1000;

export interface SemanticRequest {
  embedder: EmbedderSpec;
  /** Share of the vector list in the fusion: 0 < ratio ≤ 1. */
  ratio: number;
  vector: Float32Array;
}

function hasText(params: SearchParams): boolean {
  return typeof params.query === 'string' && params.query.trim() !== '';
}

/**
 * The vector side of a search from its parameters (`hybrid`, `vector`) and the query vector the caller computed
 * (`SearchOptions.queryVector`: the server's embedding of the query text); null when the search is keywords only.
 * Throws `INVALID_PARAMETER` for what cannot be searched.
 */
export function semanticRequest(vectors: VectorStore, params: SearchParams, queryVector: ArrayLike<number> | undefined): SemanticRequest | null {
  const { hybrid, vector } = params;
  const hasVector = vector !== undefined && vector !== null;
  if ((hybrid === undefined || hybrid === null) && !hasVector) return null;
  if (hybrid !== undefined && hybrid !== null && (typeof hybrid !== 'object' || Array.isArray(hybrid))) {
    throw createEngineError('INVALID_PARAMETER', 'hybrid', 'expected an object: { "embedder": name, "semanticRatio": 0 to 1 }');
  }
  const { embedder: name, semanticRatio } = (hybrid ?? {}) as { embedder?: unknown; semanticRatio?: unknown };
  if (vectors.empty) throw createEngineError('INVALID_PARAMETER', hasVector ? 'vector' : 'hybrid', 'the index has no embedders (set "embedders" in its settings)');
  let embedder: EmbedderSpec | undefined;
  if (name === undefined || name === null) {
    if (vectors.embedders.length > 1) throw createEngineError('INVALID_PARAMETER', 'hybrid.embedder', `name one of ${vectors.embedders.map((e) => e.name).join(', ')}`);
    embedder = vectors.embedders[0];
  } else {
    if (typeof name !== 'string') throw createEngineError('INVALID_PARAMETER', 'hybrid.embedder', 'expected a string');
    embedder = vectors.embedder(name);
    if (embedder === undefined) throw createEngineError('INVALID_PARAMETER', 'hybrid.embedder', `no embedder "${name}" (the index has ${vectors.embedders.map((e) => e.name).join(', ')})`);
  }
  let ratio = hybrid === undefined || hybrid === null ? 1 : 0.5;
  if (semanticRatio !== undefined && semanticRatio !== null) {
    if (typeof semanticRatio !== 'number' || !(semanticRatio >= 0 && semanticRatio <= 1)) throw createEngineError('INVALID_PARAMETER', 'hybrid.semanticRatio', 'expected a number from 0 to 1');
    ratio = semanticRatio;
  }
  const given = hasVector ? readVector(vector, embedder.dimensions, 'vector') : queryVector === undefined ? undefined : readVector(Array.from(queryVector), embedder.dimensions, 'vector');
  if (ratio === 0) return null;
  if (given === undefined) {
    // Nothing to embed: browsing (a category page) stays a keyword search.
    if (!hasText(params)) return null;
    if (embedder.source === 'userProvided') throw createEngineError('INVALID_PARAMETER', 'vector', `the embedder "${embedder.name}" is userProvided: send the query's vector in "vector"`);
    throw createEngineError('INVALID_PARAMETER', 'vector', `the embedder "${embedder.name}" embeds query text through the Vitrine server: send the search there, or send "vector"`);
  }
  return { embedder, ratio, vector: given };
}

/** The vector side of a search, found before its keyword side. */
export interface SemanticSide {
  request: SemanticRequest;
  /** The nearest documents, best first, and their cosines. */
  docs: number[];
  scores: number[];
}

/**
 * Finds the nearest vectors among the records a search may show: its filters (the request's and the key's), the
 * radius around a point, minus the rules' hidden records. Null when the search is keywords only. Runs before
 * the keyword side is prepared: preparing a search resets the environment's document scanner.
 */
export function semanticSide(env: SearchEnvironment & { vectors: VectorStore }, params: SearchParams, override: IndexSettings | undefined, extra: SearchOptions | undefined, hidden: readonly string[]): SemanticSide | null {
  const request = semanticRequest(env.vectors, params, extra?.queryVector);
  if (request === null) return null;
  const universe = prepareSearch(env, { ...params, query: '' }, override, extra);
  const first = universe.rules[0]?.name ?? '';
  const relevantSort = override !== undefined && universe.options.relevancyStrictness !== undefined && universe.context.custom !== null;
  if (first.startsWith('asc(') || first.startsWith('desc(') || relevantSort) return null;
  let count = universe.matchCount;
  for (const objectID of hidden) {
    const doc = env.store.docOf(objectID);
    if (doc !== undefined && universe.matches.has(doc)) {
      universe.matches.delete(doc);
      count--;
    }
  }
  const k = Math.min(MAX_SEMANTIC_HITS, universe.options.paginationLimitedTo);
  const hits = env.vectors.indexOf(request.embedder.name)!.nearest(request.vector, k, universe.matches, count);
  return { request, docs: hits.map((h) => h.doc), scores: hits.map((h) => h.score) };
}

/** Where each hit stands in each list, and its fused score. */
interface Fused {
  keywordRank: number;
  semanticRank: number;
  semanticScore: number;
  score: number;
}

export interface HybridSelection {
  /** The first `need` documents of the merged list (distinct applied), before pins. */
  page: number[];
  /** Hits of the merged set (distinct applied), pins outside it not counted. */
  nbHits: number;
  /** Pinned records outside the merged set. */
  outside: number;
  /** `_rankingInfo` additions of a hit. */
  info(doc: number): Partial<RankingInfo>;
  /** Whether a document was among the nearest vectors. */
  semantic(doc: number): boolean;
}

/**
 * Merges the keyword side (`prepared`: its match set becomes the merged set, for facets) with the vector side,
 * and picks the first `need` documents of the merged order, at most `perGroup` per distinct group (`groups`).
 */
export function selectHybrid(prepared: PreparedSearch, side: SemanticSide, groups: Int32Array | null, perGroup: number, need: number, pins: ReadonlyArray<{ doc: number }>): HybridSelection {
  const { ratio } = side.request;
  const k = side.docs.length;
  const textual = ratio < 1 && prepared.words.length > 0;
  const keywordList = textual ? rankedPrefix(prepared, prepared.matches, prepared.matchCount, Math.max(k, Math.min(need, MAX_SEMANTIC_HITS))) : [];
  const fused = new Map<number, Fused>();
  keywordList.forEach((doc, i) => fused.set(doc, { keywordRank: i + 1, semanticRank: 0, semanticScore: 0, score: (1 - ratio) / (RRF_K + i + 1) }));
  side.docs.forEach((doc, i) => {
    const entry = fused.get(doc) ?? { keywordRank: 0, semanticRank: 0, semanticScore: 0, score: 0 };
    entry.semanticRank = i + 1;
    entry.semanticScore = side.scores[i];
    entry.score += ratio / (RRF_K + i + 1);
    fused.set(doc, entry);
  });
  const rankOr = (rank: number) => (rank === 0 ? Number.POSITIVE_INFINITY : rank);
  const order = [...fused.keys()].sort((a, b) => {
    const x = fused.get(a)!;
    const y = fused.get(b)!;
    return y.score - x.score || rankOr(x.keywordRank) - rankOr(y.keywordRank) || rankOr(x.semanticRank) - rankOr(y.semanticRank) || a - b;
  });
  // Keyword matches past the fused list follow it in keyword order: kept apart before the merged set replaces them.
  const keywords: Bitset | null = textual && prepared.matchCount > keywordList.length ? queryBitsets.copy(prepared.matches) : null;
  const keywordCount = prepared.matchCount;
  const merged = prepared.matches;
  if (!textual) merged.words.fill(0);
  for (const doc of side.docs) merged.add(doc);
  prepared.matchCount = merged.count();
  const nbHits = groups === null ? prepared.matchCount : distinctCount(merged, groups, perGroup);
  const page = takeDistinct(order, groups, perGroup, need, (budget) => {
    if (keywords === null) return [];
    const ranked = rankedPrefix(prepared, keywords, keywordCount, budget);
    return ranked.filter((doc) => !fused.has(doc));
  }, keywords === null ? 0 : keywordCount);
  let outside = 0;
  for (const pin of pins) if (!merged.has(pin.doc)) outside++;
  return {
    page,
    nbHits,
    outside,
    info(doc) {
      const entry = fused.get(doc);
      if (entry === undefined) return { hybridScore: 0 };
      return {
        ...(entry.keywordRank > 0 ? { keywordRank: entry.keywordRank } : {}),
        ...(entry.semanticRank > 0 ? { semanticRank: entry.semanticRank, semanticScore: entry.semanticScore } : {}),
        hybridScore: entry.score,
      };
    },
    semantic: (doc) => (fused.get(doc)?.semanticRank ?? 0) > 0,
  };
}

/**
 * The first `need` of `order` then of `more(budget)` (the tail, asked for with a growing budget), keeping at most
 * `perGroup` documents per distinct group.
 */
function takeDistinct(order: number[], groups: Int32Array | null, perGroup: number, need: number, more: (budget: number) => number[], most: number): number[] {
  const out: number[] = [];
  const seen = new Map<number, number>();
  const take = (doc: number): boolean => {
    const group = groups === null ? -1 : groups[doc];
    if (group >= 0) {
      const n = seen.get(group) ?? 0;
      if (n >= perGroup) return false;
      seen.set(group, n + 1);
    }
    out.push(doc);
    return out.length >= need;
  };
  for (const doc of order) if (take(doc)) return out;
  let taken = 0;
  for (let budget = Math.max(16, 2 * (need - out.length) + order.length); ; budget *= 4) {
    const tail = more(budget);
    for (; taken < tail.length; taken++) if (take(tail[taken])) return out;
    if (budget >= most) return out;
  }
}
