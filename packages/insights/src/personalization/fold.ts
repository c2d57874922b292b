/**
 * What personalization keeps of a user's day of events (`GroupState.e`, folded with the rest of the group by
 * `model-groups.ts`): per event type and name, the objects and facet values the events named, with how many
 * times. The strategy is not applied here: it can change at any time, and the profiles are derived from these
 * counts with whichever strategy is in force (`derive.ts`), so a new strategy needs no new fold.
 *
 * Compact, since a million rows are stored as JSON: the day's event names once (`n`), then entries pointing at
 * them by position. Bounded like the rest of the group: the first `ENTRIES_PER_GROUP` (event, target) pairs
 * seen, counted after.
 */
import { facetKeyOf } from '../event-filters.ts';
import type { FoldedEvent, GroupState } from '../model-groups.ts';

/** Part of the fold's settings (`foldSettings`): aggregates folded otherwise are folded again. */
export const PERSONAL_FOLD = 2;
export const ENTRIES_PER_GROUP = 100;

export interface PersonalCounts {
  /** `type \0 name` of the day's events, in the order first seen. */
  n: string[];
  /** Objects: the event (position in `n`), the objectID, the count. */
  o: Array<[event: number, objectID: string, count: number]>;
  /** Facet values of `filters` events: the event, `attribute \0 value`, the count. */
  f: Array<[event: number, key: string, count: number]>;
}

function count<T extends [number, string, number]>(list: T[], total: number, event: number, target: string): boolean {
  const entry = list.find((e) => e[0] === event && e[1] === target);
  if (entry) entry[2]++;
  else if (total < ENTRIES_PER_GROUP) {
    list.push([event, target, 1] as T);
    return true;
  }
  return false;
}

export function foldPersonal(state: GroupState, event: FoldedEvent): void {
  if (event.name === undefined) return;
  // A numeric filter (`rating>=4`) names no facet value.
  const facets = event.filters ? event.filters.map(facetKeyOf).filter((key): key is string => key !== null) : [];
  const objects = event.filters ? [] : (event.objectIDs ?? []);
  if (facets.length === 0 && objects.length === 0) return;
  const counts = (state.e ??= { n: [], o: [], f: [] });
  const name = `${event.type}\u0000${event.name}`;
  let at = counts.n.indexOf(name);
  if (at === -1) at = counts.n.push(name) - 1;
  let total = counts.o.length + counts.f.length;
  for (const objectID of objects) if (count(counts.o, total, at, objectID)) total++;
  for (const key of facets) if (count(counts.f, total, at, key)) total++;
}
