/**
 * What personalization keeps of a user's day of events (`GroupState.e`, folded with the rest of the group by
 * `model-groups.ts`): per event type and name, the objects and facet values the events named, with how many
 * times. The strategy is not applied here: it can change at any time, and the profiles are derived from these
 * counts with whichever strategy is in force (`derive.ts`), so a new strategy needs no new fold.
 *
 * Bounded like the rest of the group: the first `ENTRIES_PER_GROUP` (type, name, target) seen, counted after.
 */
import type { FoldedEvent, GroupState } from '../model-groups.ts';

/** Part of the fold's settings (`foldSettings`): aggregates folded without it are folded again. */
export const PERSONAL_FOLD = 1;
export const ENTRIES_PER_GROUP = 100;

/** `type \0 name \0 o \0 objectID` or `type \0 name \0 f \0 attribute \0 value`, and the count. */
export type PersonalEntry = [key: string, count: number];

export const OBJECT = 'o';
export const FACET = 'f';

export function foldPersonal(state: GroupState, event: FoldedEvent): void {
  if (event.name === undefined) return;
  const prefix = `${event.type}\u0000${event.name}\u0000`;
  const targets = event.filters
    ? event.filters.map((filter) => `${FACET}\u0000${filter.replace(':', '\u0000')}`)
    : (event.objectIDs ?? []).map((objectID) => `${OBJECT}\u0000${objectID}`);
  if (targets.length === 0) return;
  const entries = (state.e ??= []);
  for (const target of targets) {
    const key = prefix + target;
    const entry = entries.find((e) => e[0] === key);
    if (entry) entry[1]++;
    else if (entries.length < ENTRIES_PER_GROUP) entries.push([key, 1]);
  }
}

/** An entry's parts: the event's type and name, and an object or a facet value. */
export function readEntry(key: string): { event: string; objectID?: string; attribute?: string; value?: string } {
  const parts = key.split('\u0000');
  const event = `${parts[0]}\u0000${parts[1]}`;
  return parts[2] === OBJECT ? { event, objectID: parts.slice(3).join('\u0000') } : { event, attribute: parts[3], value: parts.slice(4).join('\u0000') };
}
