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
 * zeroed again after each use.
 */
let scratch = new Float64Array(0);
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
  for (const [facet, value, score] of input.affinities.slice(0, MAX_AFFINITIES)) {
    if (!(score > 0)) continue;
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
        scratch = new Float64Array(set.capacity);
        touched = new Int32Array(set.capacity);
      }
      let touchedCount = 0;
      const words = set.words;
      for (let i = 0; i < sets.length; i++) {
        const other = sets[i].words;
        const score = scores[i];
        const end = Math.min(words.length, other.length);
        for (let w = 0; w < end; w++) {
          let bits = words[w] & other[w];
          while (bits !== 0) {
            const low = bits & -bits;
            const doc = (w << 5) + (31 - Math.clz32(low));
            if (scratch[doc] === 0) touched[touchedCount++] = doc;
            scratch[doc] += score;
            bits ^= low;
          }
        }
      }
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
