import { describe, expect, it } from 'vitest';
import { generateProducts } from '../generate.ts';
import { generateHistory } from './generate-history.ts';

const NOW = Date.UTC(2025, 0, 31, 18);
const products = [...generateProducts(1500)];

describe('generateHistory', () => {
  const history = generateHistory(products, { now: NOW, sessionsPerDay: 60 });

  it('is deterministic for the same products, seed and end time, and differs with the seed', () => {
    expect(JSON.stringify(generateHistory(products, { now: NOW, sessionsPerDay: 60 }))).toBe(JSON.stringify(history));
    expect(generateHistory(products, { now: NOW, sessionsPerDay: 60, seed: 2 }).searches[0]).not.toEqual(history.searches[0]);
  });

  it('spans the last 30 days, never the future', () => {
    const times = [...history.searches.map((s) => s.timestamp!), ...history.events.map((e) => e.timestamp)];
    expect(Math.max(...times)).toBeLessThan(NOW);
    expect(Math.min(...times)).toBeGreaterThanOrEqual(NOW - 30 * 86_400_000);
    // Every one of the 30 day-long windows before `now` has visits.
    const windows = new Set(history.searches.map((s) => Math.floor((NOW - s.timestamp!) / 86_400_000)));
    expect([...windows].sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i));
  });

  it('links clicks to tracked searches at positions of their results', () => {
    const searches = new Map(history.searches.map((s) => [s.queryID, s]));
    const clicks = history.events.filter((e) => e.eventType === 'click' && e.queryID);
    expect(clicks.length).toBeGreaterThan(history.searches.length / 5);
    for (const click of clicks) {
      const search = searches.get(click.queryID)!;
      expect(search.objectIDs![click.positions![0] - 1]).toBe(click.objectIDs![0]);
    }
    const firstPosition = clicks.filter((c) => c.positions![0] === 1).length;
    expect(firstPosition).toBeGreaterThan(clicks.length / 4);
    expect(history.searches.some((s) => s.nbHits === 0)).toBe(true);
    expect(history.searches.some((s) => s.facetFilters)).toBe(true);
  });

  it('has add-to-carts and purchases, with baskets of several products for bought-together', () => {
    const carts = history.events.filter((e) => e.eventSubtype === 'addToCart');
    const purchases = history.events.filter((e) => e.eventSubtype === 'purchase');
    expect(carts.length).toBeGreaterThan(purchases.length);
    expect(purchases.length).toBeGreaterThan(50);
    const baskets = purchases.filter((p) => p.objectIDs!.length > 1);
    expect(baskets.length).toBeGreaterThan(purchases.length / 3);
    for (const p of purchases) {
      expect(p.objectData).toHaveLength(p.objectIDs!.length);
      expect(p.value).toBeCloseTo(p.objectData!.reduce((sum, d) => sum + Number(d.price), 0), 2);
      expect(p.currency).toBe('USD');
    }
  });
});
