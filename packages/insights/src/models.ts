/**
 * Recommendation models, rebuilt from the event log (on a schedule and on demand) and held in memory; the
 * recommend route only looks them up.
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
 */
import type { InsightsDb } from './db.ts';
import type { InsightsOptions } from './deps.ts';
import { DAY_MS } from './deps.ts';

export interface ScoredItem {
  objectID: string;
  /** 0 to 100. */
  score: number;
}

export interface TrendStat {
  recent: number;
  previous: number;
}

export interface TrendingItem extends TrendStat, ScoredItem {}

export interface Models {
  builtAt: number;
  eventsRead: number;
  boughtTogether: Map<string, Map<string, ScoredItem[]>>;
  coInterest: Map<string, Map<string, ScoredItem[]>>;
  /** Per index, best first (items with recent activity). */
  trending: Map<string, TrendingItem[]>;
  /** Per index, every item with activity in either trending window. */
  itemStats: Map<string, Map<string, TrendStat>>;
  /** Per index, `attribute\u0000value` → counts from filter events. */
  facetSignals: Map<string, Map<string, TrendStat>>;
}

const RELATED_PER_ITEM = 50;
const SESSION_ITEMS_CAP = 30;
const TRENDING_SMOOTHING = 5;

function weightOf(type: string, subtype: string | null): number {
  if (type === 'view') return 0.5;
  if (type === 'click') return 1;
  if (subtype === 'purchase') return 5;
  return 3;
}

/** Trending score before normalisation: volume times smoothed velocity. */
export function trendScore(stat: TrendStat): number {
  return stat.recent * ((stat.recent + TRENDING_SMOOTHING) / (stat.previous + TRENDING_SMOOTHING));
}

/** Counts item pairs and item supports, per index. */
class PairCounter {
  readonly pairs = new Map<string, Map<string, number>>();
  readonly items = new Map<string, Map<string, number>>();

  /** One "basket" (a session, a user's purchases in a span): each pair and item counts once. */
  addBasket(index: string, ids: Iterable<string>): void {
    const unique = [...new Set(ids)].slice(0, SESSION_ITEMS_CAP);
    const items = this.items.get(index) ?? new Map<string, number>();
    this.items.set(index, items);
    for (const id of unique) items.set(id, (items.get(id) ?? 0) + 1);
    if (unique.length < 2) return;
    const pairs = this.pairs.get(index) ?? new Map<string, number>();
    this.pairs.set(index, pairs);
    for (let i = 0; i < unique.length; i++) {
      for (let j = i + 1; j < unique.length; j++) {
        const key = unique[i] < unique[j] ? `${unique[i]}\u0000${unique[j]}` : `${unique[j]}\u0000${unique[i]}`;
        pairs.set(key, (pairs.get(key) ?? 0) + 1);
      }
    }
  }

  /** Each item's best partners, scored 0 to 100. */
  scores(): Map<string, Map<string, ScoredItem[]>> {
    const out = new Map<string, Map<string, ScoredItem[]>>();
    for (const [index, pairs] of this.pairs) {
      const items = this.items.get(index)!;
      const related = new Map<string, ScoredItem[]>();
      const add = (from: string, to: string, score: number) => {
        const list = related.get(from) ?? [];
        list.push({ objectID: to, score });
        related.set(from, list);
      };
      for (const [key, count] of pairs) {
        const [a, b] = key.split('\u0000');
        const cosine = count / Math.sqrt(items.get(a)! * items.get(b)!);
        const score = Math.round(100 * Math.min(1, cosine) * (count / (count + 1)) * 100) / 100;
        add(a, b, score);
        add(b, a, score);
      }
      for (const [id, list] of related) {
        list.sort((x, y) => y.score - x.score || (x.objectID < y.objectID ? -1 : 1));
        related.set(id, list.slice(0, RELATED_PER_ITEM));
      }
      out.set(index, related);
    }
    return out;
  }
}

interface EventRow {
  ts: number;
  index_name: string;
  type: string;
  subtype: string | null;
  user_token: string;
  auth_token: string | null;
  object_ids: string | null;
  filters: string | null;
}

export function buildModels(db: InsightsDb, now: number, options: InsightsOptions): Models {
  const trendWindow = options.trendingWindowDays * DAY_MS;
  const pairWindowStart = now - options.modelWindowDays * DAY_MS;
  const since = Math.min(pairWindowStart, now - 2 * trendWindow);
  const purchases = new PairCounter();
  const sessions = new PairCounter();
  const openSessions = new Map<string, { index: string; last: number; items: string[] }>();
  const purchaseSpans = new Map<string, { index: string; start: number; items: string[] }>();
  const trend = new Map<string, Map<string, TrendStat>>();
  const facetSignals = new Map<string, Map<string, TrendStat>>();
  let eventsRead = 0;

  const count = (target: Map<string, Map<string, TrendStat>>, index: string, key: string, ts: number, weight: number) => {
    if (ts > now) return;
    const byKey = target.get(index) ?? new Map<string, TrendStat>();
    target.set(index, byKey);
    const stat = byKey.get(key) ?? { recent: 0, previous: 0 };
    if (ts > now - trendWindow) stat.recent += weight;
    else if (ts > now - 2 * trendWindow) stat.previous += weight;
    else return;
    byKey.set(key, stat);
  };

  const rows = db.prepare(`SELECT ts, index_name, type, subtype, user_token, auth_token, object_ids, filters FROM events
    WHERE ts >= ? AND index_name IS NOT NULL AND type != 'instantsearch' ORDER BY ts`).iterate(since) as IterableIterator<EventRow>;
  for (const row of rows) {
    eventsRead++;
    const weight = weightOf(row.type, row.subtype);
    if (row.filters) {
      for (const filter of JSON.parse(row.filters) as string[]) count(facetSignals, row.index_name, filter.replace(':', '\u0000'), row.ts, weight);
      continue;
    }
    if (!row.object_ids) continue;
    const ids = JSON.parse(row.object_ids) as string[];
    for (const id of ids) count(trend, row.index_name, id, row.ts, weight);
    if (row.ts < pairWindowStart) continue;
    const user = `${row.index_name}\u0000${row.auth_token ?? row.user_token}`;

    const session = openSessions.get(user);
    if (session && row.ts - session.last <= options.sessionGapMs) {
      session.items.push(...ids);
      session.last = row.ts;
    } else {
      if (session) sessions.addBasket(session.index, session.items);
      openSessions.set(user, { index: row.index_name, last: row.ts, items: [...ids] });
    }

    if (row.type === 'conversion' && row.subtype === 'purchase') {
      const span = purchaseSpans.get(user);
      if (span && row.ts - span.start <= options.boughtTogetherSpanMs) span.items.push(...ids);
      else {
        if (span) purchases.addBasket(span.index, span.items);
        purchaseSpans.set(user, { index: row.index_name, start: row.ts, items: [...ids] });
      }
    }
  }
  for (const session of openSessions.values()) sessions.addBasket(session.index, session.items);
  for (const span of purchaseSpans.values()) purchases.addBasket(span.index, span.items);

  const trending = new Map<string, TrendingItem[]>();
  for (const [index, stats] of trend) {
    const list = [...stats].filter(([, s]) => s.recent > 0).map(([objectID, s]) => ({ objectID, ...s, score: trendScore(s) }));
    list.sort((a, b) => b.score - a.score || (a.objectID < b.objectID ? -1 : 1));
    const top = list[0]?.score ?? 1;
    for (const item of list) item.score = Math.round((item.score / top) * 10_000) / 100;
    trending.set(index, list);
  }
  return { builtAt: now, eventsRead, boughtTogether: purchases.scores(), coInterest: sessions.scores(), trending, itemStats: trend, facetSignals };
}

export function emptyModels(): Models {
  return { builtAt: 0, eventsRead: 0, boughtTogether: new Map(), coInterest: new Map(), trending: new Map(), itemStats: new Map(), facetSignals: new Map() };
}
