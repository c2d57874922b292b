/**
 * A user's day of events in one index, folded into what the models need of it (`GroupState`): the aggregate the
 * incremental builds keep (`model-store.ts`), one row per index, UTC day and user (the authenticated token
 * first), and what the models are derived from (`models.ts`).
 *
 * The state is a fold of the group's events in time order (then id): an event later than every event folded
 * continues it (`follows`, `add`), which is what almost every new event does; anything else (an event arriving
 * late, an event deleted) folds the group again from its events (`model-update.ts`). So a group's state is a
 * function of its events, whatever order they arrived in and however the builds were cut, which is what makes an
 * incremental build equal to a build from scratch.
 *
 * What a group holds is bounded, whatever its events name, so the aggregates are never larger than about the
 * events they count: the first `ITEMS_PER_GROUP` items seen (with the events naming them and their weight),
 * the first `FACETS_PER_GROUP` facet keys, the first `BASKETS_PER_GROUP` sessions and purchase spans, each with
 * its first `BASKET_ITEMS_CAP` distinct items. A shopper's day stays far below; a client sending one user's
 * millions of random objectIDs fills one group and no more.
 *
 * - A session: the user's events naming objects, each less than `sessionGapMs` after the one before.
 * - A purchase span: the user's purchases from the first one to `boughtTogetherSpanMs` after it.
 * Both end with the day: a session past midnight (UTC) goes on as a new one.
 */
import type { InsightsOptions } from './deps.ts';
import { facetKeyOf } from './event-filters.ts';
import { BASKET_ITEMS_CAP } from './pair-counts.ts';
import { foldPersonal, PERSONAL_FOLD } from './personalization/fold.ts';
import type { PersonalCounts } from './personalization/fold.ts';

export const ITEMS_PER_GROUP = 200;
export const FACETS_PER_GROUP = 50;
export const BASKETS_PER_GROUP = 100;

/** What the fold reads of an event. */
export interface FoldedEvent {
  id: number;
  ts: number;
  type: string;
  subtype: string | null;
  /** The event's name (personalization's strategies score events by name). */
  name?: string;
  objectIDs: string[] | null;
  /** `attribute:value`, as stored. */
  filters: string[] | null;
}

/** Short keys: a million of these are stored as JSON. */
export interface GroupState {
  /** Events folded. */
  n: number;
  /** The last event folded: its time and id. */
  t: number;
  d: number;
  /** Items in the order first seen: objectID, occurrences in the events, weight. */
  i: Array<[string, number, number]>;
  /** Facet keys (`attribute\u0000value`) of filter events, with their weight. */
  f: Array<[string, number]>;
  /** Sessions, their distinct items each. */
  s: string[][];
  /** The last event of the session under way (null before the first), and whether it is kept (the last of `s`). */
  sa: number | null;
  sk: 0 | 1;
  /** Purchase spans, their distinct items each; when the span under way began, and whether it is kept. */
  p: string[][];
  pa: number | null;
  pk: 0 | 1;
  /** Personalization's counts by event name and target (`personalization/fold.ts`); absent until one. */
  e?: PersonalCounts;
}

/** What the fold depends on, besides the caps: a state folded under other values is folded again. */
export function foldSettings(options: InsightsOptions): string {
  return JSON.stringify({ v: 2, personal: PERSONAL_FOLD, items: ITEMS_PER_GROUP, facets: FACETS_PER_GROUP, baskets: BASKETS_PER_GROUP, basket: BASKET_ITEMS_CAP, sessionGapMs: options.sessionGapMs, spanMs: options.boughtTogetherSpanMs });
}

/** An event's weight in the trending counts. */
export function weightOf(type: string, subtype: string | null): number {
  if (type === 'view') return 0.5;
  if (type === 'click') return 1;
  if (subtype === 'purchase') return 5;
  return 3;
}

function addDistinct(basket: string[], objectIDs: readonly string[]): void {
  for (const id of objectIDs) if (basket.length < BASKET_ITEMS_CAP && !basket.includes(id)) basket.push(id);
}

export class GroupFold {
  private readonly items: Map<string, [string, number, number]>;
  private readonly facets: Map<string, [string, number]>;

  private constructor(
    readonly state: GroupState,
    private readonly options: InsightsOptions,
  ) {
    this.items = new Map(state.i.map((item) => [item[0], item]));
    this.facets = new Map(state.f.map((facet) => [facet[0], facet]));
  }

  static empty(options: InsightsOptions): GroupFold {
    return new GroupFold({ n: 0, t: 0, d: 0, i: [], f: [], s: [], sa: null, sk: 0, p: [], pa: null, pk: 0 }, options);
  }

  static of(json: string, options: InsightsOptions): GroupFold {
    return new GroupFold(JSON.parse(json) as GroupState, options);
  }

  /** Whether `event` comes after every event folded (time, then id): then `add` continues the fold. */
  follows(event: FoldedEvent): boolean {
    return this.state.n === 0 || event.ts > this.state.t || (event.ts === this.state.t && event.id > this.state.d);
  }

  add(event: FoldedEvent): void {
    const state = this.state;
    state.n++;
    state.t = event.ts;
    state.d = event.id;
    const weight = weightOf(event.type, event.subtype);
    foldPersonal(state, event);
    if (event.filters) {
      for (const filter of event.filters) {
        // A numeric filter (`rating>=4`) is no facet value: counted, it would take a facet's place in the group.
        const key = facetKeyOf(filter);
        if (key === null) continue;
        const facet = this.facets.get(key);
        if (facet) facet[1] += weight;
        else if (state.f.length < FACETS_PER_GROUP) this.facets.set(key, state.f[state.f.push([key, weight]) - 1]);
      }
      return;
    }
    const objectIDs = event.objectIDs;
    if (!objectIDs) return;
    for (const objectID of objectIDs) {
      const item = this.items.get(objectID);
      if (item) {
        item[1]++;
        item[2] += weight;
      } else if (state.i.length < ITEMS_PER_GROUP) {
        this.items.set(objectID, state.i[state.i.push([objectID, 1, weight]) - 1]);
      }
    }
    if (state.sa !== null && event.ts - state.sa <= this.options.sessionGapMs) {
      if (state.sk) addDistinct(state.s[state.s.length - 1], objectIDs);
    } else {
      state.sk = state.s.length < BASKETS_PER_GROUP ? 1 : 0;
      if (state.sk) addDistinct(state.s[state.s.push([]) - 1], objectIDs);
    }
    state.sa = event.ts;
    if (event.type !== 'conversion' || event.subtype !== 'purchase') return;
    if (state.pa !== null && event.ts - state.pa <= this.options.boughtTogetherSpanMs) {
      if (state.pk) addDistinct(state.p[state.p.length - 1], objectIDs);
    } else {
      state.pa = event.ts;
      state.pk = state.p.length < BASKETS_PER_GROUP ? 1 : 0;
      if (state.pk) addDistinct(state.p[state.p.push([]) - 1], objectIDs);
    }
  }

  encode(): string {
    return JSON.stringify(this.state);
  }
}
