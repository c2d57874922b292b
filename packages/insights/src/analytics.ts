/**
 * Search analytics queries over the daily rollups, shaped like the Analytics API v2 responses. Every query is
 * bounded by (index, day range) — the rollups' primary-key prefix — and then by the tags clause.
 */
import type {
  AddToCartRateResponse, AnalyticsRate, AverageClickPositionResponse, ClickPositionBucket, ClickPositionsResponse,
  ClickThroughRateResponse, ConversionRateResponse, CountWithDates, CurrencyRevenue, FilterOperator, NoClickRateResponse,
  NoClickSearchesResponse, NoResultFiltersResponse, NoResultRateResponse, NoResultSearchesResponse, PurchaseRateResponse,
  RevenueResponse, TopCountriesResponse, TopFilterAttributesResponse, TopFilterValuesResponse, TopHitsResponse, TopSearchesResponse,
} from '@vitrine/protocol';
import type { InsightsDb } from './db.ts';
import { getMeta } from './db.ts';
import { dayString } from './days.ts';

export type OrderBy = 'searchCount' | 'clickThroughRate' | 'conversionRate' | 'averageClickPosition';

export interface AnalyticsQuery {
  index: string;
  fromDay: number;
  toDay: number;
  tags: { sql: string; params: string[] };
  limit: number;
  offset: number;
  search?: string;
  clickAnalytics: boolean;
  revenueAnalytics: boolean;
  orderBy: OrderBy;
  direction: 'asc' | 'desc';
}

type Row = Record<string, number | string | null>;
const BUCKETS: Array<[number, [number, number]]> = [
  ...Array.from({ length: 10 }, (_, i) => [i + 1, [i + 1, i + 1]] as [number, [number, number]]),
  [11, [11, 20]],
  [21, [21, -1]],
];

export function rate(numerator: number, denominator: number): AnalyticsRate {
  return denominator > 0 ? Math.round((numerator / denominator) * 10_000) / 10_000 : null;
}

export class Analytics {
  constructor(private readonly db: InsightsDb) {}

  private where(q: AnalyticsQuery, withSearch = false): { sql: string; params: Array<string | number> } {
    const params: Array<string | number> = [q.index, q.fromDay, q.toDay, ...q.tags.params];
    let sql = `index_name = ? AND day BETWEEN ? AND ? AND ${q.tags.sql}`;
    if (withSearch && q.search !== undefined) {
      sql += ' AND query = ?';
      params.push(q.search);
    }
    return { sql, params };
  }

  private all(sql: string, params: Array<string | number>): Row[] {
    return this.db.prepare(sql).all(...params) as Row[];
  }

  /** Per-day sums of `columns` over query_daily, one entry per day of the range (zeros for silent days). */
  private daily(q: AnalyticsQuery, columns: string[]): Array<{ date: string; sums: Record<string, number> }> {
    const w = this.where(q);
    const select = columns.map((c) => `SUM(${c}) AS ${c}`).join(', ');
    const rows = this.all(`SELECT day, ${select} FROM query_daily WHERE ${w.sql} GROUP BY day`, w.params);
    const byDay = new Map(rows.map((row) => [row.day as number, row]));
    const out = [];
    for (let day = q.fromDay; day <= q.toDay; day++) {
      const row = byDay.get(day);
      out.push({ date: dayString(day), sums: Object.fromEntries(columns.map((c) => [c, Number(row?.[c] ?? 0)])) });
    }
    return out;
  }

  private totals(days: Array<{ sums: Record<string, number> }>, columns: string[]): Record<string, number> {
    return Object.fromEntries(columns.map((c) => [c, days.reduce((sum, d) => sum + d.sums[c], 0)]));
  }

  /**
   * The shape of the rate endpoints: `rate` = numerator / denominator (columns of query_daily), plus the named
   * counts (response field → column), over the whole range and per day. `empty` is the rate over nothing.
   */
  private rateSeries<T>(q: AnalyticsQuery, numerator: string, denominator: string, counts: Record<string, string>, empty: AnalyticsRate = null): T {
    const columns = [...new Set([numerator, denominator, ...Object.values(counts)])];
    const days = this.daily(q, columns);
    const shape = (sums: Record<string, number>) => ({
      rate: rate(sums[numerator], sums[denominator]) ?? empty,
      ...Object.fromEntries(Object.entries(counts).map(([field, column]) => [field, sums[column]])),
    });
    return { ...shape(this.totals(days, columns)), dates: days.map((d) => ({ date: d.date, ...shape(d.sums) })) } as T;
  }

  searchesCount(q: AnalyticsQuery): CountWithDates {
    const days = this.daily(q, ['searches']);
    return { count: this.totals(days, ['searches']).searches, dates: days.map((d) => ({ date: d.date, count: d.sums.searches })) };
  }

  topSearches(q: AnalyticsQuery): TopSearchesResponse {
    const w = this.where(q);
    const order = {
      searchCount: 'SUM(searches)',
      clickThroughRate: 'CAST(SUM(clicked) AS REAL) / NULLIF(SUM(tracked), 0)',
      conversionRate: 'CAST(SUM(converted) AS REAL) / NULLIF(SUM(tracked), 0)',
      averageClickPosition: 'CAST(SUM(position_sum) AS REAL) / NULLIF(SUM(positioned), 0)',
    }[q.orderBy];
    // NULL rates sort last whatever the direction.
    const rows = this.all(
      `SELECT query, SUM(searches) AS count, nb_hits, MAX(nb_hits_ts) AS latest, SUM(tracked) AS tracked, SUM(clicked) AS clicked, SUM(clicks) AS clicks,
         SUM(position_sum) AS position_sum, SUM(positioned) AS positioned, SUM(converted) AS converted, SUM(conversions) AS conversions,
         SUM(carted) AS carted, SUM(carts) AS carts, SUM(purchased) AS purchased, SUM(purchases) AS purchases
       FROM query_daily WHERE ${w.sql} GROUP BY query
       ORDER BY (${order}) IS NULL, ${order} ${q.direction === 'asc' ? 'ASC' : 'DESC'}, query ASC LIMIT ? OFFSET ?`,
      [...w.params, q.limit, q.offset],
    );
    if (!q.clickAnalytics && !q.revenueAnalytics) {
      return { searches: rows.map((r) => ({ search: r.query as string, count: Number(r.count), nbHits: Number(r.nb_hits) })) };
    }
    const queries = rows.map((r) => r.query as string);
    const positions = this.positionsByQuery(q, queries);
    const revenue = q.revenueAnalytics ? this.revenueByKey(q, 'revenue_daily', 'query', queries) : new Map();
    return {
      searches: rows.map((r) => {
        const tracked = Number(r.tracked);
        const base = {
          search: r.query as string,
          count: Number(r.count),
          nbHits: Number(r.nb_hits),
          clickThroughRate: rate(Number(r.clicked), tracked),
          averageClickPosition: rate(Number(r.position_sum), Number(r.positioned)),
          clickPositions: positions.get(r.query as string) ?? emptyPositions(),
          conversionRate: rate(Number(r.converted), tracked),
          trackedSearchCount: tracked,
          clickCount: Number(r.clicks),
          conversionCount: Number(r.conversions),
        };
        if (!q.revenueAnalytics) return base;
        return {
          ...base,
          currencies: revenue.get(r.query as string) ?? {},
          addToCartRate: rate(Number(r.carted), tracked),
          addToCartCount: Number(r.carts),
          purchaseRate: rate(Number(r.purchased), tracked),
          purchaseCount: Number(r.purchases),
        };
      }),
    };
  }

  private positionsByQuery(q: AnalyticsQuery, queries: string[]): Map<string, ClickPositionBucket[]> {
    const out = new Map<string, ClickPositionBucket[]>();
    if (queries.length === 0) return out;
    const w = this.where(q);
    const rows = this.all(
      `SELECT query, bucket, SUM(clicks) AS clicks FROM position_daily WHERE ${w.sql} AND query IN (${queries.map(() => '?').join(',')}) GROUP BY query, bucket`,
      [...w.params, ...queries],
    );
    for (const row of rows) {
      const list = out.get(row.query as string) ?? emptyPositions();
      const bucket = list.find((b) => b.position[0] === row.bucket);
      if (bucket) bucket.clickCount = Number(row.clicks);
      out.set(row.query as string, list);
    }
    return out;
  }

  private revenueByKey(q: AnalyticsQuery, table: string, column: string, keys: string[]): Map<string, Record<string, CurrencyRevenue>> {
    const out = new Map<string, Record<string, CurrencyRevenue>>();
    if (keys.length === 0) return out;
    const w = this.where(q, table === 'hit_revenue_daily');
    const rows = this.all(
      `SELECT ${column} AS k, currency, SUM(revenue) AS revenue FROM ${table} WHERE ${w.sql} AND ${column} IN (${keys.map(() => '?').join(',')}) GROUP BY ${column}, currency`,
      [...w.params, ...keys],
    );
    for (const row of rows) {
      const currencies = out.get(row.k as string) ?? {};
      currencies[row.currency as string] = { currency: row.currency as string, revenue: roundMoney(Number(row.revenue)) };
      out.set(row.k as string, currencies);
    }
    return out;
  }

  noResults(q: AnalyticsQuery): NoResultSearchesResponse {
    const w = this.where(q);
    const rows = this.all(
      `SELECT query, SUM(no_results) AS count, SUM(no_results_filtered) AS filtered FROM query_daily WHERE ${w.sql}
       GROUP BY query HAVING SUM(no_results) > 0 ORDER BY count DESC, query ASC LIMIT ? OFFSET ?`,
      [...w.params, q.limit, q.offset],
    );
    return { searches: rows.map((r) => ({ search: r.query as string, count: Number(r.count), withFilterCount: Number(r.filtered) })) };
  }

  noClicks(q: AnalyticsQuery): NoClickSearchesResponse {
    const w = this.where(q);
    const rows = this.all(
      `SELECT query, SUM(tracked_with_results) AS count, nb_hits, MAX(nb_hits_ts) AS latest FROM query_daily WHERE ${w.sql}
       GROUP BY query HAVING SUM(tracked_with_results) > 0 AND SUM(clicked) = 0 ORDER BY count DESC, query ASC LIMIT ? OFFSET ?`,
      [...w.params, q.limit, q.offset],
    );
    return { searches: rows.map((r) => ({ search: r.query as string, count: Number(r.count), nbHits: Number(r.nb_hits) })) };
  }

  // The no-result and no-click rates are numbers in the analytics spec, never null (unlike the click-through and
  // conversion rates): over no search they are 0, no search having gone without results or clicks.
  noResultRate(q: AnalyticsQuery): NoResultRateResponse {
    return this.rateSeries(q, 'no_results', 'searches', { count: 'searches', noResultCount: 'no_results' }, 0);
  }

  noClickRate(q: AnalyticsQuery): NoClickRateResponse {
    const days = this.daily(q, ['tracked_with_results', 'clicked']);
    const noClick = (s: Record<string, number>) => Math.max(0, s.tracked_with_results - s.clicked);
    const t = this.totals(days, ['tracked_with_results', 'clicked']);
    const shape = (s: Record<string, number>) => ({ rate: rate(noClick(s), s.tracked_with_results) ?? 0, count: s.tracked_with_results, noClickCount: noClick(s) });
    return { ...shape(t), dates: days.map((d) => ({ date: d.date, ...shape(d.sums) })) };
  }

  clickThroughRate(q: AnalyticsQuery): ClickThroughRateResponse {
    return this.rateSeries(q, 'clicked', 'tracked', { clickCount: 'clicks', trackedSearchCount: 'tracked' });
  }

  averageClickPosition(q: AnalyticsQuery): AverageClickPositionResponse {
    const columns = ['position_sum', 'positioned'];
    const days = this.daily(q, columns);
    const t = this.totals(days, columns);
    return {
      average: rate(t.position_sum, t.positioned),
      clickCount: t.positioned,
      dates: days.map((d) => ({ date: d.date, average: rate(d.sums.position_sum, d.sums.positioned), clickCount: d.sums.positioned })),
    };
  }

  clickPositions(q: AnalyticsQuery): ClickPositionsResponse {
    const w = this.where(q);
    const rows = this.all(`SELECT bucket, SUM(clicks) AS clicks FROM position_daily WHERE ${w.sql} GROUP BY bucket`, w.params);
    const positions = emptyPositions();
    for (const row of rows) {
      const bucket = positions.find((b) => b.position[0] === row.bucket);
      if (bucket) bucket.clickCount = Number(row.clicks);
    }
    return { positions };
  }

  conversionRate(q: AnalyticsQuery): ConversionRateResponse {
    return this.rateSeries(q, 'converted', 'tracked', { trackedSearchCount: 'tracked', conversionCount: 'conversions' });
  }

  addToCartRate(q: AnalyticsQuery): AddToCartRateResponse {
    return this.rateSeries(q, 'carted', 'tracked', { trackedSearchCount: 'tracked', addToCartCount: 'carts' });
  }

  purchaseRate(q: AnalyticsQuery): PurchaseRateResponse {
    return this.rateSeries(q, 'purchased', 'tracked', { trackedSearchCount: 'tracked', purchaseCount: 'purchases' });
  }

  revenue(q: AnalyticsQuery): RevenueResponse {
    const w = this.where(q);
    const rows = this.all(`SELECT day, currency, SUM(revenue) AS revenue FROM revenue_daily WHERE ${w.sql} GROUP BY day, currency`, w.params);
    const total: Record<string, CurrencyRevenue> = {};
    const byDay = new Map<number, Record<string, CurrencyRevenue>>();
    for (const row of rows) {
      const currency = row.currency as string;
      const amount = Number(row.revenue);
      total[currency] = { currency, revenue: roundMoney((total[currency]?.revenue ?? 0) + amount) };
      const day = byDay.get(row.day as number) ?? {};
      day[currency] = { currency, revenue: roundMoney(amount) };
      byDay.set(row.day as number, day);
    }
    const dates = [];
    for (let day = q.fromDay; day <= q.toDay; day++) dates.push({ date: dayString(day), currencies: byDay.get(day) ?? {} });
    return { currencies: total, dates };
  }

  topHits(q: AnalyticsQuery): TopHitsResponse {
    const table = q.search !== undefined ? 'hit_query_daily' : 'hit_daily';
    const w = this.where(q, true);
    const rows = this.all(
      `SELECT object_id, SUM(count) AS count, SUM(tracked) AS tracked, SUM(clicks) AS clicks, SUM(conversions) AS conversions,
         SUM(carts) AS carts, SUM(purchases) AS purchases
       FROM ${table} WHERE ${w.sql} GROUP BY object_id HAVING SUM(count) > 0 ORDER BY count DESC, object_id ASC LIMIT ? OFFSET ?`,
      [...w.params, q.limit, q.offset],
    );
    if (!q.clickAnalytics && !q.revenueAnalytics) return { hits: rows.map((r) => ({ hit: r.object_id as string, count: Number(r.count) })) };
    const revenue = q.revenueAnalytics ? this.revenueByKey(q, 'hit_revenue_daily', 'object_id', rows.map((r) => r.object_id as string)) : new Map();
    // A hit's rates are per tracked search that showed it; a click outside the counted top hits can push one past 1.
    const capped = (n: number, d: number) => (d > 0 ? Math.min(1, rate(n, d)!) : null);
    return {
      hits: rows.map((r) => {
        const tracked = Number(r.tracked);
        const base = {
          hit: r.object_id as string,
          count: Number(r.count),
          clickThroughRate: capped(Number(r.clicks), tracked),
          conversionRate: capped(Number(r.conversions), tracked),
          trackedHitCount: tracked,
          clickCount: Number(r.clicks),
          conversionCount: Number(r.conversions),
        };
        if (!q.revenueAnalytics) return base;
        return {
          ...base,
          addToCartRate: capped(Number(r.carts), tracked),
          addToCartCount: Number(r.carts),
          purchaseRate: capped(Number(r.purchases), tracked),
          purchaseCount: Number(r.purchases),
          currencies: revenue.get(r.object_id as string) ?? {},
        };
      }),
    };
  }

  topFilterAttributes(q: AnalyticsQuery): TopFilterAttributesResponse {
    const w = this.where(q, true);
    const rows = this.all(
      `SELECT attribute, SUM(count) AS count FROM filter_daily WHERE ${w.sql} GROUP BY attribute ORDER BY count DESC, attribute ASC LIMIT ? OFFSET ?`,
      [...w.params, q.limit, q.offset],
    );
    return { attributes: rows.map((r) => ({ attribute: r.attribute as string, count: Number(r.count) })) };
  }

  topFilterValues(q: AnalyticsQuery, attribute: string): TopFilterValuesResponse {
    const w = this.where(q, true);
    const rows = this.all(
      `SELECT operator, value, SUM(count) AS count FROM filter_daily WHERE ${w.sql} AND attribute = ?
       GROUP BY operator, value ORDER BY count DESC, value ASC LIMIT ? OFFSET ?`,
      [...w.params, attribute, q.limit, q.offset],
    );
    return { values: rows.map((r) => ({ attribute, operator: r.operator as FilterOperator, value: r.value as string, count: Number(r.count) })) };
  }

  noResultFilters(q: AnalyticsQuery): NoResultFiltersResponse {
    const w = this.where(q, true);
    const rows = this.all(
      `SELECT combo, SUM(count) AS count FROM noresult_filters_daily WHERE ${w.sql} GROUP BY combo ORDER BY count DESC, combo ASC LIMIT ? OFFSET ?`,
      [...w.params, q.limit, q.offset],
    );
    if (rows.length === 0) return { values: null };
    return {
      values: rows.map((r) => ({
        count: Number(r.count),
        values: (JSON.parse(r.combo as string) as Array<[string, FilterOperator, string]>).map(([attribute, operator, value]) => ({ attribute, operator, value })),
      })),
    };
  }

  /** Searches by country, for the searches whose country a trusted proxy told (most first). */
  topCountries(q: AnalyticsQuery): TopCountriesResponse {
    const w = this.where(q);
    const rows = this.all(
      `SELECT country, SUM(count) AS count FROM country_daily WHERE ${w.sql} GROUP BY country ORDER BY count DESC, country ASC LIMIT ? OFFSET ?`,
      [...w.params, q.limit, q.offset],
    );
    return { countries: rows.map((r) => ({ country: r.country as string, count: Number(r.count) })) };
  }

  usersCount(q: AnalyticsQuery): CountWithDates {
    const w = this.where(q);
    const rows = this.all(`SELECT day, COUNT(DISTINCT user_token) AS count FROM user_daily WHERE ${w.sql} GROUP BY day`, w.params);
    const byDay = new Map(rows.map((r) => [r.day as number, Number(r.count)]));
    const total = this.all(`SELECT COUNT(DISTINCT user_token) AS count FROM user_daily WHERE ${w.sql}`, w.params)[0];
    const dates = [];
    for (let day = q.fromDay; day <= q.toDay; day++) dates.push({ date: dayString(day), count: byDay.get(day) ?? 0 });
    return { count: Number(total.count), dates };
  }

  status(index: string): { updatedAt: string | null } {
    return { updatedAt: getMeta(this.db, `updated:${index}`) ?? null };
  }
}

function emptyPositions(): ClickPositionBucket[] {
  return BUCKETS.map(([, position]) => ({ position: [...position] as [number, number], clickCount: 0 }));
}

function roundMoney(amount: number): number {
  return Math.round(amount * 100) / 100;
}
