/**
 * Results of recent searches, answered again while nothing they depend on has changed.
 *
 * Shoppers repeat each other: a landing page, a popular query, and above all the extra queries InstantSearch
 * sends for each refined disjunctive facet (the same query without that facet's filter, no hits, one facet
 * counted) come back again and again. A result is kept with the store version it was computed at and what it
 * depends on:
 * - a result with hits depends on everything (a write anywhere may move a record into its page or change one
 *   shown), so any write invalidates it;
 * - a result without hits (`hitsPerPage: 0`: counts and facets only) depends on which records exist and on a
 *   few attributes — the searchable ones when the query has words, the filtered ones, the counted facets,
 *   `_geoloc` around a point — so a write that changes only other attributes (a popularity counter, a stock
 *   level) leaves it valid. `../index/changes.ts` tells which attributes each write changed.
 * Settings, synonyms, a rebuild or a clear drop everything (the owner calls `clear`).
 *
 * A result is kept only when its key is asked a second time (one-off queries, most of them, never displace
 * anything), in least-recently-used order within a budget of estimated bytes.
 *
 * The key is the request's parameters, minus those that only concern analytics, plus the settings override
 * (replicas) and the forced filter (secured keys). Objects in an answer are shared between the callers it is
 * given to: callers may set top-level fields on the response they get (each gets its own), nothing below.
 *
 * Rejected: a time-to-live cache (answers stale for up to the TTL after a write, which a storefront showing
 * stock or prices cannot have); invalidating results without hits on every write too (under a steady trickle
 * of stock updates nothing stays cached long enough to be asked again).
 */
import type { IndexSettings, SearchParams, SearchResponse } from '@vitrine/protocol';
import type { SearchOptions } from '../api.ts';
import type { IndexStore } from '../index/store.ts';
import { hitsAsked } from '../query/options.ts';

/** Parameters that change what is logged, not what is answered (the `params` echo is rebuilt per answer). */
const ANALYTICS_ONLY = ['analytics', 'clickAnalytics', 'analyticsTags', 'userToken', 'enableABTest', 'enablePersonalization', 'personalizationImpact'];
/** Default budget: estimated bytes of the results kept. */
export const DEFAULT_RESULT_CACHE_BYTES = 32 << 20;
/** Keys asked once, remembered so that a second ask is recognised. */
const SEEN_KEYS = 8192;

interface Entry {
  response: SearchResponse;
  /** The store and its version the result was computed at. */
  generation: string;
  version: number;
  /** Attributes (first path segments) it depends on, besides the set of records; null: everything. */
  dependencies: string[] | null;
  bytes: number;
}

export interface ResultCacheStats {
  hits: number;
  misses: number;
  entries: number;
  bytes: number;
}

/** The cache key of a search, or null when the parameters cannot be keyed (not JSON). */
export function resultKey(params: SearchParams, override: IndexSettings | undefined, options: SearchOptions | undefined): string | null {
  let keyed: Record<string, unknown> = params;
  for (const name of ANALYTICS_ONLY) {
    if (keyed[name] === undefined) continue;
    if (keyed === params) keyed = { ...params };
    delete keyed[name];
  }
  // Learning orders hits only (`prepare.ts` skips it for a search without hits on a primary index): the facet
  // counts InstantSearch asks beside a page are the same for every shopper, and keyed so.
  const learned = !asksNoHits(params, override);
  // A personalized search depends on the user's affinities and on the two parameters that turn them on and weigh them.
  if (learned && options?.personalization !== undefined) {
    keyed = { ...keyed, '\u0000personalization': [options.personalization, params.enablePersonalization ?? null, params.personalizationImpact ?? null] };
  }
  try {
    const settings = override === undefined ? '' : JSON.stringify(override);
    const filter = options?.extraFilter === undefined ? '' : JSON.stringify(options.extraFilter);
    const retrievedOnly = options?.highlightRetrievedOnly === true ? 'r' : '';
    const unretrievable = options?.unretrievableFacets === true ? 'u' : '';
    // The query vector a server computed from the query text (a hybrid search): the same text may not always give it.
    const vector = options?.queryVector === undefined ? '' : `\u0001${Array.prototype.join.call(options.queryVector, ',')}`;
    // Re-ranking's boosts change with each model build: the same query may be ordered otherwise after one.
    const boosts = !learned || options?.reRanking === undefined ? '' : `\u0002${options.reRanking.boosts.map((b) => `${b.objectID}\u0003${b.score}`).join('\u0003')}`;
    return `${settings}\u0001${filter}\u0001${retrievedOnly}${unretrievable}\u0001${JSON.stringify(keyed)}${vector}${boosts}`;
  } catch {
    return null;
  }
}

/**
 * Whether the parameters themselves ask for no hits (`hitsPerPage: 0`, or `length: 0` with an offset) on a primary
 * index (a replica's settings may make its count rank records). Only what the parameters say: an index whose own
 * `hitsPerPage` is 0 keys its searches with their learning, which is never wrong, only less shared.
 */
function asksNoHits(params: SearchParams, override: IndexSettings | undefined): boolean {
  return override === undefined && hitsAsked(params) === 0;
}

/** A rough size of a response held as objects: what the budget counts. */
function estimateBytes(response: SearchResponse): number {
  let bytes = 512 + response.hits.length * 2048;
  for (const values of Object.values(response.facets ?? {})) bytes += 64 * Object.keys(values).length;
  return bytes;
}

export class ResultCache {
  private readonly entries = new Map<string, Entry>();
  private readonly seen = new Map<string, true>();
  private bytes = 0;
  /** Entries depending on named attributes: while there are some, writes say which attributes they changed. */
  private scoped = 0;
  private hits = 0;
  private misses = 0;

  constructor(private maxBytes = DEFAULT_RESULT_CACHE_BYTES) {}

  /** Sets the budget in estimated bytes (0 turns the cache off), dropping what no longer fits. */
  resize(maxBytes: number, store: IndexStore): void {
    this.maxBytes = Math.max(0, maxBytes);
    this.evict(store);
  }

  get enabled(): boolean {
    return this.maxBytes > 0;
  }

  /** A stored result for `key` still valid in `store`; shared: the caller answers with a copy of its own. */
  get(key: string, store: IndexStore): SearchResponse | undefined {
    const entry = this.entries.get(key);
    if (entry !== undefined && valid(entry, store)) {
      // Map order is insertion order: re-inserting makes this the most recently used.
      this.entries.delete(key);
      this.entries.set(key, entry);
      this.hits++;
      return entry.response;
    }
    if (entry !== undefined) this.drop(key, entry, store);
    this.misses++;
    return undefined;
  }

  /** Offers a result just computed at the store's current version; kept if its key was asked before. */
  offer(key: string, response: SearchResponse, dependencies: string[] | null, store: IndexStore): void {
    if (!this.enabled) return;
    if (!this.seen.delete(key)) {
      this.seen.set(key, true);
      if (this.seen.size > SEEN_KEYS) this.seen.delete(this.seen.keys().next().value as string);
      return;
    }
    const previous = this.entries.get(key);
    if (previous !== undefined) this.drop(key, previous, store);
    // A copy: the caller may set top-level fields (index, queryID) on the response it returns. Not its queryID,
    // which the server sets before the hits are built (so before this offer) and names that one search only.
    const { queryID: _queryID, ...kept } = response;
    const entry: Entry = { response: kept, generation: store.generation, version: store.version, dependencies, bytes: estimateBytes(response) };
    if (entry.bytes > this.maxBytes / 4) return;
    this.entries.set(key, entry);
    this.bytes += entry.bytes;
    if (dependencies !== null) {
      this.scoped++;
      store.changes.detailed = true;
    }
    this.evict(store);
  }

  /** Forgets everything (settings, synonyms, a new store). */
  clear(): void {
    this.entries.clear();
    this.seen.clear();
    this.bytes = 0;
    this.scoped = 0;
  }

  stats(): ResultCacheStats {
    return { hits: this.hits, misses: this.misses, entries: this.entries.size, bytes: this.bytes };
  }

  private evict(store: IndexStore): void {
    for (const [key, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.drop(key, entry, store);
    }
  }

  private drop(key: string, entry: Entry, store: IndexStore): void {
    this.entries.delete(key);
    this.bytes -= entry.bytes;
    if (entry.dependencies !== null && --this.scoped === 0) store.changes.detailed = false;
  }
}

function valid(entry: Entry, store: IndexStore): boolean {
  if (entry.generation !== store.generation) return false;
  if (entry.dependencies === null) return entry.version === store.version;
  return store.changes.unchangedSince(entry.version, entry.dependencies);
}
