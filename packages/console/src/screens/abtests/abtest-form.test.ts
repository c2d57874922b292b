/** The A/B test form: the request it makes, what it refuses, and how figures read. */
import { describe, expect, it } from 'vitest';
import { emptyForm, percent, requestOf, significanceText } from './abtest-form.ts';

const NOW = Date.UTC(2026, 0, 1);

describe('requestOf', () => {
  it('makes a test of two indexes, B getting the rest of the traffic', () => {
    const form = { ...emptyForm('products'), name: ' Cheaper first ', indexB: 'products_price_asc', trafficA: '70', days: '10' };
    expect(requestOf(form, NOW)).toEqual({
      ok: true,
      request: {
        name: 'Cheaper first', endAt: '2026-01-11T00:00:00.000Z',
        variants: [{ index: 'products', trafficPercentage: 70 }, { index: 'products_price_asc', trafficPercentage: 30 }],
      },
    });
  });

  it('makes a test of one index with search parameters on B', () => {
    const form = { ...emptyForm('products'), name: 'In stock', mode: 'params' as const, params: '{"filters": "stock > 0"}' };
    const reading = requestOf(form, NOW);
    expect(reading.ok && reading.request.variants).toEqual([
      { index: 'products', trafficPercentage: 50 },
      { index: 'products', trafficPercentage: 50, customSearchParameters: { filters: 'stock > 0' } },
    ]);
  });

  it('says what to fix', () => {
    const base = { ...emptyForm('products'), name: 'Test', indexB: 'other' };
    expect(requestOf({ ...base, name: ' ' }, NOW)).toEqual({ ok: false, problem: 'Give the test a name.' });
    expect(requestOf({ ...base, trafficA: '100' }, NOW)).toMatchObject({ ok: false, problem: expect.stringContaining('from 1 to 99') });
    expect(requestOf({ ...base, days: '91' }, NOW)).toMatchObject({ ok: false, problem: expect.stringContaining('90 days') });
    expect(requestOf({ ...base, indexB: 'products' }, NOW)).toMatchObject({ ok: false, problem: expect.stringContaining('another index') });
    expect(requestOf({ ...base, mode: 'params', params: '{"filters":' }, NOW)).toMatchObject({ ok: false, problem: expect.stringContaining('not valid JSON') });
    expect(requestOf({ ...base, mode: 'params', params: '{}' }, NOW)).toMatchObject({ ok: false, problem: expect.stringContaining('at least one parameter') });
  });
});

describe('figures', () => {
  it('reads rates and significance', () => {
    expect(percent(0.1234)).toBe('12.3 %');
    expect(percent(null)).toBe('—');
    expect(significanceText(null)).toContain('Not enough data');
    expect(significanceText(0.9926)).toBe('99.3 % confidence: the difference is significant');
    expect(significanceText(0.5663)).toBe('56.6 % confidence: not significant yet');
  });
});
