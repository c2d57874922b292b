/**
 * The dashboard's client for the Analytics API (`GET /2/...`) and the index list, with the key the operator typed.
 * The key travels in headers only (never in a URL, so it stays out of history, logs and referrers) and is never
 * logged; a refused key is an `AnalyticsRequestError` with its HTTP status, for the page to explain.
 */
import type {
  ClickThroughRateResponse,
  ConversionRateResponse,
  AddToCartRateResponse,
  NoClickSearchesResponse,
  NoResultRateResponse,
  NoResultSearchesResponse,
  PurchaseRateResponse,
  RevenueResponse,
  SearchesCountResponse,
  TopFilterAttributesResponse,
  TopFilterValuesResponse,
  TopHitsResponse,
  TopSearchesResponse,
} from '@vitrine/protocol';
import type { DateRange } from './dashboard-data.ts';

export class AnalyticsRequestError extends Error {
  override name = 'AnalyticsRequestError';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface AnalyticsCredentials {
  baseUrl: string;
  appId: string;
  apiKey: string;
}

async function get<T>(credentials: AnalyticsCredentials, path: string, params: Record<string, string | number | boolean> = {}): Promise<T> {
  const query = new URLSearchParams(Object.entries(params).map(([key, value]) => [key, String(value)]));
  const url = `${credentials.baseUrl}${path}${query.size > 0 ? `?${query}` : ''}`;
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { 'x-algolia-application-id': credentials.appId, 'x-algolia-api-key': credentials.apiKey, accept: 'application/json' },
      // The key is a secret: no cache may keep a copy of what it unlocked.
      cache: 'no-store',
    });
  } catch (cause) {
    throw new AnalyticsRequestError(0, `the server could not be reached (${String(cause)})`);
  }
  const body = (await response.json().catch(() => undefined)) as { message?: unknown } | undefined;
  if (!response.ok) {
    const message = typeof body?.message === 'string' ? body.message : `HTTP ${response.status}`;
    throw new AnalyticsRequestError(response.status, message);
  }
  return body as T;
}

/** Index names for the selector; needs a key allowed to list indices (the admin key). */
export async function listIndexNames(credentials: AnalyticsCredentials): Promise<string[]> {
  const body = await get<{ items?: Array<{ name?: unknown; primary?: unknown }> }>(credentials, '/1/indexes');
  return (body.items ?? [])
    .filter((item) => typeof item.name === 'string' && item.primary === undefined && !item.name.endsWith('_query_suggestions'))
    .map((item) => item.name as string)
    .sort();
}

export interface DashboardResponses {
  searches: SearchesCountResponse;
  clickThroughRate: ClickThroughRateResponse;
  conversionRate: ConversionRateResponse;
  noResultRate: NoResultRateResponse;
  topSearches: TopSearchesResponse;
  noResults: NoResultSearchesResponse;
  noClicks: NoClickSearchesResponse;
  topHits: TopHitsResponse;
  filterValues: TopFilterValuesResponse['values'];
  revenue: RevenueResponse;
  addToCartRate: AddToCartRateResponse;
  purchaseRate: PurchaseRateResponse;
}

/** Attributes whose values the "top filters" table lists. */
const filterAttributesShown = 5;

/** Everything the dashboard shows for one index and period, in parallel. */
export async function loadDashboard(credentials: AnalyticsCredentials, index: string, range: DateRange, limit = 10): Promise<DashboardResponses> {
  const base = { index, startDate: range.startDate, endDate: range.endDate };
  const call = <T,>(path: string, extra: Record<string, string | number | boolean> = {}) => get<T>(credentials, path, { ...base, ...extra });
  const [searches, clickThroughRate, conversionRate, noResultRate, topSearches, noResults, noClicks, topHits, filterAttributes, revenue, addToCartRate, purchaseRate] =
    await Promise.all([
      call<SearchesCountResponse>('/2/searches/count'),
      call<ClickThroughRateResponse>('/2/clicks/clickThroughRate'),
      call<ConversionRateResponse>('/2/conversions/conversionRate'),
      call<NoResultRateResponse>('/2/searches/noResultRate'),
      call<TopSearchesResponse>('/2/searches', { clickAnalytics: true, revenueAnalytics: true, limit }),
      call<NoResultSearchesResponse>('/2/searches/noResults', { limit }),
      call<NoClickSearchesResponse>('/2/searches/noClicks', { limit }),
      call<TopHitsResponse>('/2/hits', { clickAnalytics: true, limit }),
      call<TopFilterAttributesResponse>('/2/filters', { limit: filterAttributesShown }),
      call<RevenueResponse>('/2/conversions/revenue'),
      call<AddToCartRateResponse>('/2/conversions/addToCartRate'),
      call<PurchaseRateResponse>('/2/conversions/purchaseRate'),
    ]);
  const values = await Promise.all(
    (filterAttributes.attributes ?? []).map((entry) =>
      call<TopFilterValuesResponse>(`/2/filters/${encodeURIComponent(entry.attribute)}`, { limit }).then((response) => response.values ?? []),
    ),
  );
  return {
    searches, clickThroughRate, conversionRate, noResultRate, topSearches, noResults, noClicks, topHits,
    filterValues: values.flat(), revenue, addToCartRate, purchaseRate,
  };
}
