/**
 * `GET /2/...`: the Analytics API v2 endpoints, for the admin key or keys with the `analytics` ACL. Parameters
 * as Algolia's: `index` (required), `startDate` / `endDate` (`YYYY-MM-DD`, default the last 8 days up to today),
 * `limit` (default 10, at most 1000), `offset`, `tags`, `clickAnalytics`, `revenueAnalytics`, `orderBy`,
 * `direction` and `search` where Algolia takes them.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AnalyticsQuery, Insights, OrderBy } from '@vitrine/insights';
import { dayOf, normalizeQuery, parseDay, tagsClause } from '@vitrine/insights';
import { requireIndex } from '../auth/authenticate.ts';
import { createError } from '../errors.ts';

const MAX_LIMIT = 1000;
const DEFAULT_SPAN_DAYS = 8;
const MAX_SPAN_DAYS = 400;
const ORDER_BY = new Set(['searchCount', 'clickThroughRate', 'conversionRate', 'averageClickPosition']);

function text(query: Record<string, unknown>, name: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw createError('INVALID_PARAMETER', name, 'expected a single value');
  return value;
}

function integer(query: Record<string, unknown>, name: string, fallback: number, min: number, max: number): number {
  const raw = text(query, name);
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) throw createError('INVALID_PARAMETER', name, `expected an integer from ${min} to ${max}`);
  return Number(raw);
}

function flag(query: Record<string, unknown>, name: string): boolean {
  const raw = text(query, name);
  if (raw === undefined || raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  throw createError('INVALID_PARAMETER', name, 'expected true or false');
}

export function parseAnalyticsQuery(request: FastifyRequest, today: number): AnalyticsQuery {
  const query = (request.query ?? {}) as Record<string, unknown>;
  const index = text(query, 'index');
  if (index === undefined || index === '') throw createError('MISSING_PARAMETER', 'index');
  const end = text(query, 'endDate');
  const start = text(query, 'startDate');
  const toDay = end === undefined ? today : parseDay(end);
  if (toDay === undefined) throw createError('INVALID_PARAMETER', 'endDate', 'expected a date as YYYY-MM-DD');
  const fromDay = start === undefined ? toDay - (DEFAULT_SPAN_DAYS - 1) : parseDay(start);
  if (fromDay === undefined) throw createError('INVALID_PARAMETER', 'startDate', 'expected a date as YYYY-MM-DD');
  if (fromDay > toDay) throw createError('INVALID_PARAMETER', 'startDate', 'must not be after endDate');
  if (toDay - fromDay >= MAX_SPAN_DAYS) throw createError('INVALID_PARAMETER', 'startDate', `the range is limited to ${MAX_SPAN_DAYS} days`);
  const orderBy = text(query, 'orderBy') ?? 'searchCount';
  if (!ORDER_BY.has(orderBy)) throw createError('INVALID_PARAMETER', 'orderBy', 'expected searchCount, clickThroughRate, conversionRate or averageClickPosition');
  const direction = text(query, 'direction') ?? 'desc';
  if (direction !== 'asc' && direction !== 'desc') throw createError('INVALID_PARAMETER', 'direction', 'expected asc or desc');
  const search = text(query, 'search');
  return {
    index,
    fromDay,
    toDay,
    tags: tagsClause(text(query, 'tags')),
    limit: integer(query, 'limit', 10, 1, MAX_LIMIT),
    offset: integer(query, 'offset', 0, 0, Number.MAX_SAFE_INTEGER),
    search: search === undefined ? undefined : normalizeQuery(search),
    clickAnalytics: flag(query, 'clickAnalytics'),
    revenueAnalytics: flag(query, 'revenueAnalytics'),
    orderBy: orderBy as OrderBy,
    direction,
  };
}

export function analyticsRoutes(app: FastifyInstance, insights: Insights): void {
  const { analytics } = insights;
  const now = () => insights.now();
  const beforeRead = () => insights.settleSearches();
  const config = { acl: 'analytics' as const };
  const route = (path: string, handler: (q: AnalyticsQuery, request: FastifyRequest) => unknown) => {
    app.get(path, { config }, async (request) => {
      const q = parseAnalyticsQuery(request, dayOf(now()));
      // The auth hook only sees `:indexName` path parameters; here the index is a query parameter.
      if (request.auth) requireIndex(request.auth, q.index);
      // Searches still waiting in memory are part of the answer (written in chunks while other requests go on).
      await beforeRead();
      return handler(q, request);
    });
  };
  route('/2/searches', (q) => analytics.topSearches(q));
  route('/2/searches/count', (q) => analytics.searchesCount(q));
  route('/2/searches/noResults', (q) => analytics.noResults(q));
  route('/2/searches/noClicks', (q) => analytics.noClicks(q));
  route('/2/searches/noResultRate', (q) => analytics.noResultRate(q));
  route('/2/searches/noClickRate', (q) => analytics.noClickRate(q));
  route('/2/clicks/clickThroughRate', (q) => analytics.clickThroughRate(q));
  route('/2/clicks/averageClickPosition', (q) => analytics.averageClickPosition(q));
  route('/2/clicks/positions', (q) => analytics.clickPositions(q));
  route('/2/conversions/conversionRate', (q) => analytics.conversionRate(q));
  route('/2/conversions/addToCartRate', (q) => analytics.addToCartRate(q));
  route('/2/conversions/purchaseRate', (q) => analytics.purchaseRate(q));
  route('/2/conversions/revenue', (q) => analytics.revenue(q));
  route('/2/hits', (q) => analytics.topHits(q));
  route('/2/filters', (q) => analytics.topFilterAttributes(q));
  route('/2/filters/noResults', (q) => analytics.noResultFilters(q));
  route('/2/filters/:attribute', (q, request) => analytics.topFilterValues(q, (request.params as { attribute: string }).attribute));
  route('/2/users/count', (q) => analytics.usersCount(q));
  // Countries only a trusted proxy told (`http/country.ts`): without one, the spec's shape, empty.
  route('/2/countries', (q) => analytics.topCountries(q));
  app.get('/2/status', { config }, async (request) => {
    const index = text((request.query ?? {}) as Record<string, unknown>, 'index');
    if (index === undefined || index === '') throw createError('MISSING_PARAMETER', 'index');
    if (request.auth) requireIndex(request.auth, index);
    beforeRead();
    return analytics.status(index);
  });
}
