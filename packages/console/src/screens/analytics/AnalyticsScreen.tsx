/**
 * `/admin/analytics`: the shop's search analytics for the operator.
 * It asks for the admin API key (or any key with the `analytics` ACL) and keeps it in this tab's sessionStorage
 * only: never in the URL, never logged, gone when the tab closes. Then, for an index and the last 7 or 30 days:
 * charts of searches, click-through, conversion and no-result rates, and the top-N tables.
 */
import { useEffect, useState } from 'react';
import type { NoResultSearch, TopHit, TopHitWithAnalytics, TopSearch, TopSearchWithAnalytics } from '@vitrine/protocol';
import { analyticsHost } from '../../api/client.ts';
import { useOptionalConsole, useSetup } from '../../api/context.ts';
import { storeKey, useApiKey } from '../../api/session.ts';
import { DataTable } from '../../shared/DataTable.tsx';
import { SignInForm } from '../../shared/SignInForm.tsx';
import { AnalyticsRequestError, listIndexNames, loadDashboard } from './analytics-api.ts';
import type { AnalyticsCredentials, DashboardResponses } from './analytics-api.ts';
import { TimeChart } from './charts/TimeChart.tsx';
import { dailySeries, formatValue, lastDays, revenueRows, topFilterRows } from './dashboard-data.ts';
import type { DateRange, FilterRow } from './dashboard-data.ts';
import { useProductNames } from './useProductNames.ts';

const periods = [7, 30] as const;

/** What went wrong, in the operator's terms; the key itself never appears in a message. */
function describeError(error: unknown): string {
  if (error instanceof AnalyticsRequestError) {
    if (error.status === 403 || error.status === 401) {
      return `The key was refused (HTTP ${error.status}: ${error.message}). Enter the admin API key, or a key with the analytics permission.`;
    }
    if (error.status === 0) return `Analytics could not be loaded: ${error.message}.`;
    return `Analytics could not be loaded (HTTP ${error.status}: ${error.message}).`;
  }
  return `Analytics could not be loaded: ${error instanceof Error ? error.message : String(error)}.`;
}

type Load = { state: 'idle' } | { state: 'loading' } | { state: 'error'; message: string; refused: boolean } | { state: 'ready'; data: DashboardResponses; range: DateRange };

export default function AnalyticsScreen() {
  const { config } = useSetup();
  const apiKey = useApiKey();
  const [days, setDays] = useState<(typeof periods)[number]>(7);
  // Inside the signed-in console, the console's index picker and Sign out serve: no second of each here.
  const inConsole = useOptionalConsole();
  const [ownIndex, setIndex] = useState(config.indexName);
  const index = inConsole?.indexName ?? ownIndex;
  const [indices, setIndices] = useState<string[]>([config.indexName]);
  const [load, setLoad] = useState<Load>({ state: 'idle' });
  const [attempt, setAttempt] = useState(0);

  const credentials: AnalyticsCredentials | undefined = apiKey
    ? { baseUrl: analyticsHost(config, window.location), appId: config.appId, apiKey }
    : undefined;

  useEffect(() => {
    if (!credentials || inConsole) return;
    let current = true;
    // A key allowed to read analytics but not to list indices still gets the shop's own index.
    listIndexNames(credentials).then(
      (names) => current && setIndices(names.includes(config.indexName) ? names : [config.indexName, ...names]),
      () => current && setIndices([config.indexName]),
    );
    return () => {
      current = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- credentials is derived from apiKey and config
  }, [apiKey, config, inConsole === undefined]);

  useEffect(() => {
    if (!credentials) return;
    let current = true;
    const range = lastDays(days, Date.now());
    setLoad({ state: 'loading' });
    loadDashboard(credentials, index, range).then(
      (data) => current && setLoad({ state: 'ready', data, range }),
      (error: unknown) => {
        if (!current) return;
        const refused = error instanceof AnalyticsRequestError && (error.status === 401 || error.status === 403);
        setLoad({ state: 'error', message: describeError(error), refused });
      },
    );
    return () => {
      current = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- credentials is derived from apiKey and config
  }, [apiKey, config, index, days, attempt]);

  const forget = () => {
    storeKey(undefined);
    setLoad({ state: 'idle' });
  };
  const refused = load.state === 'error' && load.refused;

  return (
    <section className="vt-admin" aria-labelledby="vt-admin-title">
      <h2 id="vt-admin-title">Search analytics</h2>
      {load.state === 'error' && (
        <div className="vt-error" role="alert">
          <p>{load.message}</p>
          {!load.refused && (
            <button type="button" onClick={() => setAttempt((n) => n + 1)}>
              Retry
            </button>
          )}
        </div>
      )}
      {!apiKey || refused ? (
        <SignInForm
          button="Show analytics"
          hint="Kept in this browser tab only (session storage), sent to the server in a request header."
          onKey={(key) => {
            storeKey(key);
            setAttempt((n) => n + 1);
          }}
        />
      ) : (
        <>
          <div className="vt-admin-controls">
            {!inConsole && (
              <label>
                Index{' '}
                <select value={index} onChange={(event) => setIndex(event.target.value)}>
                  {indices.map((name) => (
                    <option key={name} value={name}>
                      {name}
                    </option>
                  ))}
                </select>
              </label>
            )}
            <label>
              Period{' '}
              <select value={days} onChange={(event) => setDays(Number(event.target.value) as (typeof periods)[number])}>
                {periods.map((n) => (
                  <option key={n} value={n}>
                    Last {n} days
                  </option>
                ))}
              </select>
            </label>
            {!inConsole && (
              <button type="button" onClick={forget}>
                Forget key
              </button>
            )}
          </div>
          {load.state === 'loading' && (
            <p className="vt-loading" role="status">
              Loading analytics…
            </p>
          )}
          {load.state === 'ready' && <Dashboard data={load.data} range={load.range} index={index} />}
        </>
      )}
    </section>
  );
}

const rate = (value: number | null | undefined) => formatValue(value ?? null, 'percent');
const count = (value: number | null | undefined) => formatValue(value ?? null, 'count');

function Dashboard({ data, range, index }: { data: DashboardResponses; range: DateRange; index: string }) {
  const names = useProductNames(index, data.topHits.hits.map((hit) => hit.hit));
  const charts = [
    { kind: 'bar' as const, series: dailySeries(range, data.searches.dates, (d) => d.count, { label: 'Searches per day', format: 'count', missing: 0 }) },
    { kind: 'line' as const, series: dailySeries(range, data.clickThroughRate.dates, (d) => d.rate, { label: 'Click-through rate', format: 'percent', missing: null }) },
    { kind: 'line' as const, series: dailySeries(range, data.conversionRate.dates, (d) => d.rate, { label: 'Conversion rate', format: 'percent', missing: null }) },
    // The API answers a no-result rate of 0 over no search (the spec's rate is never null): a day without
    // searches is shown as no data, as for the other rates.
    { kind: 'line' as const, series: dailySeries(range, data.noResultRate.dates, (d) => (d.count > 0 ? d.rate : null), { label: 'No-result rate', format: 'percent', missing: null }) },
  ];
  const searches = data.topSearches.searches as Array<TopSearch & Partial<TopSearchWithAnalytics>>;
  const hits = data.topHits.hits as Array<TopHit & Partial<TopHitWithAnalytics>>;
  const revenue = revenueRows(data.revenue.currencies);
  const conversions = [
    { label: 'Add to cart', count: data.addToCartRate.addToCartCount, rate: data.addToCartRate.rate },
    { label: 'Purchase', count: data.purchaseRate.purchaseCount, rate: data.purchaseRate.rate },
  ];

  return (
    <>
      <dl className="vt-admin-kpis">
        <div>
          <dt>Searches</dt>
          <dd>{count(data.searches.count)}</dd>
        </div>
        <div>
          <dt>Click-through rate</dt>
          <dd>{rate(data.clickThroughRate.rate)}</dd>
        </div>
        <div>
          <dt>Conversion rate</dt>
          <dd>{rate(data.conversionRate.rate)}</dd>
        </div>
        <div>
          <dt>No-result rate</dt>
          <dd>{rate(data.noResultRate.count > 0 ? data.noResultRate.rate : null)}</dd>
        </div>
      </dl>
      <div className="vt-admin-charts">
        {charts.map((chart) => (
          <TimeChart key={chart.series.label} series={chart.series} kind={chart.kind} />
        ))}
      </div>
      <div className="vt-admin-tables">
        <DataTable
          title="Top searches"
          rows={searches}
          rowKey={(row) => row.search}
          empty="No searches in this period."
          columns={[
            { label: 'Search', cell: (row) => row.search || '(empty query)' },
            { label: 'Count', cell: (row) => count(row.count), numeric: true },
            { label: 'CTR', cell: (row) => rate(row.clickThroughRate), numeric: true },
            { label: 'Conversion', cell: (row) => rate(row.conversionRate), numeric: true },
          ]}
        />
        <DataTable<NoResultSearch>
          title="Searches without results"
          rows={data.noResults.searches ?? []}
          rowKey={(row) => row.search}
          empty="Every search found something."
          columns={[
            { label: 'Search', cell: (row) => row.search || '(empty query)' },
            { label: 'Count', cell: (row) => count(row.count), numeric: true },
          ]}
        />
        <DataTable<TopSearch>
          title="Searches without clicks"
          rows={data.noClicks.searches ?? []}
          rowKey={(row) => row.search}
          empty="Every tracked search led to a click."
          columns={[
            { label: 'Search', cell: (row) => row.search || '(empty query)' },
            { label: 'Count', cell: (row) => count(row.count), numeric: true },
          ]}
        />
        <DataTable
          title="Top hits"
          rows={hits}
          rowKey={(row) => row.hit}
          empty="No results were clicked or shown in this period."
          columns={[
            { label: 'Product', cell: (row) => names.get(row.hit) ?? row.hit },
            { label: 'Count', cell: (row) => count(row.count), numeric: true },
            { label: 'CTR', cell: (row) => rate(row.clickThroughRate), numeric: true },
            { label: 'Conversion', cell: (row) => rate(row.conversionRate), numeric: true },
          ]}
        />
        <DataTable<FilterRow>
          title="Top filters"
          rows={topFilterRows(data.filterValues)}
          rowKey={(row) => row.filter}
          empty="No filters were used in this period."
          columns={[
            { label: 'Filter', cell: (row) => row.filter },
            { label: 'Count', cell: (row) => count(row.count), numeric: true },
          ]}
        />
        <DataTable
          title="Revenue"
          rows={revenue}
          rowKey={(row) => row.currency}
          empty="No revenue recorded in this period."
          columns={[
            { label: 'Currency', cell: (row) => row.currency },
            { label: 'Revenue', cell: (row) => formatValue(row.revenue, 'money', row.currency), numeric: true },
          ]}
        />
        <DataTable
          title="Conversions after search"
          rows={conversions}
          rowKey={(row) => row.label}
          empty=""
          columns={[
            { label: 'Event', cell: (row) => row.label },
            { label: 'Count', cell: (row) => count(row.count), numeric: true },
            { label: 'Rate', cell: (row) => rate(row.rate), numeric: true },
          ]}
        />
      </div>
    </>
  );
}
