/**
 * User profiles, derived from the models' aggregates (each user's day of events in each index, with
 * personalization's counts `GroupState.e`: `fold.ts`) and the strategy in force, in the profile thread
 * (`profile-thread.ts`), written to the profiles file (`profile-store.ts`).
 *
 * A user's affinity for a facet value, before scaling:
 *
 *   Σ over the user's events e of the window naming the value: eventScore(e) × facetScore(facet) × 2^(−age(e) / 7)
 *
 * where an event names a value when it names an object whose record has that value (a click, view or
 * conversion on objectIDs), or the value itself (a `filters` event: `brand:Nordlys`); eventScore is the
 * strategy's score for the event's type and name (events it does not list count for nothing), facetScore the
 * strategy's score for the facet, and age(e) the number of whole UTC days since the event's day (a week-old
 * event weighs half). The window is the models' (`modelWindowDays`). The profile keeps the user's 20 strongest
 * values per facet, scaled so that the strongest of all scores 100 (1–100, rounded; those rounding to 0 go).
 *
 * Objects' facet values come from the index's records, which this thread does not have: they are cached in
 * the profiles file, fetched by the main thread through the host (`profiles.ts`) when missing or older than a
 * day. A first pass that finds objects missing answers them without writing profiles; the main thread
 * fetches them and asks again (`final`), which leaves out what it still could not find.
 */
import type { Database as SqliteDatabase } from 'better-sqlite3';
import type { PersonalizationStrategy } from '@vitrine/protocol';
import { DAY_MS } from '../deps.ts';
import { dayOf } from '../days.ts';
import type { GroupState } from '../model-groups.ts';
import type { ObjectFacets, ProfileStore, StoredProfile } from './profile-store.ts';

export const HALF_LIFE_DAYS = 7;
export const VALUES_PER_FACET = 20;
/** Objects counted per user (the first ones seen: a client flooding one user's events fills one profile). */
const OBJECTS_PER_USER = 500;
/** Objects whose facet values one pass asks for at most (the next build asks for the rest). */
export const MAX_MISSING = 20_000;
/** Cached facet values older than this are fetched again (a product's brand may change). */
export const FACETS_TTL_MS = DAY_MS;

export interface ProfileBuildRequest {
  now: number;
  strategy: PersonalizationStrategy;
  /** The first UTC day of the window. */
  fromDay: number;
  /** Facet values fetched for the last pass's missing objects. */
  facets?: Array<[indexName: string, objectID: string, facets: ObjectFacets]>;
  /** Write the profiles even if some objects' facet values are missing (they are left out). */
  final: boolean;
}

export interface ProfileBuildReply {
  /** Objects whose facet values are needed (nothing was written), or undefined once the profiles are written. */
  missing?: Array<[indexName: string, objectID: string]>;
  profiles: number;
  /** Aggregate rows read. */
  rows: number;
  ms: number;
}

interface UserCounts {
  last: number;
  /** `index \0 objectID` → weight (event score × count × decay). */
  objects: Map<string, number>;
  /** `attribute \0 value` → weight, facet score applied. */
  values: Map<string, number>;
}

function add<K>(map: Map<K, number>, key: K, weight: number): void {
  map.set(key, (map.get(key) ?? 0) + weight);
}

export function deriveProfiles(models: SqliteDatabase, store: ProfileStore, request: ProfileBuildRequest): ProfileBuildReply {
  const started = performance.now();
  const { now, strategy } = request;
  const facetNames = strategy.facetsScoring.map((f) => f.facetName);
  store.useFacets(facetNames);
  if (request.facets) store.putFacets(request.facets, now);
  const eventScores = new Map(strategy.eventsScoring.map((e) => [`${e.eventType}\u0000${e.eventName}`, e.score]));
  const facetScores = new Map(strategy.facetsScoring.map((f) => [f.facetName, f.score]));
  const today = dayOf(now);
  const users = new Map<string, UserCounts>();
  let rows = 0;
  const groups = models.prepare('SELECT day, index_name, user, state FROM user_days WHERE day >= ? AND day <= ?').iterate(request.fromDay, today + 1);
  for (const row of groups as IterableIterator<{ day: number; index_name: string; user: string; state: string }>) {
    rows++;
    const state = JSON.parse(row.state) as GroupState;
    let counts = users.get(row.user);
    if (!counts) users.set(row.user, (counts = { last: 0, objects: new Map(), values: new Map() }));
    counts.last = Math.max(counts.last, state.t);
    if (!state.e) continue;
    const decay = 0.5 ** (Math.max(0, today - row.day) / HALF_LIFE_DAYS);
    const scoresOf = state.e.n.map((event) => eventScores.get(event));
    for (const [event, objectID, count] of state.e.o) {
      const eventScore = scoresOf[event];
      if (eventScore === undefined) continue;
      const objectKey = `${row.index_name}\u0000${objectID}`;
      if (counts.objects.size < OBJECTS_PER_USER || counts.objects.has(objectKey)) add(counts.objects, objectKey, eventScore * count * decay);
    }
    for (const [event, key, count] of state.e.f) {
      const eventScore = scoresOf[event];
      const facetScore = facetScores.get(key.slice(0, key.indexOf('\u0000')));
      if (eventScore !== undefined && facetScore !== undefined) add(counts.values, key, eventScore * count * decay * facetScore);
    }
  }
  const fresh = store.facetsReader(now - FACETS_TTL_MS);
  const known = new Map<string, ObjectFacets | undefined>();
  const missing: Array<[string, string]> = [];
  for (const counts of users.values()) {
    for (const objectKey of counts.objects.keys()) {
      if (known.has(objectKey)) continue;
      const [indexName, objectID] = splitKey(objectKey);
      const facets = fresh(indexName, objectID);
      known.set(objectKey, facets);
      if (facets === undefined && missing.length < MAX_MISSING) missing.push([indexName, objectID]);
    }
  }
  const ms = () => Math.round(performance.now() - started);
  if (missing.length > 0 && !request.final) return { missing, profiles: 0, rows, ms: ms() };
  const profiles = function* (): Generator<[string, StoredProfile]> {
    for (const [user, counts] of users) {
      for (const [objectKey, weight] of counts.objects) {
        const facets = known.get(objectKey);
        if (!facets) continue;
        for (const [facet, facetScore] of facetScores) {
          for (const value of facets[facet] ?? []) add(counts.values, `${facet}\u0000${value}`, weight * facetScore);
        }
      }
      const scores = scaled(counts.values);
      if (scores !== null) yield [user, { scores, lastEventAt: counts.last, builtAt: now }];
    }
  };
  const written = store.replaceProfiles(profiles());
  return { profiles: written, rows, ms: ms() };
}

function splitKey(key: string): [string, string] {
  const at = key.indexOf('\u0000');
  return [key.slice(0, at), key.slice(at + 1)];
}

/** The 20 strongest values per facet, scaled to the strongest of all (100); null when nothing scores. */
function scaled(values: Map<string, number>): StoredProfile['scores'] | null {
  let max = 0;
  for (const weight of values.values()) max = Math.max(max, weight);
  if (!(max > 0)) return null;
  const byFacet = new Map<string, Array<[string, number]>>();
  for (const [key, weight] of values) {
    const score = Math.round((100 * weight) / max);
    if (score < 1) continue;
    const [facet, value] = splitKey(key);
    let list = byFacet.get(facet);
    if (!list) byFacet.set(facet, (list = []));
    list.push([value, score]);
  }
  const scores: StoredProfile['scores'] = {};
  for (const [facet, list] of byFacet) {
    list.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    scores[facet] = Object.fromEntries(list.slice(0, VALUES_PER_FACET));
  }
  return Object.keys(scores).length > 0 ? scores : null;
}
