/**
 * One search call of the API (a multi-query, or a single query) answered in steps against an index registry,
 * with the response serialised as it is built: the same code runs on the main thread and in the search threads
 * (`threads.ts`), which send back the whole response body as one string, rather than objects, or one text per
 * query that the main thread would join and flatten again (those copies were half of what it allocated under
 * load).
 *
 * Steps are short (one query's matching, ranking and facets, or a few hits built and serialised), so that a
 * scheduler (`scheduler.ts`) can answer other calls between them however large this one's response is. Its
 * size is counted as it grows: past the call's `maxResponseBytes` the call fails with a 400 there and then,
 * with no more work spent on it.
 */
import type { FilterNode, ReRankingInput, SteppedSearch } from '@vitrine/engine';
import type { ABTestAssignment, SearchParams, SearchPersonalization, SearchResponse } from '@vitrine/protocol';
import { createError } from '../errors.ts';
import type { IndexRegistry } from '../storage/registry.ts';
import type { QueryCategorization } from '@vitrine/protocol';
import { POSITIONS_LOGGED, TOP_HITS_COUNTED } from '@vitrine/insights/search-summary';
import type { SearchSummary } from '@vitrine/insights/search-summary';
import { runFacetSearch, runSearchInSteps, type SearchAuth } from './run.ts';

export interface QuerySpec {
  indexName: string;
  type: 'default' | 'facet';
  /** The facet of a `type: "facet"` query. */
  facet?: string;
  /** Validated, with the key's forced parameters applied. */
  params: SearchParams;
  /** The query text's vector, from the index's rest embedder (`embedders/query-vectors.ts`), for a hybrid search. */
  queryVector?: number[];
  /** The A/B test that routed this query (`indexName` is then its variant's), and the index the request named. */
  abTest?: ABTestAssignment & { requestedIndex: string };
  /** Dynamic re-ranking's boosts for the query (from insights' model, looked up on the main thread). */
  reRanking?: ReRankingInput;
  /** Query categorization's answer for the query, when the search asks for it (`extensions.queryCategorization`). */
  categorization?: QueryCategorization;
  /** The searching user's affinities (from insights' profiles, looked up on the main thread). */
  personalization?: SearchPersonalization;
}

export interface SearchCall {
  queries: QuerySpec[];
  strategy: 'none' | 'stopIfEnoughMatches';
  /** The key's forced filter, ANDed with every query's own filters. */
  forcedFilter: FilterNode | null;
  /** The key's other forced parameters (a forced `attributesToRetrieve` limits highlighting too). */
  forcedParams?: Record<string, unknown>;
  /** The key's `maxHitsPerQuery` (0 or absent: none), applied again after the rules. */
  maxHitsPerQuery?: number;
  /** The key may see the facet values of unretrievable attributes (`seeUnretrievableAttributes`). */
  unretrievableFacets?: boolean;
  /** Multi-queries name the index in each result, and answer `{"results": [...]}`; single queries do not. */
  withIndex: boolean;
  /** Who asked (the client's IP address): the scheduler shares its time fairly between clients. */
  client: string;
  /** The response's size budget, in bytes of JSON (`ServerLimits.maxResponseBytes`). */
  maxResponseBytes: number;
}

/** What a search call answers: the response body and, per query, what the search log needs (`undefined`: nothing). */
export interface SearchAnswer {
  /**
   * The JSON text, one string (flat once received from a search thread). Not encoded to UTF-8 here: in a search
   * thread that would take the busiest thread's time (3–4% of it under the HTTP benchmark) for a copy the socket
   * write makes anyway, on the main thread. A response built over several slices comes instead as its pieces
   * in order, one per slice, encoded in the slice that wrote them (by whoever asked for that much): the main
   * thread only writes them to the socket, and no step, neither joining nor passing between threads nor
   * encoding, handles the whole of a large response at once.
   */
  body: string | Uint8Array[];
  /** The body's length in bytes (UTF-8). */
  bytes: number;
  summaries: Array<SearchSummary | undefined>;
}

/**
 * Hits built, then serialised, per step. A hit of a large record with every attribute highlighted and
 * snippeted takes a fraction of a millisecond: a step stays far below a slice of the scheduler.
 */
const HITS_PER_STEP = 4;
/**
 * A call stops working once this much of its response (in UTF-16 units) waits to be handed on (`takeBytes`): a
 * piece that the search thread encodes and posts, and the main thread writes, in well under a millisecond.
 * Pieces of a 5 ms slice were up to a megabyte when the hits came from the result cache.
 */
const PIECE_UNITS = 256 * 1024;
/**
 * A page at most this large (hits, and bytes of the records they are built from) is built and serialised in
 * one step, one `JSON.stringify` of the response: a storefront's 20 hits (12 KB of demo products). Hit by hit,
 * InstantSearch's multi-queries cost a third more.
 */
const ONE_STEP_HITS = 50;
const ONE_STEP_RECORD_BYTES = 64 * 1024;
const encoder = new TextEncoder();

function emptyResult(indexName: string, query: string, hitsPerPage: number): SearchResponse {
  return {
    hits: [], nbHits: 0, page: 0, nbPages: 0, hitsPerPage, exhaustiveNbHits: true,
    processingTimeMS: 0, query, params: '', index: indexName,
  };
}

/**
 * What a default query's response says of how it was answered: the index the request named (`withIndex`: a
 * multi-query's results name it), the A/B test and variant that answered, query categorization's answer.
 */
export function labelResponse(query: QuerySpec, response: SearchResponse, withIndex: boolean): SearchResponse {
  const { abTest } = query;
  if (withIndex) response.index = abTest?.requestedIndex ?? query.indexName;
  if (abTest) {
    response.abTestID = abTest.abTestID;
    response.abTestVariantID = abTest.abTestVariantID;
    if (abTest.requestedIndex !== query.indexName) response.indexUsed = query.indexName;
  }
  if (query.categorization !== undefined) response.extensions = { queryCategorization: query.categorization };
  return response;
}

/** Answers a call in one go, sharing the thread with nothing (tests, and checks of a replica's state). */
export function answerSearchCall(registry: IndexRegistry, call: SearchCall): SearchAnswer & { body: string } {
  const steps = new CallInSteps(registry, call);
  const parts: string[] = [];
  while (!steps.work(Number.POSITIVE_INFINITY)) parts.push(steps.takeText());
  parts.push(steps.takeText());
  return { body: parts.join(''), bytes: steps.bytes, summaries: steps.summaries };
}

/** A default query under way: its search, and how many of its hits are serialised already. */
interface OpenQuery {
  query: QuerySpec;
  search: SteppedSearch;
  written: number;
}

/**
 * A call answered in steps (`work`), its queries in order. Each query's page is chosen when its turn comes,
 * so a write applied between two steps may be seen by the call's later queries and not by its earlier ones
 * (never within one query's hits: see `SteppedSearch`). `stopIfEnoughMatches`: queries run until the hits
 * found so far fill the next query's page; the rest answer empty.
 */
export class CallInSteps {
  /** The text written since the last take, its length in UTF-16 units, and in UTF-8 bytes once counted. */
  private readonly parts: string[] = [];
  private pendingUnits = 0;
  private pendingBytes: number | null = null;
  /** Bytes (UTF-8) of the response taken so far (all of it once answered). */
  bytes = 0;
  /** Per query answered so far, what the search log needs. */
  readonly summaries: Array<SearchSummary | undefined> = [];
  private readonly auth: SearchAuth;
  private next = 0;
  private open: OpenQuery | null = null;
  private found = 0;
  private enough = false;

  constructor(
    private readonly registry: IndexRegistry,
    private readonly call: SearchCall,
  ) {
    this.auth = { forcedFilter: call.forcedFilter, forcedParams: call.forcedParams, maxHitsPerQuery: call.maxHitsPerQuery, unretrievableFacets: call.unretrievableFacets };
    if (call.withIndex) this.write('{"results":[');
  }

  /**
   * Works until `deadline` (a `performance.now()` time), a piece of the response is ready, or the call is
   * answered: true once it is.
   */
  work(deadline: number): boolean {
    do {
      if (this.open !== null) this.continueQuery(this.open);
      else if (this.next < this.call.queries.length) this.startQuery(this.call.queries[this.next++]);
      else {
        if (this.call.withIndex) this.write(']}');
        return true;
      }
    } while (performance.now() < deadline && this.pendingUnits < PIECE_UNITS);
    return false;
  }

  /**
   * The text written since the last take, as one string (`takeText`) or as UTF-8 bytes (`takeBytes`): the
   * response is the concatenation of every take.
   */
  takeText(): string {
    const text = this.parts.join('');
    this.bytes += this.pendingBytes ?? Buffer.byteLength(text);
    this.taken();
    return text;
  }

  takeBytes(): Uint8Array {
    const text = this.parts.join('');
    // A buffer of its own: transferable to the main thread.
    const bytes = new Uint8Array(this.pendingBytes ?? Buffer.byteLength(text));
    encoder.encodeInto(text, bytes);
    this.bytes += bytes.length;
    this.taken();
    return bytes;
  }

  private taken(): void {
    this.parts.length = 0;
    this.pendingUnits = 0;
    if (this.pendingBytes !== null) this.pendingBytes = 0;
  }

  private startQuery(query: QuerySpec): void {
    if (this.next > 1) this.write(',');
    if (query.type === 'facet') {
      this.write(JSON.stringify(runFacetSearch(this.registry, query.indexName, query.facet!, query.params, this.auth)));
      this.summaries.push(undefined);
    } else if (this.enough) {
      this.write(JSON.stringify(emptyResult(query.indexName, String(query.params.query ?? ''), Number(query.params.hitsPerPage ?? 20))));
      this.summaries.push(undefined);
    } else {
      const search = runSearchInSteps(this.registry, query.indexName, query.params, this.auth, query.queryVector, query.reRanking, query.personalization);
      if (search.response.hits.length + search.hitsToBuild <= ONE_STEP_HITS && search.recordBytesToBuild <= ONE_STEP_RECORD_BYTES) {
        search.buildHits(ONE_STEP_HITS);
        this.finishQuery(query, search.response, JSON.stringify(this.withIndex(query, search.response)));
      } else {
        this.open = { query, search, written: 0 };
        this.write('{"hits":[');
      }
    }
  }

  private continueQuery(open: OpenQuery): void {
    const { search } = open;
    const hits = search.response.hits;
    if (open.written === hits.length && !search.done) search.buildHits(HITS_PER_STEP);
    const end = Math.min(hits.length, open.written + HITS_PER_STEP);
    for (; open.written < end; open.written++) this.write((open.written > 0 ? ',' : '') + JSON.stringify(hits[open.written]));
    if (open.written < hits.length || !search.done) return;
    // Every hit is written: the rest of the response (its keys after `hits`, as the engine orders them).
    const { hits: _hits, ...rest } = this.withIndex(open.query, search.response);
    this.finishQuery(open.query, search.response, `],${JSON.stringify(rest).slice(1)}`);
    this.open = null;
  }

  private withIndex(query: QuerySpec, response: SearchResponse): SearchResponse {
    return labelResponse(query, response, this.call.withIndex);
  }

  /** Writes the end of a default query's response, and notes what the strategy and the search log need. */
  private finishQuery(query: QuerySpec, response: SearchResponse, text: string): void {
    this.write(text);
    this.found += response.nbHits;
    if (this.call.strategy === 'stopIfEnoughMatches' && this.found >= response.hitsPerPage) this.enough = true;
    this.summaries.push({
      nbHits: response.nbHits,
      ...(response.queryID !== undefined ? { queryID: response.queryID } : {}),
      hits: response.hits.slice(0, TOP_HITS_COUNTED).map((hit) => ({ objectID: hit.objectID })),
      // Where a tracked search showed its hits: dynamic re-ranking's impressions (clicks can only follow those).
      ...(response.queryID !== undefined ? { offset: response.page * response.hitsPerPage, more: response.hits.slice(TOP_HITS_COUNTED, POSITIONS_LOGGED).map((hit) => hit.objectID) } : {}),
    });
  }

  /**
   * Adds text to the response, within its budget. Sizes are counted in UTF-16 units, which cost nothing, and
   * in UTF-8 bytes (9 us for an 8 KB response with an ellipsis in it: a tenth of a storefront's multi-query)
   * only once the response could be past a third of the budget: a unit takes at most 3 bytes.
   */
  private write(text: string): void {
    this.parts.push(text);
    this.pendingUnits += text.length;
    if (this.pendingBytes === null) {
      if (this.bytes + 3 * this.pendingUnits <= this.call.maxResponseBytes) return;
      this.pendingBytes = Buffer.byteLength(this.parts.join(''));
    } else this.pendingBytes += Buffer.byteLength(text);
    if (this.bytes + this.pendingBytes > this.call.maxResponseBytes) throw createError('RESPONSE_TOO_LARGE', this.call.maxResponseBytes);
  }
}
