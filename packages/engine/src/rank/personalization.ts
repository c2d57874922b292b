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
import { Bitset } from '../structures/bitset.ts';
import type { BucketPart, RankRule } from './rule.ts';

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
  store: FilterSource & { readonly version: number },
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
  const sets: Bitset[] = [];
  const scores: number[] = [];
  const kept: string[] = [];
  let totalScore = 0;
  for (const [facet, value, asked] of input.affinities.slice(0, MAX_AFFINITIES)) {
    // Whole points from 1 to 100, as profiles have them: the steps of 200 affinities fit 16 bits.
    const score = Math.min(100, Math.round(asked));
    if (!(score >= 1)) continue;
    let set: Bitset;
    try {
      // The index's own set (shared, never modified here): no copy per affinity, whatever the catalogue's size.
      set = store.facet(facet, value);
    } catch {
      // An attribute this index cannot filter on: that affinity orders nothing here.
      continue;
    }
    if (set.isEmpty()) continue;
    sets.push(set);
    scores.push(score);
    kept.push(`${facet}\u0001${value}\u0001${score}`);
    totalScore += score;
  }
  if (sets.length === 0) return null;
  const all = sets.map((set) => set.words);
  // The candidates only when a large bucket is split (a text query's buckets are usually keyed record by record).
  let affinities: Affinities | undefined;
  const affinitiesForSplit = (): Affinities =>
    (affinities ??= { all, scores, candidates: candidatesOf(store, `${step}\u0002${kept.join('\u0002')}`, all, scores, step) });
  const scoreOf = (doc: number): number => {
    let score = 0;
    for (let i = 0; i < sets.length; i++) if (sets[i].has(doc)) score += scores[i];
    return score;
  };
  // `|| 0`: a record without affinity keys 0, not -0.
  const key = (doc: number): number => -Math.floor(scoreOf(doc) / step) || 0;
  return {
    name: PERSONALIZATION_RULE,
    key,
    /**
     * A large bucket (an empty query ties every record on the textual criteria): its records with a step of
     * affinity are found word by word of the bucket (`scoreBucket`, no key computed record by record), go in one
     * part per step, best first (a counting sort into one array), and the rest in one part, all resolved, for
     * the next criterion (customRanking's walk). The buffers are the thread's: a search allocates the ordered
     * ids and the parts.
     */
    split(set: Bitset, count: number): BucketPart[] {
      if (keyedDocs.length < count) {
        keyedDocs = new Uint32Array(count);
        keyedSteps = new Uint16Array(count);
      }
      const keyed = scoreBucket(set.words, affinitiesForSplit(), step, keyedDocs, keyedSteps);
      // How many records each step has, then each step's records in one run of `ordered`, best step first (a
      // counting sort, stable: ids stay ascending within a run, as ordering wants them).
      const counts = new Int32Array(Math.floor(totalScore / step) + 1);
      for (let k = 0; k < keyed; k++) counts[keyedSteps[k]]++;
      const starts = new Int32Array(counts.length);
      for (let steps = counts.length - 1, at = 0; steps >= 1; steps--) {
        starts[steps] = at;
        at += counts[steps];
      }
      const ordered = new Uint32Array(keyed);
      const parts: BucketPart[] = [];
      for (let steps = counts.length - 1; steps >= 1; steps--) {
        if (counts[steps] === 0) continue;
        const run = ordered.subarray(starts[steps], starts[steps] + counts[steps]);
        parts.push({ set: () => Bitset.fromIds(set.capacity, run), ids: () => run, count: run.length, resolved: true });
      }
      for (let k = 0; k < keyed; k++) ordered[starts[keyedSteps[k]]++] = keyedDocs[k];
      const rest = (): Bitset => {
        const others = set.clone();
        for (let i = 0; i < ordered.length; i++) others.delete(ordered[i]);
        return others;
      };
      parts.push({ set: rest, count: count - keyed, resolved: true });
      return parts;
    },
    info: (doc) => ({ filtersScore: 0, rankingScore: -key(doc), score: scoreOf(doc) }),
  };
}

/**
 * Lists the records of `bucket` with at least one step of affinity (`docs`, ascending) and their steps
 * (`steps`); returns how many. Word by word of the bucket and the shopper's candidates (`candidatesOf`), and
 * only where both have records are the affinities' words read and the records' scores summed: two streams
 * rather than one per affinity. A function of its own, over its arguments only: V8 keeps one optimised loop for it.
 */
function scoreBucket(bucket: Uint32Array, sets: Affinities, step: number, docs: Uint32Array, steps: Uint16Array): number {
  const { all, scores, candidates } = sets;
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

/** A search's affinities as `scoreBucket` reads them: every set with its score, and the shopper's candidates. */
interface Affinities {
  all: Uint32Array[];
  scores: number[];
  candidates: Uint32Array;
}

/**
 * The records a step of affinity may lift, for the whole index: those with a strong affinity (a score of a step
 * alone) or two weak ones (a superset: the split sums their scores). Kept per shopper (affinities and step) and
 * index version, most recent first, within CANDIDATE_BYTES an index: a shopper's searches read one bitset for
 * their candidates instead of one per affinity (their reads, 125 KB an affinity at a million records, were most
 * of a category page's personalization). Past the budget, the least recent shopper's set goes first.
 */
const CANDIDATE_BYTES = 32 * 1024 * 1024;
const candidateCache = new WeakMap<object, Map<string, { version: number; words: Uint32Array }>>();

/** `key`: the shopper's affinities kept for this search (facet, value, score) and the step. */
function candidatesOf(store: FilterSource & { readonly version: number }, key: string, sets: Uint32Array[], scores: number[], step: number): Uint32Array {
  let cache = candidateCache.get(store);
  if (cache === undefined) candidateCache.set(store, (cache = new Map()));
  const cached = cache.get(key);
  if (cached !== undefined) {
    // Most recent last (a Map keeps insertion order); a set built before a write (any write bumps the version,
    // the capacity too) is built again.
    cache.delete(key);
    if (cached.version === store.version) {
      cache.set(key, cached);
      return cached.words;
    }
  }
  const words = new Uint32Array((store.capacity + 31) >>> 5);
  for (let w = 0; w < words.length; w++) {
    let lifted = 0;
    let once = 0;
    for (let i = 0; i < sets.length; i++) {
      const bits = w < sets[i].length ? sets[i][w] : 0;
      if (scores[i] >= step) lifted |= bits;
      else {
        lifted |= once & bits;
        once |= bits;
      }
    }
    words[w] = lifted;
  }
  cache.set(key, { version: store.version, words });
  let bytes = 0;
  for (const entry of cache.values()) bytes += entry.words.byteLength;
  for (const [oldest, entry] of cache) {
    if (bytes <= CANDIDATE_BYTES) break;
    cache.delete(oldest);
    bytes -= entry.words.byteLength;
  }
  return words;
}

/** Inserts the criterion before `custom` (at the end without one), in place. */
export function insertPersonalization(rules: RankRule[], rule: PersonalizationRule | null): void {
  if (rule === null) return;
  const custom = rules.findIndex((r) => r.name === 'custom');
  rules.splice(custom === -1 ? rules.length : custom, 0, rule);
}

/** `_rankingInfo.personalization` of a hit of a personalized search (nothing for other searches). */
export function personalizationInfo(rules: readonly RankRule[], doc: number): { personalization?: PersonalizationRankingInfo } {
  const rule = rules.find((r) => r.name === PERSONALIZATION_RULE) as PersonalizationRule | undefined;
  return rule === undefined ? {} : { personalization: rule.info(doc) };
}
