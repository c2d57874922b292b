/**
 * The rules' hand on a search's page: hidden records leave the match set before counting and ranking;
 * promoted records are pinned at their positions of the ranked list, matching the query or not.
 */
import type { SearchOptions } from '../api.ts';
import { evaluateFilterConjuncts } from '../filter/index.ts';
import type { FilterNode } from '../filter/types.ts';
import { queryBitsets } from '../structures/bitset-pool.ts';
import type { RulePlan } from '../rules/consequences.ts';
import type { PreparedSearch, SearchEnvironment } from './prepare.ts';

/** A promoted record and the position it is pinned at (0-based, over the whole result list). */
export interface Pin {
  doc: number;
  position: number;
}

export interface Merchandising {
  /** In order of position; each record once. */
  pins: Pin[];
  /** Pinned records that are not in the match set: they add to nbHits. */
  outside: number;
}

function passes(env: SearchEnvironment, filter: FilterNode | null | undefined): (doc: number) => boolean {
  if (filter === null || filter === undefined) return () => true;
  const { include, exclude } = evaluateFilterConjuncts(filter, env.store, queryBitsets);
  return (doc) => include.every((set) => set.has(doc)) && !exclude.some((set) => set.has(doc));
}

/**
 * Removes the hidden records from the match set, and resolves the pins: records that exist, are not hidden,
 * pass a secured key's forced filter always and the request's filters with `filterPromotes`. A record pinned
 * twice keeps its first pin (the higher-precedence rule's).
 */
export function merchandise(env: SearchEnvironment, prepared: PreparedSearch, plan: RulePlan, extra: SearchOptions | undefined): Merchandising {
  const { store } = env;
  const hidden = new Set<number>();
  for (const objectID of plan.hidden) {
    const doc = store.docOf(objectID);
    if (doc === undefined) continue;
    hidden.add(doc);
    if (prepared.matches.has(doc)) {
      prepared.matches.delete(doc);
      prepared.matchCount--;
    }
  }
  const pins: Pin[] = [];
  if (plan.promotes.length === 0) return { pins, outside: 0 };
  const allowed = passes(env, plan.filterPromotes ? prepared.filter : extra?.extraFilter);
  const seen = new Set<number>();
  for (const group of plan.promotes) {
    let position = group.position;
    for (const objectID of group.objectIDs) {
      const doc = store.docOf(objectID);
      if (doc === undefined || hidden.has(doc) || seen.has(doc) || !allowed(doc)) continue;
      seen.add(doc);
      pins.push({ doc, position: position++ });
    }
  }
  pins.sort((a, b) => a.position - b.position);
  let outside = 0;
  for (const pin of pins) if (!prepared.matches.has(pin.doc)) outside++;
  return { pins, outside };
}

/** The ranked list with the pinned records taken out and put back at their positions (or at the end, if short). */
export function placePins(ranked: number[], pins: Pin[]): number[] {
  const pinned = new Set(pins.map((p) => p.doc));
  const list = ranked.filter((doc) => !pinned.has(doc));
  for (const pin of pins) list.splice(Math.min(pin.position, list.length), 0, pin.doc);
  return list;
}
