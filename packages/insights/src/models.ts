/**
 * Recommendation models, derived from the models' aggregates (`model-store.ts`: each user's day of events in
 * each index, folded by `model-groups.ts`) after bringing them up to date with the event log
 * (`model-update.ts`), in a thread of their own (`model-thread.ts`), and handed to the main thread packed
 * (`model-tables.ts`); the recommend route only looks them up.
 *
 * Windows are whole UTC days, counted back from the build's day (`today`):
 * - bought-together: items purchased by the same user in one purchase span (from a first purchase to
 *   `boughtTogetherSpanMs` after it, within the day), in one event or several, over the last `modelWindowDays`.
 *   Each pair counts once per span.
 * - co-interest (blended into related-products): items clicked, viewed or converted by the same user in one
 *   session (events less than `sessionGapMs` apart, within the day), over the same days. Each pair counts once
 *   per session. Pair scores are a cosine (pairs / √(itemA × itemB)) damped for small supports (× pairs / (pairs + 1)).
 * - trending: weighted event counts per item in the last `trendingWindowDays` days (today included) against the
 *   days before (view 0.5, click 1, add-to-cart 3, purchase 5, other conversions 3). Velocity (recent + k) /
 *   (previous + k) times volume, so a steady best-seller and a sudden riser both rank; normalised so the first
 *   scores 100. Events stamped on a later day (a client's clock may run up to `maxEventFutureMs`, a day,
 *   fast) count in neither window until that day.
 * - facet signals: the same counts for `filters` events (`brand:Apple`), merged into trending facets.
 *
 * Memory is bounded whatever the events hold (events name any objectID, the index need not have it): past
 * a million distinct objectIDs in an index the least seen half is forgotten, pairs past four million lose the
 * rarest, facet keys past 100,000 lose the lightest (`defaultBounds`), as the groups are read in key order (day,
 * index, user: the same order for aggregates built at once or over many builds, so the same models). A shop's
 * real items, seen again and again, stay; a flood of random objectIDs is what goes.
 */
import type { InsightsDb } from './db.ts';
import type { InsightsOptions } from './deps.ts';
import { dayOf } from './days.ts';
import { keptFromDay } from './model-changes.ts';
import type { GroupState } from './model-groups.ts';
import type { ModelStore } from './model-store.ts';
import type { PackedIndexModels, PackedModels, RankedTable, TrendStat } from './model-tables.ts';
import { packIds, trendScore } from './model-tables.ts';
import { updateAggregates } from './model-update.ts';
import { PairCounts } from './pair-counts.ts';

export type { Models, ScoredItem, TrendingItem, TrendStat } from './model-tables.ts';
export { emptyModels, modelsView, trendScore } from './model-tables.ts';

/** What a build holds at most, per index. */
export interface BuildBounds {
  /** Distinct objectIDs counted. */
  items: number;
  /** Item pairs counted, per model. */
  pairs: number;
  /** Facet keys (`attribute\u0000value`) counted. */
  facetKeys: number;
  /** Items kept in the ranking (trending items, trending facets' counts). */
  ranked: number;
}

export const defaultBounds: BuildBounds = { items: 1_000_000, pairs: 4_000_000, facetKeys: 100_000, ranked: 200_000 };

/** Weights in the two trending windows, by key, for facet keys (`attribute\u0000value`). */
class FacetTally {
  readonly stats = new Map<string, TrendStat>();

  constructor(private readonly max: number) {}

  add(key: string, recent: number, previous: number): void {
    let stat = this.stats.get(key);
    if (!stat) this.stats.set(key, (stat = { recent: 0, previous: 0 }));
    stat.recent += recent;
    stat.previous += previous;
    if (this.stats.size > this.max) this.prune();
  }

  /** The lighter half goes. */
  private prune(): void {
    const weights = Float64Array.from(this.stats.values(), (s) => s.recent + s.previous).sort();
    const limit = weights[weights.length >> 1];
    for (const [key, stat] of this.stats) if (stat.recent + stat.previous <= limit) this.stats.delete(key);
  }
}

/** What one index's events add up to. */
class IndexCounts {
  /** objectID → number, and back; numbers of forgotten items are given out again. */
  private readonly numbers = new Map<string, number>();
  private readonly names: string[] = [];
  private readonly free: number[] = [];
  private readonly seen: number[] = [];
  private readonly recent: number[] = [];
  private readonly previous: number[] = [];
  readonly sessions: PairCounts;
  readonly purchases: PairCounts;
  readonly facets: FacetTally;

  constructor(private readonly bounds: BuildBounds) {
    this.sessions = new PairCounts(bounds.pairs);
    this.purchases = new PairCounts(bounds.pairs);
    this.facets = new FacetTally(bounds.facetKeys);
  }

  /** Numbers for a list of objectIDs (never forgotten before the list is counted). */
  numbersOf(objectIDs: readonly string[]): number[] {
    if (this.numbers.size + objectIDs.length > this.bounds.items) this.forgetLeastSeen();
    return objectIDs.map((objectID) => this.number(objectID));
  }

  private number(objectID: string): number {
    let id = this.numbers.get(objectID);
    if (id !== undefined) return id;
    id = this.free.pop() ?? this.names.length;
    this.numbers.set(objectID, id);
    this.names[id] = objectID;
    this.seen[id] = this.recent[id] = this.previous[id] = 0;
    return id;
  }

  nameOf = (id: number): string => this.names[id];

  /**
   * One user's day: its items' counts in the trending window the day falls in (`recent` / `previous`, or
   * neither), its facet keys likewise, and its sessions and purchase spans when `pairs`.
   */
  addGroup(group: GroupState, recent: boolean, previous: boolean, pairs: boolean): void {
    const ids = this.numbersOf(group.i.map((item) => item[0]));
    group.i.forEach(([, seen, weight], k) => {
      const id = ids[k];
      this.seen[id] += seen;
      if (recent) this.recent[id] += weight;
      if (previous) this.previous[id] += weight;
    });
    if (recent || previous) for (const [key, weight] of group.f) this.facets.add(key, recent ? weight : 0, previous ? weight : 0);
    if (!pairs) return;
    for (const session of group.s) this.sessions.add(this.numbersOf(session));
    for (const span of group.p) this.purchases.add(this.numbersOf(span));
  }

  /** Past `bounds.items`: the half of the items seen least often is forgotten, from the counts and pairs. */
  private forgetLeastSeen(): void {
    const counts = Float64Array.from(this.numbers.values(), (id) => this.seen[id]).sort();
    const limit = counts[counts.length >> 1];
    const dead = new Set<number>();
    for (const [name, id] of this.numbers) {
      if (this.seen[id] > limit) continue;
      dead.add(id);
      this.numbers.delete(name);
      this.free.push(id);
    }
    this.sessions.forget(dead);
    this.purchases.forget(dead);
  }

  /** Items with activity in either window, best trend first (those without recent activity last, score 0). */
  ranking(): RankedTable {
    const items: Array<{ name: string; recent: number; previous: number; score: number }> = [];
    for (const [name, id] of this.numbers) {
      const stat = { recent: this.recent[id], previous: this.previous[id] };
      if (stat.recent > 0 || stat.previous > 0) items.push({ name, ...stat, score: trendScore(stat) });
    }
    return rankedTable(items, this.bounds.ranked);
  }

  pack(): PackedIndexModels {
    const facets = [...this.facets.stats].map(([name, stat]) => ({ name, ...stat, score: 0 }));
    facets.sort((a, b) => b.recent + b.previous - (a.recent + a.previous) || (a.name < b.name ? -1 : 1));
    return {
      boughtTogether: this.purchases.table(this.nameOf),
      coInterest: this.sessions.table(this.nameOf),
      items: this.ranking(),
      facets: rankedTable(facets, this.bounds.ranked, false),
    };
  }
}

/** Sorts (unless `sort` is false) by score and objectID, keeps the first `max`, normalises the scores to the first. */
function rankedTable(items: Array<{ name: string; recent: number; previous: number; score: number }>, max: number, sort = true): RankedTable {
  if (sort) items.sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : 1));
  const kept = items.slice(0, max);
  const top = kept[0]?.score || 1;
  const table: RankedTable = {
    ids: packIds(kept.map((item) => item.name)),
    recent: Float64Array.from(kept, (item) => item.recent),
    previous: Float64Array.from(kept, (item) => item.previous),
    scores: Float64Array.from(kept, (item) => (item.recent > 0 ? Math.round((item.score / top) * 10_000) / 100 : 0)),
    ranked: 0,
  };
  while (table.ranked < kept.length && kept[table.ranked].recent > 0) table.ranked++;
  return table;
}

export interface BuildReport {
  /** Whether the aggregates were rebuilt from scratch. */
  full: boolean;
  /** Event rows read from the log. */
  eventsScanned: number;
  /** The last event id and change the aggregates count (`model-changes.ts`). */
  readTo: number;
  changesTo: number;
  /** The build's own time (ms): aggregates updated, models derived. */
  ms: number;
}

/** The models of the aggregates held from `now`'s window on (`eventsRead`: the events they count). */
export function deriveModels(store: ModelStore, now: number, options: InsightsOptions, bounds = defaultBounds): PackedModels {
  const today = dayOf(now);
  const trend = options.trendingWindowDays;
  const pairsFrom = today - options.modelWindowDays;
  const indexes = new Map<string, IndexCounts>();
  let eventsRead = 0;
  for (const row of store.groups(keptFromDay(now, options))) {
    let counts = indexes.get(row.index_name);
    if (!counts) indexes.set(row.index_name, (counts = new IndexCounts(bounds)));
    const group = JSON.parse(row.state) as GroupState;
    eventsRead += group.n;
    // Trending windows: (today - trend, today] and the window before; a day ahead counts in neither.
    const recent = row.day <= today && row.day > today - trend;
    const previous = row.day <= today - trend && row.day > today - 2 * trend;
    counts.addGroup(group, recent, previous, row.day >= pairsFrom);
  }
  return { builtAt: now, eventsRead, indexes: [...indexes].map(([name, counts]) => [name, counts.pack()]) };
}

/**
 * A build: the aggregates brought up to date with the event log (from scratch when `full`), then the models
 * derived from them. The caller has run `beginModelBuild` on the insights database (`model-changes.ts`).
 */
export function buildModels(events: InsightsDb, store: ModelStore, now: number, options: InsightsOptions, request: { full?: boolean; bounds?: BuildBounds } = {}): { packed: PackedModels; report: BuildReport } {
  const started = performance.now();
  const update = updateAggregates(events, store, now, options, { full: request.full });
  const packed = deriveModels(store, now, options, request.bounds);
  return { packed, report: { ...update, ms: Math.round(performance.now() - started) } };
}
