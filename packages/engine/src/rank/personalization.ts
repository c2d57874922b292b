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
 * Scores summed per record while splitting a bucket, and the records touched: buffers of the thread, the scores
 * zeroed again after each use. 16 bits a record (2 MB at a million, not 8): the records an affinity names are
 * spread over the whole index, and reading their sums missed the caches most of the time.
 */
let scratch = new Uint16Array(0);
let touched = new Int32Array(0);

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
  store: FilterSource,
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
  let totalScore = 0;
  for (const [facet, value, asked] of input.affinities.slice(0, MAX_AFFINITIES)) {
    // Whole points from 1 to 100, as profiles have them: sums of 200 fit the 16-bit buffer below.
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
    totalScore += score;
  }
  if (sets.length === 0) return null;
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
     * A large bucket (an empty query ties every record on the textual criteria): each affinity's records in the
     * bucket add their score word by word of the bitsets (no key computed record by record), then the records
     * with a step of affinity go in one part per key, best first (a counting sort into one array), and the rest
     * in one part, all resolved, for the next criterion (customRanking's walk): the cost follows the records the
     * affinities name, and the buffers are the thread's (a search allocates the ordered ids and the parts).
     */
    split(set: Bitset, count: number): BucketPart[] {
      if (scratch.length < set.capacity) {
        scratch = new Uint16Array(set.capacity);
        touched = new Int32Array(set.capacity);
      }
      const touchedCount = addScores(set.words, sets, scores, scratch, touched);
      // Steps per record (kept in the scratch until placed), and how many records each step has.
      const counts = new Int32Array(Math.floor(totalScore / step) + 1);
      let keyed = 0;
      for (let t = 0; t < touchedCount; t++) {
        const doc = touched[t];
        const steps = Math.floor(scratch[doc] / step);
        scratch[doc] = steps;
        if (steps < 1) continue;
        counts[steps]++;
        keyed++;
      }
      // Best step first: each step's records in one run of `ordered` (a counting sort).
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
        // Ascending, as ordering wants ids: the records were gathered affinity by affinity.
        parts.push({ set: () => Bitset.fromIds(set.capacity, run), ids: () => run.sort(), count: run.length, resolved: true });
      }
      for (let t = 0; t < touchedCount; t++) {
        const doc = touched[t];
        const steps = scratch[doc];
        scratch[doc] = 0;
        if (steps >= 1) ordered[starts[steps]++] = doc;
      }
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
 * Adds each affinity's score to the records of `bucket` it names (`sums`, by record) and lists each record
 * touched once (`touched`); returns how many. A function of its own, over its arguments only: V8 keeps one
 * optimised loop for it (inside the criterion's closure, over the module's buffers, it ran several times slower).
 */
function addScores(bucket: Uint32Array, sets: readonly Bitset[], scores: readonly number[], sums: Uint16Array, touched: Int32Array): number {
  let touchedCount = 0;
  for (let i = 0; i < sets.length; i++) {
    const other = sets[i].words;
    const score = scores[i];
    const end = Math.min(bucket.length, other.length);
    for (let w = 0; w < end; w++) {
      let bits = bucket[w] & other[w];
      while (bits !== 0) {
        const low = bits & -bits;
        const doc = (w << 5) + (31 - Math.clz32(low));
        if (sums[doc] === 0) touched[touchedCount++] = doc;
        sums[doc] += score;
        bits ^= low;
      }
    }
  }
  return touchedCount;
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
