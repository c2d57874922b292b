/**
 * What a shopper's affinities lift, for the whole index, kept across their searches (`personalization.ts`):
 * - the candidates: the records a step of affinity may lift (a strong affinity alone, or two weak ones: a
 *   superset, the split sums their scores), one bitset;
 * - for a split that needs a page's worth, the lifted records as ranking orders them (`RankedLifts`): those with
 *   two steps or more, few when affinities are weaker than two steps each (a product rarely has two of a
 *   shopper's values), listed by step; those with one step in customRanking's order (ids without one), walked
 *   from the index's order only as far as pages have needed. A category page tests the bucket's membership of
 *   the first of them and stops at its last hit, instead of reading the bucket, the candidates and every
 *   affinity across the index.
 *
 * Kept per shopper (affinities and step) and index version (any write bumps it, the capacity too), most
 * recently used last, within LIFT_BYTES an index; past it, the least recent shopper's go first.
 */
import type { FilterSource } from '../filter/types.ts';
import { countCommon } from '../structures/bitset.ts';
import type { CustomOrder } from './custom-rank.ts';

const LIFT_BYTES = 32 * 1024 * 1024;

/** A search's affinities: each facet value's set (the index's words) with its score, and the step. */
export interface Affinities {
  all: Uint32Array[];
  scores: number[];
  step: number;
}

/** See the top of this file. */
export interface RankedLifts {
  /** Records with two steps or more, grouped by steps, best first, in customRanking's (else id) order within a group. */
  upper: Uint32Array;
  /** upperEnds[g]: where group g of `upper` ends. */
  upperEnds: Int32Array;
  /** Records with one step, in customRanking's (else id) order: the first `onesLength` of them so far. */
  ones: Uint32Array;
  onesLength: number;
  /** Where the walk of the order stands (a slot of `order`, a pending document), and whether it has ended. */
  slot: number;
  pendingAt: number;
  done: boolean;
  /** The order walked (null: ids), so a change of customRanking starts again. */
  custom: CustomOrder | null;
}

/** A shopper's affinities as read from the index for one version of it, and what they lift (built on first use). */
export interface Shopper {
  readonly version: number;
  readonly affinities: Affinities;
  /** The sum of the scores: the most steps a record can have is `totalScore / step`. */
  readonly totalScore: number;
  candidates?: Uint32Array;
  /** How many records `candidates` holds. */
  candidateCount?: number;
  /** Null when too many records have two steps or more for a list of them to pay (strong affinities). */
  ranked?: RankedLifts | null;
}

type Store = FilterSource & { readonly version: number; readonly capacity: number };

const cacheByStore = new WeakMap<object, Map<string, Shopper>>();

/**
 * The shopper's entry (`key`: their affinities as sent and the step), `read` from the index on their first
 * search since a write (null when no affinity applies to this index: not kept).
 */
export function shopperFor(store: Store, key: string, read: () => Omit<Shopper, 'version'> | null): Shopper | null {
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
  const found = read();
  if (found === null) return null;
  const entry: Shopper = { version: store.version, ...found };
  cache.set(key, entry);
  keepWithinBudget(cache);
  return entry;
}

/** The shopper's candidates (see the top of this file). */
export function shopperCandidates(store: Store, shopper: Shopper): Uint32Array {
  if (shopper.candidates === undefined) {
    shopper.candidates = candidateWords(store.capacity, shopper.affinities);
    shopper.candidateCount = countCommon(shopper.candidates, shopper.candidates);
    keepWithinBudget(cacheByStore.get(store)!);
  }
  return shopper.candidates;
}

/**
 * The shopper's lifted records as ranking orders them for `custom` (see `RankedLifts`), or null when the records
 * with two steps or more are too many to list (more than UPPER_MIN and one in UPPER_SHARE of the index: then the
 * split reads the bucket word by word).
 */
export function rankedLifts(store: Store, shopper: Shopper, custom: CustomOrder | null): RankedLifts | null {
  if (shopper.ranked === undefined || (shopper.ranked !== null && shopper.ranked.custom !== custom)) {
    shopper.ranked = rankLifts(store.capacity, shopper.affinities, custom);
    keepWithinBudget(cacheByStore.get(store)!);
  }
  return shopper.ranked;
}

const UPPER_SHARE = 64;
/** A list this long is always kept (a few µs of membership tests a page). */
const UPPER_MIN = 4096;

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

/** A record's score: the sum of the scores of the shopper's values it has. */
export function scoreOf(doc: number, { all, scores }: Affinities): number {
  const w = doc >>> 5;
  const bit = 1 << (doc & 31);
  let score = 0;
  for (let i = 0; i < all.length; i++) if (w < all[i].length && (all[i][w] & bit) !== 0) score += scores[i];
  return score;
}

/** A record's steps of affinity. */
export function stepsOf(doc: number, affinities: Affinities): number {
  return Math.floor(scoreOf(doc, affinities) / affinities.step);
}

/** Whether a record has exactly one step: a candidate (checked first, one word read) whose score says so. */
function hasOneStep(doc: number, candidates: Uint32Array, affinities: Affinities): boolean {
  const w = doc >>> 5;
  return w < candidates.length && (candidates[w] & (1 << (doc & 31))) !== 0 && stepsOf(doc, affinities) === 1;
}

/** The records with two steps or more, listed by step in the order's; the walk for the others not started. */
function rankLifts(capacity: number, affinities: Affinities, custom: CustomOrder | null): RankedLifts | null {
  const { all, scores, step } = affinities;
  // Records that may have two steps: in two affinities' sets, or in one worth two steps alone.
  const twice = new Uint32Array((capacity + 31) >>> 5);
  let count = 0;
  for (let w = 0; w < twice.length; w++) {
    let once = 0;
    let more = 0;
    for (let i = 0; i < all.length; i++) {
      const bits = w < all[i].length ? all[i][w] : 0;
      if (scores[i] >= 2 * step) more |= bits;
      more |= once & bits;
      once |= bits;
    }
    twice[w] = more;
    for (let bits = more; bits !== 0; bits &= bits - 1) count++;
  }
  if (count > Math.max(UPPER_MIN, capacity / UPPER_SHARE)) return null;
  const docs = new Uint32Array(count);
  const steps = new Uint16Array(count);
  let n = 0;
  for (let w = 0; w < twice.length; w++) {
    for (let bits = twice[w]; bits !== 0; bits &= bits - 1) {
      const doc = (w << 5) + (31 - Math.clz32(bits & -bits));
      const recordSteps = stepsOf(doc, affinities);
      if (recordSteps < 2) continue;
      docs[n] = doc;
      steps[n++] = recordSteps;
    }
  }
  // Grouped by steps, best first (a stable counting sort: ids stay ascending).
  let most = 0;
  for (let i = 0; i < n; i++) if (steps[i] > most) most = steps[i];
  const counts = new Int32Array(most + 1);
  for (let i = 0; i < n; i++) counts[steps[i]]++;
  const starts = new Int32Array(most + 1);
  const ends: number[] = [];
  for (let s = most, at = 0; s >= 2; s--) {
    if (counts[s] === 0) continue;
    starts[s] = at;
    at += counts[s];
    ends.push(at);
  }
  const upper = new Uint32Array(n);
  for (let i = 0; i < n; i++) upper[starts[steps[i]]++] = docs[i];
  // Each step's records in customRanking's order (few: sorted once per shopper and index version).
  if (custom !== null) {
    const rank = custom.rank;
    for (let g = 0, from = 0; g < ends.length; from = ends[g++]) upper.subarray(from, ends[g]).sort((a, b) => rank[a] - rank[b]);
  }
  return { upper, upperEnds: Int32Array.from(ends), ones: new Uint32Array(256), onesLength: 0, slot: 0, pendingAt: 0, done: false, custom };
}

/**
 * Walks on through the order (customRanking's, else ids) until `lifts` has `wanted` records of one step, the
 * order ends, or `budget` slots were visited; returns the slots visited. The walk is `walkOrder`'s (documents
 * appended since the last merge between the slots their ranks fall between, moved ones' old slots skipped),
 * resumable, with the candidates' test inline.
 */
export function walkOnes(lifts: RankedLifts, candidates: Uint32Array, affinities: Affinities, wanted: number, budget: number): number {
  const custom = lifts.custom;
  const words = candidates.length;
  let visited = 0;
  if (custom === null) {
    // Ids in order: `slot` is the next id.
    const end = Math.min(words << 5, lifts.slot + budget);
    let doc = lifts.slot;
    for (; doc < end && lifts.onesLength < wanted; doc++) {
      if (hasOneStep(doc, candidates, affinities)) appendOne(lifts, doc);
    }
    visited = doc - lifts.slot;
    lifts.slot = doc;
    lifts.done = doc >= words << 5;
    return visited;
  }
  const { order, pending, rank } = custom;
  const checkStale = (custom.stale ?? 0) > 0;
  while (lifts.onesLength < wanted && visited < budget) {
    let slot = lifts.slot;
    if (lifts.pendingAt < pending.length && (slot >= order.length || rank[pending[lifts.pendingAt]] < slot)) {
      const doc = pending[lifts.pendingAt++];
      visited++;
      if (hasOneStep(doc, candidates, affinities)) appendOne(lifts, doc);
      continue;
    }
    if (slot >= order.length) break;
    // Slots up to the next pending document's place, in one tight loop.
    const nextPending = lifts.pendingAt < pending.length ? Math.ceil(rank[pending[lifts.pendingAt]]) : order.length;
    const end = Math.min(order.length, nextPending === slot ? slot + 1 : nextPending, slot + budget - visited);
    for (; slot < end && lifts.onesLength < wanted; slot++) {
      const doc = order[slot];
      if ((!checkStale || rank[doc] === slot) && hasOneStep(doc, candidates, affinities)) appendOne(lifts, doc);
    }
    visited += slot - lifts.slot;
    lifts.slot = slot;
  }
  lifts.done = lifts.slot >= order.length && lifts.pendingAt >= pending.length;
  return visited;
}

function appendOne(lifts: RankedLifts, doc: number): void {
  if (lifts.onesLength === lifts.ones.length) {
    const grown = new Uint32Array(lifts.ones.length * 2);
    grown.set(lifts.ones);
    lifts.ones = grown;
  }
  lifts.ones[lifts.onesLength++] = doc;
}

/** What an entry holds (the list of one-step records counted as grown so far). */
function bytesOf(entry: Shopper): number {
  return (entry.candidates?.byteLength ?? 0) + (entry.ranked ? entry.ranked.upper.byteLength + entry.ranked.ones.byteLength : 0);
}

function keepWithinBudget(cache: Map<string, Shopper>): void {
  let bytes = 0;
  for (const entry of cache.values()) bytes += bytesOf(entry);
  for (const [oldest, entry] of cache) {
    if (bytes <= LIFT_BYTES || cache.size === 1) break;
    cache.delete(oldest);
    bytes -= bytesOf(entry);
  }
}
