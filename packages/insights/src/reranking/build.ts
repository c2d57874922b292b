/**
 * Dynamic re-ranking's model, derived in the model thread at each build (`model-thread.ts`) from durable daily
 * aggregates of the insights database: `position_shown_daily` (per index, day, normalised query, record and
 * position: the tracked searches that showed it there and the clicks it got there; written by the search log and
 * the event log) and `hit_query_daily` (conversions per query and record). Nothing is kept between builds: the
 * aggregates are the state, the model a function of the window's rows (`position-bias.ts` states the model).
 *
 * Bounded whatever the traffic: only pairs with at least `MIN_CLICKS` clicks are scored, at most
 * `BOOSTS_PER_QUERY` boosts per query and `QUERIES_PER_INDEX` queries per index (the most clicked) are kept.
 */
import type Database from 'better-sqlite3';
import type { ReRankingBoost } from '@vitrine/engine';
import { DAY_MS } from '../deps.ts';
import { clickCurve, expectedClicks, judge, MIN_CLICKS } from './position-bias.ts';
import type { PositionCounts } from './position-bias.ts';
import { POSITIONS_COUNTED } from './impressions.ts';

export const BOOSTS_PER_QUERY = 20;
export const QUERIES_PER_INDEX = 100_000;

/** By index, then normalised query: the boosts, best first (Maps: any query text is a safe key; posted as they are). */
export interface ReRankingTables {
  indices: Map<string, Map<string, ReRankingBoost[]>>;
  /** Per index, the click curve it was judged with (position 1 first). */
  curves: Map<string, number[]>;
  /** Pairs (query, record) scored, and boosted, over all indices. */
  scored: number;
  boosted: number;
}

export function emptyReRanking(): ReRankingTables {
  return { indices: new Map(), curves: new Map(), scored: 0, boosted: 0 };
}

/** Reads the window's aggregates (`db`: a read-only connection is enough) and derives the boosts. */
export function buildReRanking(db: Database.Database, now: number, windowDays: number): ReRankingTables {
  const tables = emptyReRanking();
  const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'position_shown_daily'").get();
  if (exists === undefined) return tables;
  const fromDay = Math.floor(now / DAY_MS) - windowDays + 1;
  const positions = db.prepare(`SELECT index_name, position, SUM(shown) AS shown, SUM(clicks) AS clicks FROM position_shown_daily
    WHERE day >= ? AND position <= ? GROUP BY index_name, position`).all(fromDay, POSITIONS_COUNTED) as Array<{ index_name: string; position: number; shown: number; clicks: number }>;
  const curves = new Map<string, PositionCounts[]>();
  for (const row of positions) {
    let counts = curves.get(row.index_name);
    if (counts === undefined) curves.set(row.index_name, (counts = []));
    while (counts.length < row.position) counts.push({ shown: 0, clicks: 0 });
    counts[row.position - 1] = { shown: row.shown, clicks: row.clicks };
  }
  const rates = db.prepare('SELECT index_name, SUM(clicks) AS clicks, SUM(conversions) AS conversions FROM hit_query_daily WHERE day >= ? GROUP BY index_name')
    .all(fromDay) as Array<{ index_name: string; clicks: number; conversions: number }>;
  const conversionRate = new Map(rates.map((row) => [row.index_name, row.clicks > 0 ? row.conversions / row.clicks : 0]));
  const converted = new Map<string, number>();
  const conversionRows = db.prepare(`SELECT index_name, query, object_id, SUM(conversions) AS conversions FROM hit_query_daily WHERE day >= ?
    GROUP BY index_name, query, object_id HAVING SUM(conversions) > 0`).iterate(fromDay) as Iterable<{ index_name: string; query: string; object_id: string; conversions: number }>;
  for (const row of conversionRows) converted.set(pairKey(row.index_name, row.query, row.object_id), row.conversions);
  // Only the pairs that could be boosted (enough clicks) are read position by position.
  const pairs = db.prepare(`WITH clicked AS (
      SELECT index_name, query, object_id FROM position_shown_daily WHERE day >= ? AND position <= ?
      GROUP BY index_name, query, object_id HAVING SUM(clicks) >= ?)
    SELECT s.index_name, s.query, s.object_id, s.position, SUM(s.shown) AS shown, SUM(s.clicks) AS clicks
    FROM position_shown_daily s JOIN clicked c ON s.index_name = c.index_name AND s.query = c.query AND s.object_id = c.object_id
    WHERE s.day >= ? AND s.position <= ? GROUP BY s.index_name, s.query, s.object_id, s.position ORDER BY s.index_name, s.query, s.object_id`);
  type Pair = { index: string; query: string; objectID: string; shownAt: Array<[number, number]>; clicks: number };
  const byQuery = new Map<string, Map<string, { clicks: number; boosts: ReRankingBoost[] }>>();
  const finish = (pair: Pair): void => {
    let curve = tables.curves.get(pair.index);
    if (curve === undefined) tables.curves.set(pair.index, (curve = clickCurve(curves.get(pair.index) ?? [])));
    const conversions = converted.get(pairKey(pair.index, pair.query, pair.objectID)) ?? 0;
    const engagement = { clicks: pair.clicks, conversions, expectedClicks: expectedClicks(pair.shownAt, curve) };
    const { score, boosted } = judge(engagement, conversionRate.get(pair.index) ?? 0);
    tables.scored++;
    let queries = byQuery.get(pair.index);
    if (queries === undefined) byQuery.set(pair.index, (queries = new Map()));
    let entry = queries.get(pair.query);
    if (entry === undefined) queries.set(pair.query, (entry = { clicks: 0, boosts: [] }));
    entry.clicks += pair.clicks;
    if (boosted) entry.boosts.push({ objectID: pair.objectID, score: round(score), clicks: pair.clicks, conversions, expectedClicks: round(engagement.expectedClicks) });
  };
  let pair: Pair | null = null;
  for (const row of pairs.iterate(fromDay, POSITIONS_COUNTED, MIN_CLICKS, fromDay, POSITIONS_COUNTED) as Iterable<{ index_name: string; query: string; object_id: string; position: number; shown: number; clicks: number }>) {
    if (pair === null || pair.index !== row.index_name || pair.query !== row.query || pair.objectID !== row.object_id) {
      if (pair !== null) finish(pair);
      pair = { index: row.index_name, query: row.query, objectID: row.object_id, shownAt: [], clicks: 0 };
    }
    pair.shownAt.push([row.position, row.shown]);
    pair.clicks += row.clicks;
  }
  if (pair !== null) finish(pair);
  for (const [index, queries] of byQuery) {
    const kept = [...queries.entries()].filter(([, entry]) => entry.boosts.length > 0)
      .sort((a, b) => b[1].clicks - a[1].clicks || (a[0] < b[0] ? -1 : 1)).slice(0, QUERIES_PER_INDEX);
    const table = new Map<string, ReRankingBoost[]>();
    for (const [query, entry] of kept) {
      const boosts = entry.boosts.sort((a, b) => b.score - a.score || (a.objectID < b.objectID ? -1 : 1)).slice(0, BOOSTS_PER_QUERY);
      table.set(query, boosts);
      tables.boosted += boosts.length;
    }
    tables.indices.set(index, table);
  }
  for (const [index, counts] of curves) if (!tables.curves.has(index)) tables.curves.set(index, clickCurve(counts));
  return tables;
}

function pairKey(index: string, query: string, objectID: string): string {
  return `${index}\u0000${query}\u0000${objectID}`;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
