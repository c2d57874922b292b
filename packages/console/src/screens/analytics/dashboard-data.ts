/**
 * Data shaping for the analytics dashboard: the date range of a period, daily series with every day present,
 * the one-sentence summaries the charts carry as their description, and the number formats. Pure and
 * unit-tested; the page and the charts only render what comes out of here.
 */
import type { CurrencyRevenue } from '@vitrine/protocol';

const DAY_MS = 86_400_000;

export interface DateRange {
  /** `YYYY-MM-DD`, UTC, as the Analytics API takes them. */
  startDate: string;
  endDate: string;
}

function dayString(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The last `days` days up to today (UTC), today included. */
export function lastDays(days: number, now: number): DateRange {
  return { startDate: dayString(now - (days - 1) * DAY_MS), endDate: dayString(now) };
}

/** Every day of the range, in order. */
export function daysOf(range: DateRange): string[] {
  const out: string[] = [];
  const end = Date.parse(`${range.endDate}T00:00:00Z`);
  for (let day = Date.parse(`${range.startDate}T00:00:00Z`); day <= end && out.length <= 400; day += DAY_MS) out.push(dayString(day));
  return out;
}

export type ValueFormat = 'count' | 'percent' | 'money';

export interface SeriesPoint {
  date: string;
  /** null: no value that day (a rate without any tracked search). */
  value: number | null;
}

export interface Series {
  label: string;
  format: ValueFormat;
  points: SeriesPoint[];
}

/**
 * A daily series over the whole range from the API's `dates` list: the API's dates may have gaps (or carry a
 * time), missing days are `missing` (0 for counts, null for rates).
 */
export function dailySeries<T extends { date: string }>(
  range: DateRange,
  dates: readonly T[] | undefined,
  pick: (entry: T) => number | null | undefined,
  options: { label: string; format: ValueFormat; missing: 0 | null },
): Series {
  const byDay = new Map<string, number | null>();
  for (const entry of dates ?? []) {
    const value = pick(entry);
    byDay.set(entry.date.slice(0, 10), typeof value === 'number' && Number.isFinite(value) ? value : null);
  }
  return {
    label: options.label,
    format: options.format,
    points: daysOf(range).map((date) => ({ date, value: byDay.has(date) ? byDay.get(date)! : options.missing })),
  };
}

const countFormat = new Intl.NumberFormat('en-US');

export function formatValue(value: number | null | undefined, format: ValueFormat, currency = 'USD'): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–';
  if (format === 'percent') return `${(value * 100).toFixed(1)} %`;
  if (format === 'money') return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(value);
  return countFormat.format(value);
}

/** "Mon 3" style short label of a `YYYY-MM-DD` day, for the x axis. */
export function shortDay(date: string): string {
  const day = new Date(`${date}T00:00:00Z`);
  return `${day.toLocaleDateString('en-US', { month: 'short', timeZone: 'UTC' })} ${day.getUTCDate()}`;
}

/**
 * What a chart says in one sentence, for its SVG `<desc>` and screen readers: the total (counts) or the average
 * of the days with a value (rates), and the highest day.
 */
export function describeSeries(series: Series): string {
  const known = series.points.filter((point): point is { date: string; value: number } => point.value !== null);
  const first = series.points[0]?.date;
  const last = series.points[series.points.length - 1]?.date;
  if (!first || known.length === 0) return `${series.label}: no data for this period.`;
  const peak = known.reduce((best, point) => (point.value > best.value ? point : best));
  const format = (value: number) => formatValue(value, series.format);
  const head =
    series.format === 'percent'
      ? `average ${format(known.reduce((sum, point) => sum + point.value, 0) / known.length)} over ${known.length} days with data`
      : `total ${format(known.reduce((sum, point) => sum + point.value, 0))}`;
  return `${series.label} from ${first} to ${last}: ${head}; highest ${format(peak.value)} on ${peak.date}.`;
}

/** Revenue per currency, largest first, for the revenue table. */
export function revenueRows(currencies: Record<string, CurrencyRevenue> | undefined): CurrencyRevenue[] {
  return Object.values(currencies ?? {})
    .filter((entry) => typeof entry?.currency === 'string' && Number.isFinite(entry.revenue))
    .sort((a, b) => b.revenue - a.revenue || a.currency.localeCompare(b.currency));
}

export interface FilterRow {
  filter: string;
  count: number;
}

/** The values of several attributes as one list, most used first ("color:Red", "brand:Acme"). */
export function topFilterRows(
  values: ReadonlyArray<{ attribute: string; operator: string; value: string; count: number }>,
  limit = 10,
): FilterRow[] {
  return values
    .map((entry) => ({ filter: `${entry.attribute}${entry.operator}${entry.value}`, count: entry.count }))
    .sort((a, b) => b.count - a.count || a.filter.localeCompare(b.filter))
    .slice(0, limit);
}
