/**
 * What the models count of `filters` events: facet values only. Numeric filters (`rating>=4`, accepted since
 * events take the operators of numeric filters) name a range, not a value; and events stamped on a later day
 * (clocks up to a day fast are accepted) wait for their day to count as trending.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openInsightsDb } from './db.ts';
import type { InsightsDb } from './db.ts';
import { defaultInsightsOptions } from './deps.ts';
import { facetKeyOf } from './event-filters.ts';
import { FACETS_PER_GROUP } from './model-groups.ts';
import { modelsView } from './models.ts';
import { buildHere, removeDir, tempDir } from './test-support.ts';

const NOW = Date.UTC(2025, 5, 15, 12);
const DAY = 86_400_000;
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

function eventsDb(): { db: InsightsDb; dir: string; event: (ts: number, user: string, objectIDs: string[] | null, filters?: string[]) => void } {
  const dir = tempDir();
  dirs.push(dir);
  const db = openInsightsDb(dir);
  const insert = db.prepare(`INSERT INTO events (ts, received_at, index_name, type, subtype, name, user_token, object_ids, filters)
    VALUES (?, ?, 'products', 'click', NULL, 'Filter', ?, ?, ?)`);
  const event = (ts: number, user: string, objectIDs: string[] | null, filters?: string[]) => {
    insert.run(ts, ts, user, objectIDs && JSON.stringify(objectIDs), filters ? JSON.stringify(filters) : null);
  };
  return { db, dir, event };
}

describe('facetKeyOf', () => {
  it('keys facet filters by attribute and value, and gives no key to numeric filters', () => {
    expect(facetKeyOf('brand:Apple')).toBe('brand\u0000Apple');
    expect(facetKeyOf('time:10:30')).toBe('time\u000010:30');
    expect(facetKeyOf('category:5>=4')).toBe('category\u00005>=4');
    expect(facetKeyOf('rating>=4')).toBeNull();
    expect(facetKeyOf('price <= 10.5')).toBeNull();
    expect(facetKeyOf('no filter')).toBeNull();
  });
});

describe('the models\' facet counts', () => {
  it('skip numeric filters: they neither show as facet values nor take a facet\'s place in a shopper\'s day', () => {
    const { db, dir, event } = eventsDb();
    db.transaction(() => {
      const ts = NOW - DAY;
      // More distinct numeric filters than a day keeps facet values, then the facet values the shopper chose.
      for (let i = 0; i < FACETS_PER_GROUP + 10; i++) event(ts + i, 'shopper', null, [`rating>=${i}`, `price<${i}.5`]);
      event(ts + 1_000, 'shopper', null, ['brand:Lumio', 'rating>=4']);
      event(ts + 2_000, 'shopper', null, ['category:5>=4']);
    })();
    const models = modelsView(buildHere(db, join(dir, 'models.sqlite'), NOW, defaultInsightsOptions).packed);
    db.close();
    const facets = models.facetSignals('products');
    const keys = facets.slice(0, facets.length).map((facet) => facet.objectID).sort();
    expect(keys).toEqual(['brand\u0000Lumio', 'category\u00005>=4']);
  });

  it('count an event stamped on the next day (a clock running fast) in no trending window until that day', () => {
    const { db, dir, event } = eventsDb();
    db.transaction(() => {
      event(NOW - DAY, 'shopper', ['lamp']);
      // Accepted up to a day ahead (`maxEventFutureMs`): this one falls on tomorrow.
      event(NOW + 20 * 3_600_000, 'fast-clock', ['bulb']);
    })();
    const trending = (now: number) => {
      const models = modelsView(buildHere(db, join(dir, 'models.sqlite'), now, defaultInsightsOptions, { full: true }).packed);
      const items = models.trending('products');
      return items.slice(0, items.length).filter((item) => item.score > 0).map((item) => item.objectID).sort();
    };
    expect(defaultInsightsOptions.maxEventFutureMs).toBeGreaterThanOrEqual(20 * 3_600_000);
    expect(trending(NOW)).toEqual(['lamp']);
    expect(trending(NOW + DAY)).toEqual(['bulb', 'lamp']);
    db.close();
  });
});
