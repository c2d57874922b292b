/**
 * Recommendation models, rebuilt from the event log (on a schedule and on demand) in a thread of their own
 * (`model-thread.ts`), and handed to the main thread packed (`model-tables.ts`); the recommend route only looks
 * them up.
 *
 * - bought-together: items purchased by the same user (authenticated token first) within `boughtTogetherSpanMs`,
 *   in one event or several. Each pair counts once per user.
 * - co-interest (blended into related-products): items clicked, viewed or converted by the same user in one
 *   session (events less than `sessionGapMs` apart). Each pair counts once per session.
 *   Pair scores are a cosine (pairs / √(itemA × itemB)) damped for small supports (× pairs / (pairs + 1)).
 * - trending: weighted event counts per item in the last `trendingWindowDays` against the window before
 *   (view 0.5, click 1, add-to-cart 3, purchase 5, other conversions 3). Velocity (recent + k) / (previous + k)
 *   times volume, so a steady best-seller and a sudden riser both rank; normalised so the first scores 100.
 * - facet signals: the same counts for `filters` events (`brand:Apple`), merged into trending facets.
 *
 * Memory is bounded whatever the events hold (events name any objectID, the index need not have it): past
 * a million distinct objectIDs in an index the least seen half is forgotten, pairs past four million lose the
 * rarest, open sessions past 200,000 close oldest first, facet keys past 100,000 lose the lightest
 * (`defaultBounds`). A shop's real items, seen again and again, stay; a flood of random objectIDs is what goes.
 */
import type { InsightsDb } from './db.ts';
import type { InsightsOptions } from './deps.ts';
import { DAY_MS } from './deps.ts';
import type { PackedIndexModels, PackedModels, RankedTable, TrendStat } from './model-tables.ts';
import { packIds, trendScore } from './model-tables.ts';
import { BASKET_ITEMS_CAP, PairCounts } from './pair-counts.ts';

export type { Models, ScoredItem, TrendingItem, TrendStat } from './model-tables.ts';
export { emptyModels, modelsView, trendScore } from './model-tables.ts';

/** What a build holds at most, per index. */
export interface BuildBounds {
  /** Distinct objectIDs counted. */
  items: number;
  /** Item pairs counted, per model. */
  pairs: number;
  /** Sessions (and purchase spans) open at once. */
  openBaskets: number;
  /** Facet keys (`attribute\u0000value`) counted. */
  facetKeys: number;
  /** Items kept in the ranking (trending items, trending facets' counts). */
  ranked: number;
}

export const defaultBounds: BuildBounds = { items: 1_000_000, pairs: 4_000_000, openBaskets: 200_000, facetKeys: 100_000, ranked: 200_000 };
/** Events read per query: each page is a read of its own, so checkpoints are never held back for a whole build. */
const PAGE = 5000;

function weightOf(type: string, subtype: string | null): number {
  if (type === 'view') return 0.5;
  if (type === 'click') return 1;
  if (subtype === 'purchase') return 5;
  return 3;
}

interface EventRow {
  id: number;
  ts: number;
  index_name: string;
  type: string;
  subtype: string | null;
  user_token: string;
  auth_token: string | null;
  object_ids: string | null;
  filters: string | null;
}

interface Basket {
  /** The session's last event, or the span's first purchase. */
  at: number;
  items: number[];
}

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
  private readonly openSessions = new Map<string, Basket>();
  private readonly openSpans = new Map<string, Basket>();
  readonly facets: FacetTally;

  constructor(
    private readonly options: InsightsOptions,
    private readonly bounds: BuildBounds,
  ) {
    this.sessions = new PairCounts(bounds.pairs);
    this.purchases = new PairCounts(bounds.pairs);
    this.facets = new FacetTally(bounds.facetKeys);
  }

  /** Numbers for the objectIDs of one event (whose items are never forgotten before they are counted). */
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

  count(ids: readonly number[], recent: number, previous: number): void {
    for (const id of ids) {
      this.seen[id]++;
      this.recent[id] += recent;
      this.previous[id] += previous;
    }
  }

  /** Adds the items to the user's open session (or closes it and opens another), and to the purchase span. */
  basket(user: string, ts: number, ids: readonly number[], purchase: boolean): void {
    this.extend(this.openSessions, this.sessions, user, ts, ids, (basket) => ts - basket.at <= this.options.sessionGapMs, true);
    if (purchase) this.extend(this.openSpans, this.purchases, user, ts, ids, (basket) => ts - basket.at <= this.options.boughtTogetherSpanMs, false);
  }

  private extend(open: Map<string, Basket>, pairs: PairCounts, user: string, ts: number, ids: readonly number[], continues: (basket: Basket) => boolean, renew: boolean): void {
    let basket = open.get(user);
    if (basket && !continues(basket)) {
      pairs.add(basket.items);
      basket = undefined;
    }
    if (!basket) basket = { at: ts, items: [] };
    else if (renew) basket.at = ts;
    for (const id of ids) if (basket.items.length < BASKET_ITEMS_CAP && !basket.items.includes(id)) basket.items.push(id);
    // Re-inserted: the map's first entries are the baskets touched longest ago, closed first past the cap.
    open.delete(user);
    open.set(user, basket);
    if (open.size > this.bounds.openBaskets) {
      const [oldest, first] = open.entries().next().value!;
      open.delete(oldest);
      pairs.add(first.items);
    }
  }

  /** Closes every open basket (the end of the events). */
  closeAll(): void {
    for (const basket of this.openSessions.values()) this.sessions.add(basket.items);
    for (const basket of this.openSpans.values()) this.purchases.add(basket.items);
    this.openSessions.clear();
    this.openSpans.clear();
  }

  /** Past `bounds.items`: the half of the items seen least often is forgotten, from the counts and open baskets. */
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
    for (const open of [this.openSessions, this.openSpans]) {
      for (const basket of open.values()) basket.items = basket.items.filter((id) => !dead.has(id));
    }
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
    this.closeAll();
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

const COLUMNS = 'id, ts, index_name, type, subtype, user_token, auth_token, object_ids, filters';
const MODEL_EVENTS = "index_name IS NOT NULL AND type != 'instantsearch'";

/** The events from `since` on, in time order, read a page per query (`ts`, then `id`: each page resumes after the last row). */
function* eventsSince(db: InsightsDb, since: number): Generator<EventRow> {
  const first = db.prepare(`SELECT ${COLUMNS} FROM events WHERE ts >= ? AND ${MODEL_EVENTS} ORDER BY ts, id LIMIT ${PAGE}`);
  const sameTime = db.prepare(`SELECT ${COLUMNS} FROM events WHERE ts = ? AND id > ? AND ${MODEL_EVENTS} ORDER BY id LIMIT ${PAGE}`);
  const later = db.prepare(`SELECT ${COLUMNS} FROM events WHERE ts > ? AND ${MODEL_EVENTS} ORDER BY ts, id LIMIT ${PAGE}`);
  let rows = first.all(since) as EventRow[];
  while (rows.length > 0) {
    yield* rows;
    const last = rows[rows.length - 1];
    rows = sameTime.all(last.ts, last.id) as EventRow[];
    if (rows.length === 0) rows = later.all(last.ts) as EventRow[];
  }
}

export function buildModels(db: InsightsDb, now: number, options: InsightsOptions, bounds = defaultBounds): PackedModels {
  const trendWindow = options.trendingWindowDays * DAY_MS;
  const pairWindowStart = now - options.modelWindowDays * DAY_MS;
  const since = Math.min(pairWindowStart, now - 2 * trendWindow);
  const indexes = new Map<string, IndexCounts>();
  let eventsRead = 0;

  for (const row of eventsSince(db, since)) {
    eventsRead++;
    let counts = indexes.get(row.index_name);
    if (!counts) indexes.set(row.index_name, (counts = new IndexCounts(options, bounds)));
    const weight = weightOf(row.type, row.subtype);
    // Trending windows: (now - window, now] and the window before; events ahead of `now` count in neither.
    const recent = row.ts <= now && row.ts > now - trendWindow ? weight : 0;
    const previous = row.ts <= now - trendWindow && row.ts > now - 2 * trendWindow ? weight : 0;
    if (row.filters) {
      if (recent === 0 && previous === 0) continue;
      for (const filter of JSON.parse(row.filters) as string[]) counts.facets.add(filter.replace(':', '\u0000'), recent, previous);
      continue;
    }
    if (!row.object_ids) continue;
    const ids = counts.numbersOf(JSON.parse(row.object_ids) as string[]);
    counts.count(ids, recent, previous);
    if (row.ts < pairWindowStart) continue;
    counts.basket(row.auth_token ?? row.user_token, row.ts, ids, row.type === 'conversion' && row.subtype === 'purchase');
  }
  return { builtAt: now, eventsRead, indexes: [...indexes].map(([name, counts]) => [name, counts.pack()]) };
}
