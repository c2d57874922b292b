/**
 * What query categorization learns from, read in the model thread at each build beside re-ranking's model: per
 * index and normalised query, the records its shoppers clicked and bought after searching it (`hit_query_daily`,
 * clicks + 2 × conversions each) and how often it was searched (`query_daily`), over the models' window.
 * Bounded: queries with at least `MIN_ENGAGEMENT`, the `QUERIES_PER_INDEX` most engaged, `ITEMS_PER_QUERY`
 * records each.
 */
import type Database from 'better-sqlite3';
import { DAY_MS } from '../deps.ts';

export const MIN_ENGAGEMENT = 5;
export const QUERIES_PER_INDEX = 2000;
export const ITEMS_PER_QUERY = 20;
const CONVERSION_WEIGHT = 2;

export interface QueryEngagement {
  /** Searches of the query over the window. */
  count: number;
  /** Records and their weight, heaviest first. */
  items: Array<[objectID: string, weight: number]>;
}

/** By index, then normalised query. */
export type EngagementTables = Map<string, Map<string, QueryEngagement>>;

export function readEngagement(db: Database.Database, now: number, windowDays: number): EngagementTables {
  const fromDay = Math.floor(now / DAY_MS) - windowDays + 1;
  const rows = db.prepare(`SELECT index_name, query, object_id, SUM(clicks) + ${CONVERSION_WEIGHT} * SUM(conversions) AS weight FROM hit_query_daily
    WHERE day >= ? AND query != '' GROUP BY index_name, query, object_id HAVING weight > 0`).iterate(fromDay) as Iterable<{ index_name: string; query: string; object_id: string; weight: number }>;
  const byIndex = new Map<string, Map<string, { total: number; items: Array<[string, number]> }>>();
  for (const row of rows) {
    let queries = byIndex.get(row.index_name);
    if (queries === undefined) byIndex.set(row.index_name, (queries = new Map()));
    let entry = queries.get(row.query);
    if (entry === undefined) queries.set(row.query, (entry = { total: 0, items: [] }));
    entry.total += row.weight;
    entry.items.push([row.object_id, row.weight]);
  }
  const searches = db.prepare('SELECT SUM(searches) FROM query_daily WHERE index_name = ? AND query = ? AND day >= ?').pluck();
  const tables: EngagementTables = new Map();
  for (const [index, queries] of byIndex) {
    const kept = [...queries].filter(([, entry]) => entry.total >= MIN_ENGAGEMENT)
      .sort((a, b) => b[1].total - a[1].total || (a[0] < b[0] ? -1 : 1)).slice(0, QUERIES_PER_INDEX);
    tables.set(index, new Map(kept.map(([query, entry]) => [query, {
      count: Number(searches.get(index, query, fromDay) ?? 0),
      items: entry.items.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, ITEMS_PER_QUERY),
    }])));
  }
  return tables;
}
