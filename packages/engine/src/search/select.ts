/**
 * Choosing the documents of the requested page from the match set: ranked top-k (see `rank/order.ts`), with
 * shortcuts when nothing textual ranks (walk customRanking order or id order and stop at the page), `distinct`
 * (group by attributeForDistinct, keep N per group) and relevant sort for virtual replicas.
 */
import { topLevel } from '../index/changes.ts';
import type { Bitset } from '../structures/bitset.ts';
import { queryBitsets } from '../structures/bitset-pool.ts';
import { orderSet, orderTop, toIdArray } from '../rank/order.ts';
import type { RankRule } from '../rank/rule.ts';
import type { IndexStore } from '../index/store.ts';
import { facetValues, parsePath } from '../index/attributes.ts';
import { normalizeText } from '../tokenize/index.ts';
import type { PreparedSearch } from './prepare.ts';

/** The first `need` documents of the match set in ranking order. */
export function rankedPrefix(prepared: PreparedSearch, matches: Bitset, matchCount: number, need: number, rules: RankRule[] = prepared.rules): number[] {
  return orderSet(matches, matchCount, rules, need);
}

/** Group id per document for `attributeForDistinct` (-1: no value, the document is its own group). */
export function distinctGroups(store: IndexStore, attribute: string): Int32Array {
  return store.cached(`distinct:${attribute}`, () => {
    const groups = new Int32Array(store.capacity).fill(-1);
    const ids = new Map<string, number>();
    const path = parsePath(attribute);
    store.records.forEach((record, doc) => {
      if (record === undefined) return;
      const values = facetValues(record, path);
      if (values.length === 0) return;
      const key = normalizeText(values[0]);
      let id = ids.get(key);
      if (id === undefined) ids.set(key, (id = ids.size));
      groups[doc] = id;
    });
    return groups;
  }, undefined, { reads: [topLevel(attribute)] });
}

/** nbHits under distinct: every group counts up to `perGroup` documents. */
export function distinctCount(matches: Bitset, groups: Int32Array, perGroup: number): number {
  const seen = new Map<number, number>();
  let count = 0;
  matches.forEach((doc) => {
    const group = groups[doc];
    if (group < 0) {
      count++;
      return;
    }
    const n = seen.get(group) ?? 0;
    if (n < perGroup) {
      seen.set(group, n + 1);
      count++;
    }
  });
  return count;
}

/**
 * The match set with at most `perGroup` documents per distinct group (the lowest ids), for
 * `facetingAfterDistinct`: as in Algolia, the counts are right when the records of a group share their facet
 * values, whichever of them stands for the group.
 */
export function distinctMatches(matches: Bitset, groups: Int32Array, perGroup: number): { set: Bitset; count: number } {
  const set = queryBitsets.acquire(matches.capacity);
  const seen = new Map<number, number>();
  let count = 0;
  matches.forEach((doc) => {
    const group = groups[doc];
    if (group >= 0) {
      const n = seen.get(group) ?? 0;
      if (n >= perGroup) return;
      seen.set(group, n + 1);
    }
    set.add(doc);
    count++;
  });
  return { set, count };
}

/** The first `need` documents in ranking order keeping at most `perGroup` per distinct group. */
export function distinctPrefix(prepared: PreparedSearch, groups: Int32Array, perGroup: number, need: number): number[] {
  let budget = Math.max(need * 2, 16);
  for (;;) {
    const ordered = rankedPrefix(prepared, prepared.matches, prepared.matchCount, budget);
    const seen = new Map<number, number>();
    const out: number[] = [];
    for (const doc of ordered) {
      const group = groups[doc];
      if (group >= 0) {
        const n = seen.get(group) ?? 0;
        if (n >= perGroup) continue;
        seen.set(group, n + 1);
      }
      out.push(doc);
      if (out.length === need) return out;
    }
    if (ordered.length < budget) return out;
    budget *= 4;
  }
}

/**
 * Relevant sort (virtual replicas): the most relevant hits, as many as `relevancyStrictness` keeps, ordered by
 * customRanking. Strictness 100 keeps the hits tied for the best relevance; 0 keeps every hit; in between, the
 * best (100 − strictness) % of hits by relevance, never fewer than the best-relevance tie.
 */
export function relevantSort(prepared: PreparedSearch, strictness: number): { sorted: number[]; nbSortedHits: number } {
  const relevance = prepared.rules.filter((rule) => rule.name !== 'custom');
  const custom = prepared.context.custom?.rank ?? null;
  const all = toIdArray(prepared.matches, prepared.matchCount);
  let kept: number[];
  if (relevance.length === 0 || strictness === 0) kept = Array.from(all);
  else {
    const ordered = orderTop(all, relevance, all.length);
    const key = (doc: number): string => relevance.map((rule) => rule.key(doc)).join(',');
    const best = key(ordered[0]);
    let tie = 0;
    while (tie < ordered.length && key(ordered[tie]) === best) tie++;
    const share = Math.ceil((all.length * (100 - strictness)) / 100);
    kept = ordered.slice(0, Math.max(tie, share));
  }
  if (custom !== null) kept.sort((a, b) => custom[a] - custom[b]);
  return { sorted: kept, nbSortedHits: kept.length };
}
