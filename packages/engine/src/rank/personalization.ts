/**
 * Personalization's hand on a search (Algolia's `enablePersonalization`): records with the facet values the
 * searching user has affinities for move up. The engine learns nothing: the server hands it the user's
 * affinities (`SearchOptions.personalization`, from `@vitrine/insights`' profiles) and the engine decides
 * whether and where they apply:
 * - only when the search enables it (the `enablePersonalization` parameter, else the index's setting, off by
 *   default) and the impact (`personalizationImpact`, else the strategy's) is above 0;
 * - as a ranking criterion placed just before `custom` (at the end without customRanking): it orders only
 *   records tied on every criterion before it (typo, geo, words, filters, proximity, attribute, exact, or a
 *   replica's sort), so textual relevance always comes first, as on Algolia, where personalization competes with
 *   customRanking. The match set (filters, a secured key's filter, hidden records) is untouched, so nbHits and
 *   facets are the same, and rules' pins, placed after ranking (`search/merchandise.ts`), keep their positions.
 *
 * A record's score is the sum of the user's scores (1–100) for the facet values it has; its key in the criterion
 * is that score in steps of `101 - impact`: at impact 100 every point counts, at 50 there are two steps (so
 * customRanking orders most records), near 0 only the strongest affinities move anything.
 */
import type { IndexSettings, PersonalizationRankingInfo, SearchParams } from '@vitrine/protocol';
import type { SearchOptions } from '../api.ts';
import { createEngineError } from '../errors.ts';
import type { FilterSource } from '../filter/types.ts';
import { countCommon, type Bitset } from '../structures/bitset.ts';
import { queryBitsets } from '../structures/bitset-pool.ts';
import type { CustomOrder } from './custom-rank.ts';
import type { BucketPart, RankRule } from './rule.ts';
import { rankedLifts, scoreOf, shopperCandidates, shopperFor, stepsOf, walkOnes, type Affinities, type RankedLifts, type Shopper } from './shopper-lifts.ts';

export const PERSONALIZATION_RULE = 'personalization';
/** At most this many affinities are read per search (a profile keeps far fewer). */
const MAX_AFFINITIES = 200;

/**
 * The records of a split with a step of affinity and their steps, in id order: buffers of the thread, grown to
 * the largest bucket split so far, so that a search allocates only what it hands on (the ordered ids, the parts).
 */
let keyedDocs = new Uint32Array(0);
let keyedSteps = new Uint16Array(0);

export interface PersonalizationRule extends RankRule {
  info(doc: number): PersonalizationRankingInfo;
  /**
   * The order that breaks this criterion's ties when nothing else follows it: customRanking's when only `custom`
   * comes after it, null (ids) when no criterion does; undefined otherwise (set by `insertPersonalization`).
   */
  thenOrder: CustomOrder | null | undefined;
}

/** Settings checks (a bad PUT settings is a 400 at once, not a failing search later). */
export function validatePersonalizationSettings(settings: IndexSettings): void {
  if (settings.enablePersonalization !== undefined && settings.enablePersonalization !== null && typeof settings.enablePersonalization !== 'boolean') {
    throw createEngineError('INVALID_SETTING', 'enablePersonalization', 'expected a boolean');
  }
}

function enabled(settings: IndexSettings, override: IndexSettings | undefined, params: SearchParams): boolean {
  const asked = params.enablePersonalization as unknown;
  if (asked !== undefined && asked !== null) return asked === true || asked === 'true';
  const setting = override?.enablePersonalization ?? settings.enablePersonalization;
  return setting === true;
}

/** The criterion for this search, or null when personalization does not apply to it. */
export function personalizationRule(
  store: FilterSource & { readonly version: number; readonly capacity: number },
  settings: IndexSettings,
  override: IndexSettings | undefined,
  params: SearchParams,
  extra: SearchOptions | undefined,
): PersonalizationRule | null {
  const input = extra?.personalization;
  if (input === undefined || input.affinities.length === 0 || !enabled(settings, override, params)) return null;
  const asked = Number(params.personalizationImpact ?? input.impact);
  const impact = Number.isFinite(asked) ? Math.min(100, Math.max(0, Math.round(asked))) : 0;
  if (impact === 0) return null;
  const step = 101 - impact;
  // Read from the index once per shopper and index version (`shopper-lifts.ts`): a search of a known shopper
  // looks up no facet value and normalises no text.
  const shopper = shopperFor(store, shopperKey(input.affinities, step), () => readAffinities(store, input.affinities, step));
  if (shopper === null) return null;
  const affinities = shopper.affinities;
  // A text query's tie has its walk estimated with the order still to walk (`walkPays`).
  const textTie = typeof params.query === 'string' && params.query.trim() !== '';
  // `|| 0`: a record without affinity keys 0, not -0.
  const key = (doc: number): number => -stepsOf(doc, affinities) || 0;
  const rule: PersonalizationRule = {
    name: PERSONALIZATION_RULE,
    key,
    thenOrder: undefined,
    /**
     * A large bucket (an empty query ties every record on the textual criteria). When this criterion is the
     * last but customRanking and the caller says how many records it needs, the shopper's lifted records are
     * taken in ranking's order (`shopper-lifts.ts`) until that many are in the bucket (`splitRanked`). Otherwise
     * the bucket's lifted records are found word by word (`splitByWords`).
     */
    split(set: Bitset, count: number, need?: number): BucketPart[] {
      const candidates = shopperCandidates(store, shopper);
      const budget = walkBudget(set.words);
      const reach = textTie && rule.thenOrder !== undefined ? listReach(shopper, rule.thenOrder) : undefined;
      if (need !== undefined && rule.thenOrder !== undefined && walkPays(set, count, need, budget, candidates, shopper.candidateCount!, reach)) {
        const lifts = rankedLifts(store, shopper, rule.thenOrder);
        const parts = lifts === null ? null : splitRanked(set, count, need, budget, lifts, candidates, affinities);
        if (parts !== null) return parts;
      }
      return splitByWords(set, count, { ...affinities, candidates }, shopper.totalScore);
    },
    info: (doc) => ({ filtersScore: 0, rankingScore: -key(doc), score: scoreOf(doc, affinities) }),
  };
  return rule;
}

/** The cache key of a shopper's affinities as sent, with the step: no lookup in the index needed to make it. */
function shopperKey(affinities: ReadonlyArray<readonly [string, string, number]>, step: number): string {
  let key = String(step);
  const count = Math.min(affinities.length, MAX_AFFINITIES);
  for (let i = 0; i < count; i++) key += `\u0002${affinities[i][0]}\u0001${affinities[i][1]}\u0001${affinities[i][2]}`;
  return key;
}

/** The affinities this index can apply: each value's set (the index's own, shared, never modified) and score. */
function readAffinities(store: FilterSource, affinities: ReadonlyArray<readonly [string, string, number]>, step: number): Omit<Shopper, 'version'> | null {
  const all: Uint32Array[] = [];
  const scores: number[] = [];
  let totalScore = 0;
  for (const [facet, value, asked] of affinities.slice(0, MAX_AFFINITIES)) {
    // Whole points from 1 to 100, as profiles have them: the steps of 200 affinities fit 16 bits.
    const score = Math.min(100, Math.round(asked));
    if (!(score >= 1)) continue;
    let set: Bitset;
    try {
      set = store.facet(facet, value);
    } catch {
      // An attribute this index cannot filter on: that affinity orders nothing here.
      continue;
    }
    if (set.isEmpty()) continue;
    all.push(set.words);
    scores.push(score);
    totalScore += score;
  }
  return all.length === 0 ? null : { affinities: { all, scores, step }, totalScore };
}

/**
 * The bucket's records with a step, every one (word by word of the bucket and the shopper's candidates): one
 * part per step, best first (a counting sort into one array), the rest in one part, all resolved. The buffers are
 * the thread's: a search allocates the ordered ids and the parts.
 */
function splitByWords(set: Bitset, count: number, affinities: Affinities & { candidates: Uint32Array }, totalScore: number): BucketPart[] {
  if (keyedDocs.length < count) {
    keyedDocs = new Uint32Array(count);
    keyedSteps = new Uint16Array(count);
  }
  const keyed = scoreBucket(set.words, affinities, keyedDocs, keyedSteps);
  // How many records each step has, then each step's records in one run of `ordered`, best step first (stable:
  // ids stay ascending within a run, as ordering wants them).
  const counts = new Int32Array(Math.floor(totalScore / affinities.step) + 1);
  for (let k = 0; k < keyed; k++) counts[keyedSteps[k]]++;
  const starts = new Int32Array(counts.length);
  for (let steps = counts.length - 1, at = 0; steps >= 1; steps--) {
    starts[steps] = at;
    at += counts[steps];
  }
  const ordered = new Uint32Array(keyed);
  const parts: BucketPart[] = [];
  for (let steps = counts.length - 1; steps >= 1; steps--) {
    if (counts[steps] > 0) parts.push(stepPart(set.capacity, ordered.subarray(starts[steps], starts[steps] + counts[steps])));
  }
  for (let k = 0; k < keyed; k++) ordered[starts[keyedSteps[k]]++] = keyedDocs[k];
  parts.push({ set: () => without(set, ordered), count: count - keyed, resolved: true });
  return parts;
}

/**
 * The first `need` records of the bucket by this criterion then customRanking, from the shopper's lifted records
 * as ranking orders them (`RankedLifts`): records of two steps or more, a step at a time, then records of one
 * step (the walk of the index's order going on where earlier pages left it), a membership test each, until the
 * page is full; they go in parts in their final order. Then the rest of the bucket. Null when the list's slots
 * scanned and the order's walked would pass `budget` (`walkBudget`).
 */
function splitRanked(
  set: Bitset,
  count: number,
  need: number,
  budget: number,
  lifts: RankedLifts,
  candidates: Uint32Array,
  affinities: Affinities,
): BucketPart[] | null {
  const words = set.words;
  const chosen = new Uint32Array(Math.min(count, need));
  const parts: BucketPart[] = [];
  let taken = 0;
  const { upper, upperEnds } = lifts;
  for (let g = 0, i = 0; g < upperEnds.length && taken < need; i = upperEnds[g++]) {
    const first = taken;
    for (; i < upperEnds[g] && taken < need; i++) if ((words[upper[i] >>> 5] & (1 << (upper[i] & 31))) !== 0) chosen[taken++] = upper[i];
    if (taken > first) parts.push(orderedPart(set.capacity, chosen.slice(first, taken)));
  }
  if (taken < need) {
    const first = taken;
    let visited = 0;
    let k = 0;
    while (taken < need && taken < chosen.length) {
      if (k === lifts.onesLength) {
        if (lifts.done) break;
        visited += walkOnes(lifts, candidates, affinities, Math.max(256, 2 * lifts.onesLength), budget - visited - k);
        if (k === lifts.onesLength && !lifts.done) return null;
        continue;
      }
      // The list's slots count against the budget too: a long list scanned in vain costs as the walk does.
      if (visited + k >= budget) return null;
      const doc = lifts.ones[k++];
      if ((words[doc >>> 5] & (1 << (doc & 31))) !== 0) chosen[taken++] = doc;
    }
    if (taken > first) parts.push(orderedPart(set.capacity, chosen.slice(first, taken)));
  }
  // Ordering reaches the rest only when the page is not full (no gate: the parts place all they hold), that is
  // when every lifted record of the bucket was taken: what is left has no step.
  const placed = chosen.subarray(0, taken);
  parts.push({ set: () => without(set, placed), count: count - taken, resolved: true });
  return parts;
}

/** A split visits at most one slot in WALK_SHARE of the index, list and order together (the words path reads it all). */
const WALK_SHARE = 8;
/** A walk expected within this share of its budget is taken without counting first (a category page's). */
const SURE_WALK_SHARE = 16;

function walkBudget(words: Uint32Array): number {
  return Math.max(1024, (words.length << 5) / WALK_SHARE);
}

/** How far a shopper's list of one-step records has come along `order` (none yet: 0), for a text query's gate. */
interface ListReach {
  listed: number;
  done: boolean;
}

function listReach(shopper: Shopper, order: CustomOrder | null): ListReach {
  const lifts = shopper.ranked;
  const started = lifts !== undefined && lifts !== null && lifts.custom === order;
  return { listed: started ? lifts.onesLength : 0, done: started && lifts.done };
}

/**
 * Whether the walk is expected to fill the page within its budget. Records of a bucket spread evenly over the
 * index's order meet the walk every capacity / count slots; a bucket too sparse for that goes word by word. A
 * bucket between the two has its records a step may lift counted first (a pass over the words, what the words
 * path costs): a text query's bucket often shares few or none of them (a brand the shopper never chose), and a
 * walk would then scan the list and the order in vain, to its budget, before the words path ran anyway.
 *
 * With `reach` (a text query's tie) every walk is counted first, and the estimate adds the order's slots the
 * list still has to be extended by (capacity / candidates a list entry): a page met only beyond where the list
 * stands goes word by word. A category page keeps the cheaper estimate: there the walk is what grows the list
 * that serves the shopper's next pages (engine DESIGN, Personalization).
 */
function walkPays(set: Bitset, count: number, need: number, budget: number, candidates: Uint32Array, candidateCount: number, reach?: ListReach): boolean {
  const capacity = set.words.length << 5;
  const evenly = (need * capacity) / Math.max(1, count);
  if (evenly > budget) return false;
  if (evenly <= budget / SURE_WALK_SHARE && reach === undefined) return true;
  const met = countCommon(set.words, candidates);
  if (met === 0) return false;
  const listSlots = (need * candidateCount) / met;
  const orderSlots = reach === undefined || reach.done ? 0 : (Math.max(0, listSlots - reach.listed) * capacity) / Math.max(1, candidateCount);
  return listSlots + orderSlots <= budget / 2;
}

/** A step's records in their final order (customRanking's, else ids'), as `splitRanked` finds them. */
function orderedPart(capacity: number, ids: Uint32Array): BucketPart {
  return { set: () => setOf(capacity, ids), ids: () => ids, count: ids.length, resolved: true, inOrder: true };
}

function stepPart(capacity: number, ids: Uint32Array): BucketPart {
  return { set: () => setOf(capacity, ids), ids: () => ids, count: ids.length, resolved: true };
}

/** The search's own set of `ids` (from the thread's pool: handed back when the search ends, never allocated anew). */
function setOf(capacity: number, ids: Uint32Array): Bitset {
  const set = queryBitsets.acquire(capacity);
  for (let i = 0; i < ids.length; i++) set.add(ids[i]);
  return set;
}

/** `set` without `ids`, in a set of the search's own. */
function without(set: Bitset, ids: Uint32Array): Bitset {
  const others = queryBitsets.copy(set);
  for (let i = 0; i < ids.length; i++) others.delete(ids[i]);
  return others;
}

/**
 * Lists the records of `bucket` with at least one step of affinity (`docs`, ascending) and their steps
 * (`steps`); returns how many. Word by word of the bucket and the shopper's candidates, and only where both
 * have records are the affinities' words read and the records' scores summed: two streams rather than one per
 * affinity. A function of its own, over its arguments only: V8 keeps one optimised loop for it.
 */
function scoreBucket(bucket: Uint32Array, affinities: Affinities & { candidates: Uint32Array }, docs: Uint32Array, steps: Uint16Array): number {
  const { all, scores, candidates, step } = affinities;
  const end = Math.min(bucket.length, candidates.length);
  let keyed = 0;
  for (let w = 0; w < end; w++) {
    let lifted = bucket[w] & candidates[w];
    while (lifted !== 0) {
      const low = lifted & -lifted;
      let score = 0;
      for (let i = 0; i < all.length; i++) {
        const words = all[i];
        if (w < words.length && (words[w] & low) !== 0) score += scores[i];
      }
      const recordSteps = Math.floor(score / step);
      if (recordSteps >= 1) {
        docs[keyed] = (w << 5) + (31 - Math.clz32(low));
        steps[keyed++] = recordSteps;
      }
      lifted ^= low;
    }
  }
  return keyed;
}

/** Inserts the criterion before `custom` (at the end without one), in place. */
export function insertPersonalization(rules: RankRule[], rule: PersonalizationRule | null, customOrder: CustomOrder | null): void {
  if (rule === null) return;
  const custom = rules.findIndex((r) => r.name === 'custom');
  rules.splice(custom === -1 ? rules.length : custom, 0, rule);
  rule.thenOrder = custom === -1 ? null : custom === rules.length - 2 ? customOrder : undefined;
}

/** `_rankingInfo.personalization` of a hit of a personalized search (nothing for other searches). */
export function personalizationInfo(rules: readonly RankRule[], doc: number): { personalization?: PersonalizationRankingInfo } {
  const rule = rules.find((r) => r.name === PERSONALIZATION_RULE) as PersonalizationRule | undefined;
  return rule === undefined ? {} : { personalization: rule.info(doc) };
}
