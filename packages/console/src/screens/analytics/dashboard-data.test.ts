import { describe, expect, it } from 'vitest';
import { dailySeries, daysOf, describeSeries, formatValue, lastDays, revenueRows, shortDay, topFilterRows } from './dashboard-data.ts';

const now = Date.parse('2026-03-10T15:30:00Z');

describe('date ranges', () => {
  it('covers the last N days, today included, in UTC', () => {
    expect(lastDays(7, now)).toEqual({ startDate: '2026-03-04', endDate: '2026-03-10' });
    expect(daysOf(lastDays(7, now))).toHaveLength(7);
    // Across a month end and a leap day.
    expect(daysOf({ startDate: '2028-02-28', endDate: '2028-03-01' })).toEqual(['2028-02-28', '2028-02-29', '2028-03-01']);
    expect(shortDay('2026-03-04')).toBe('Mar 4');
  });
});

describe('daily series', () => {
  const range = { startDate: '2026-03-08', endDate: '2026-03-10' };

  it('fills missing days with zero for counts and with no value for rates', () => {
    const dates = [{ date: '2026-03-08', count: 4, rate: 0.5 }, { date: '2026-03-10T00:00:00Z', count: 6, rate: null }];
    expect(dailySeries(range, dates, (d) => d.count, { label: 'Searches', format: 'count', missing: 0 }).points).toEqual([
      { date: '2026-03-08', value: 4 },
      { date: '2026-03-09', value: 0 },
      { date: '2026-03-10', value: 6 },
    ]);
    expect(dailySeries(range, dates, (d) => d.rate, { label: 'CTR', format: 'percent', missing: null }).points.map((p) => p.value)).toEqual([0.5, null, null]);
    // Days outside the range are ignored.
    expect(dailySeries(range, [{ date: '2025-01-01', count: 9 }], (d) => d.count, { label: 'S', format: 'count', missing: 0 }).points.map((p) => p.value)).toEqual([0, 0, 0]);
  });

  it('describes a series in one sentence', () => {
    const counts = dailySeries(range, [{ date: '2026-03-08', count: 1200 }, { date: '2026-03-09', count: 30 }], (d) => d.count, { label: 'Searches', format: 'count', missing: 0 });
    expect(describeSeries(counts)).toBe('Searches from 2026-03-08 to 2026-03-10: total 1,230; highest 1,200 on 2026-03-08.');
    const rates = dailySeries(range, [{ date: '2026-03-09', rate: 0.2 }, { date: '2026-03-10', rate: 0.4 }], (d) => d.rate, { label: 'CTR', format: 'percent', missing: null });
    expect(describeSeries(rates)).toBe('CTR from 2026-03-08 to 2026-03-10: average 30.0 % over 2 days with data; highest 40.0 % on 2026-03-10.');
    expect(describeSeries(dailySeries(range, [], () => null, { label: 'CTR', format: 'percent', missing: null }))).toBe('CTR: no data for this period.');
  });
});

describe('formats and tables', () => {
  it('formats counts, rates and money; missing values as a dash', () => {
    expect(formatValue(12345, 'count')).toBe('12,345');
    expect(formatValue(0.1234, 'percent')).toBe('12.3 %');
    expect(formatValue(1234.5, 'money', 'EUR')).toBe('€1,234.50');
    expect(formatValue(null, 'percent')).toBe('–');
  });

  it('orders revenue and filters by size', () => {
    expect(revenueRows({ USD: { currency: 'USD', revenue: 10 }, EUR: { currency: 'EUR', revenue: 99.5 } })).toEqual([
      { currency: 'EUR', revenue: 99.5 },
      { currency: 'USD', revenue: 10 },
    ]);
    expect(revenueRows(undefined)).toEqual([]);
    expect(
      topFilterRows([
        { attribute: 'brand', operator: ':', value: 'Acme', count: 3 },
        { attribute: 'color', operator: ':', value: 'Red', count: 7 },
        { attribute: 'price', operator: '<', value: '50', count: 3 },
      ], 2),
    ).toEqual([{ filter: 'color:Red', count: 7 }, { filter: 'brand:Acme', count: 3 }]);
  });
});
