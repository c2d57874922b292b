/**
 * A model build's memory is bounded whatever the events name: a flood of random objectIDs, filter values and
 * shoppers goes past every bound of the build (shrunk here), and what shoppers really repeat is still found.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openInsightsDb } from './db.ts';
import { defaultInsightsOptions } from './deps.ts';
import { modelsView } from './models.ts';
import { buildHere, removeDir, tempDir } from './test-support.ts';

const NOW = Date.UTC(2025, 5, 15, 12);
const MINUTE = 60_000;
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

describe('model builds', () => {
  it('stays within its bounds under a flood of random objectIDs, and keeps what shoppers repeat', () => {
    const dir = tempDir();
    dirs.push(dir);
    const db = openInsightsDb(dir);
    const insert = db.prepare(`INSERT INTO events (ts, received_at, index_name, type, subtype, name, user_token, object_ids, filters)
      VALUES (?, ?, 'products', ?, ?, 'Event', ?, ?, ?)`);
    const event = (ts: number, user: string, type: string, objectIDs: string[] | null, filters: string[] | null = null) =>
      insert.run(ts, ts, type, type === 'conversion' ? 'purchase' : null, user, objectIDs && JSON.stringify(objectIDs), filters && JSON.stringify(filters));
    let random = 0;
    const noise = () => `noise-${random++}`;
    db.transaction(() => {
      for (let day = 1; day <= 6; day++) {
        for (let shopper = 0; shopper < 40; shopper++) {
          const ts = NOW - day * 86_400_000 + shopper * 10 * MINUTE;
          // The flood, interleaved: each event names 20 objectIDs never seen again, a new filter value, a new user.
          for (let i = 0; i < 10; i++) event(ts + i, `flood-${random}`, 'view', Array.from({ length: 20 }, noise), null);
          for (let i = 0; i < 3; i++) event(ts + 100 + i, `flood-${random}`, 'click', null, [`brand:${noise()}`]);
          event(ts + MINUTE, `shopper-${shopper}`, 'view', ['lamp', 'bulb']);
          event(ts + 2 * MINUTE, `shopper-${shopper}`, 'conversion', ['lamp']);
          event(ts + 3 * MINUTE, `shopper-${shopper}`, 'conversion', ['bulb']);
          event(ts + 4 * MINUTE, `shopper-${shopper}`, 'click', null, ['brand:Lumio']);
        }
      }
    })();
    const bounds = { items: 500, pairs: 2000, facetKeys: 40, ranked: 300 };
    const models = modelsView(buildHere(db, join(dir, 'models.sqlite'), NOW, defaultInsightsOptions, { bounds }).packed);
    db.close();

    expect(models.boughtTogether('products', 'lamp')).toEqual([{ objectID: 'bulb', score: expect.any(Number) }]);
    expect(models.coInterest('products', 'lamp')[0].objectID).toBe('bulb');
    expect(models.itemStats('products').length).toBeLessThanOrEqual(bounds.ranked);
    expect(models.trending('products').slice(0, 2).map((item) => item.objectID).sort()).toEqual(['bulb', 'lamp']);
    const facets = models.facetSignals('products');
    expect(facets.length).toBeLessThanOrEqual(bounds.facetKeys);
    expect(facets.slice(0, 1)[0].objectID).toBe('brand\u0000Lumio');
    // 2,400 flood events of 20 new objectIDs each went by: 48,000 items, over a million pairs, all dropped.
    expect(models.counts.relatedItems).toBeLessThan(bounds.items);
  });
});
