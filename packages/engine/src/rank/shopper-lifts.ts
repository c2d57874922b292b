/**
 * What a shopper's affinities lift, for the whole index, kept across their searches (`personalization.ts`):
 * - the candidates: the records a step of affinity may lift (a strong affinity alone, or two weak ones: a
 *   superset, the split sums their scores), one bitset;
 * - built on a split's first need of them, the lifted records in the order ranking gives them: best step
 *   first, then customRanking's order (ids without one), with where each step ends. A category page then
 *   tests the bucket's membership of the shopper's records in that order and stops at the page's last hit,
 *   instead of reading the bucket, the candidates and every affinity word by word across the index.
 *
 * Kept per shopper (affinities and step) and index version (any write bumps it, the capacity too), most
 * recently used last, within LIFT_BYTES an index; past it, the least recent shopper's go first.
 */
import type { FilterSource } from '../filter/types.ts';
import { walkOrder, type CustomOrder } from './custom-rank.ts';

const LIFT_BYTES = 32 * 1024 * 1024;

/** A search's affinities: each facet value's set (the index's words) with its score, and the step. */
export interface Affinities {
  all: Uint32Array[];
  scores: number[];
  step: number;
}

export interface OrderedLifts {
  /** Every record with a step of affinity, best step first, then in customRanking's (else id) order. */
  docs: Uint32Array;
  /** ends[g]: where group g of `docs` ends; its records have `groupSteps[g]` steps (descending). */
  ends: Int32Array;
  groupSteps: Uint16Array;
  /** The order it follows (null: ids), so a change of customRanking builds it again. */
  custom: CustomOrder | null;
}

interface ShopperLifts {
  version: number;
  candidates: Uint32Array;
  ordered?: OrderedLifts;
}

type Store = FilterSource & { readonly version: number; readonly capacity: number };

const cacheByStore = new WeakMap<object, Map<string, ShopperLifts>>();

/** The shopper's entry (`key`: affinities kept for this search and the step), built again after a write. */
function liftsOf(store: Store, key: string, affinities: Affinities): ShopperLifts {
  let cache = cacheByStore.get(store);
  if (cache === undefined) cacheByStore.set(store, (cache = new Map()));
  const cached = cache.get(key);
  if (cached !== undefined) {
    // Most recent last (a Map keeps insertion order).
    cache.delete(key);
    if (cached.version === store.version) {
      cache.set(key, cached);
      return cached;
    }
  }
  const entry: ShopperLifts = { version: store.version, candidates: candidateWords(store.capacity, affinities) };
  cache.set(key, entry);
  keepWithinBudget(cache);
  return entry;
}

/** The shopper's candidates (see the top of this file). */
export function shopperCandidates(store: Store, key: string, affinities: Affinities): Uint32Array {
  return liftsOf(store, key, affinities).candidates;
}

/** The shopper's lifted records in ranking's order for `custom` (see the top of this file). */
export function orderedLifts(store: Store, key: string, affinities: Affinities, custom: CustomOrder | null): OrderedLifts {
  const entry = liftsOf(store, key, affinities);
  if (entry.ordered === undefined || entry.ordered.custom !== custom) {
    entry.ordered = orderLifts(entry.candidates, affinities, custom);
    keepWithinBudget(cacheByStore.get(store)!);
  }
  return entry.ordered;
}

function candidateWords(capacity: number, { all, scores, step }: Affinities): Uint32Array {
  const words = new Uint32Array((capacity + 31) >>> 5);
  for (let w = 0; w < words.length; w++) {
    let lifted = 0;
    let once = 0;
    for (let i = 0; i < all.length; i++) {
      const bits = w < all[i].length ? all[i][w] : 0;
      if (scores[i] >= step) lifted |= bits;
      else {
        lifted |= once & bits;
        once |= bits;
      }
    }
    words[w] = lifted;
  }
  return words;
}

/** A record's steps of affinity. */
export function stepsOf(doc: number, { all, scores, step }: Affinities): number {
  const w = doc >>> 5;
  const bit = 1 << (doc & 31);
  let score = 0;
  for (let i = 0; i < all.length; i++) if (w < all[i].length && (all[i][w] & bit) !== 0) score += scores[i];
  return Math.floor(score / step);
}

/**
 * The candidates with a step, in customRanking's order (one walk of the index's order, as an empty query's
 * first page walks it) or in id order, then grouped by step, best first (a stable counting sort).
 */
function orderLifts(candidates: Uint32Array, affinities: Affinities, custom: CustomOrder | null): OrderedLifts {
  let docs = new Uint32Array(1024);
  let steps = new Uint16Array(1024);
  let n = 0;
  const consider = (doc: number): boolean => {
    const w = doc >>> 5;
    if (w >= candidates.length || (candidates[w] & (1 << (doc & 31))) === 0) return true;
    const recordSteps = stepsOf(doc, affinities);
    if (recordSteps === 0) return true;
    if (n === docs.length) {
      const grownDocs = new Uint32Array(n * 2);
      grownDocs.set(docs);
      docs = grownDocs;
      const grownSteps = new Uint16Array(n * 2);
      grownSteps.set(steps);
      steps = grownSteps;
    }
    docs[n] = doc;
    steps[n++] = recordSteps;
    return true;
  };
  if (custom !== null) walkOrder(custom, consider);
  else {
    for (let w = 0; w < candidates.length; w++) {
      for (let bits = candidates[w]; bits !== 0; bits &= bits - 1) consider((w << 5) + (31 - Math.clz32(bits & -bits)));
    }
  }
  let most = 0;
  for (let i = 0; i < n; i++) if (steps[i] > most) most = steps[i];
  const counts = new Int32Array(most + 1);
  for (let i = 0; i < n; i++) counts[steps[i]]++;
  const groups = counts.reduce((sum, count, s) => sum + (s > 0 && count > 0 ? 1 : 0), 0);
  const ends = new Int32Array(groups);
  const groupSteps = new Uint16Array(groups);
  const starts = new Int32Array(most + 1);
  for (let s = most, at = 0, g = 0; s >= 1; s--) {
    if (counts[s] === 0) continue;
    starts[s] = at;
    at += counts[s];
    ends[g] = at;
    groupSteps[g++] = s;
  }
  const ordered = new Uint32Array(n);
  for (let i = 0; i < n; i++) ordered[starts[steps[i]]++] = docs[i];
  return { docs: ordered, ends, groupSteps, custom };
}

function keepWithinBudget(cache: Map<string, ShopperLifts>): void {
  let bytes = 0;
  for (const entry of cache.values()) bytes += entry.candidates.byteLength + (entry.ordered?.docs.byteLength ?? 0);
  for (const [oldest, entry] of cache) {
    if (bytes <= LIFT_BYTES || cache.size === 1) break;
    cache.delete(oldest);
    bytes -= entry.candidates.byteLength + (entry.ordered?.docs.byteLength ?? 0);
  }
}
