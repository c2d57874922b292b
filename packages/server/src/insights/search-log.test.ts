/**
 * The search log on a real SQLite file: searches summed in memory are written as one row per distinct rollup
 * key, with exact counts, and what a caller controls (hits, filter conditions, user tokens) is bounded.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../test-support.ts';
import { openInsightsDb } from './db.ts';
import { SearchLog } from './search-log.ts';

describe('search log', () => {
  const dir = tempDir('vitrine-search-log-');
  const db = openInsightsDb(dir);
  afterAll(() => {
    db.close();
    removeDir(dir);
  });
  const NOW = Date.UTC(2025, 3, 1, 12);
  const rows = (sql: string) => db.prepare(sql).all() as Array<Record<string, unknown>>;

  it('writes one row per distinct key with the summed counts, bounding hits, filters and user tokens', () => {
    const log = new SearchLog(db, () => NOW, 60_000, 1000);
    const hits = Array.from({ length: 15 }, (_, i) => `o${i}`);
    const conditions = Array.from({ length: 60 }, (_, i) => `color:c${i}`);
    log.record({ index: 'shop', query: 'Lamp', nbHits: 15, objectIDs: hits, userToken: 'u1' });
    log.record({ index: 'shop', query: ' lamp ', nbHits: 12, objectIDs: hits, userToken: 'u1', queryID: 'a'.repeat(32) });
    log.record({ index: 'shop', query: 'LAMP', nbHits: 0, objectIDs: [], facetFilters: conditions, userToken: 'x'.repeat(200), ip: '10.0.0.1' });
    log.record({ index: 'shop', query: 'lamp', nbHits: 3, analytics: false });
    expect(log.pendingCount).toBe(3);
    log.flush();
    expect(log.pendingCount).toBe(0);

    expect(rows('SELECT query, searches, no_results, no_results_filtered, nb_hits, tracked, tracked_with_results FROM query_daily')).toEqual([
      { query: 'lamp', searches: 3, no_results: 1, no_results_filtered: 1, nb_hits: 0, tracked: 1, tracked_with_results: 1 },
    ]);
    // The first ten hits of each search count, once per search.
    const hitRows = rows('SELECT object_id, count, tracked FROM hit_daily ORDER BY object_id');
    expect(hitRows.map((r) => r.object_id)).toEqual(hits.slice(0, 10).sort());
    for (const row of hitRows) expect(row).toMatchObject({ count: 2, tracked: 1 });
    expect(rows('SELECT COUNT(*) AS n, SUM(count) AS total FROM hit_query_daily')).toEqual([{ n: 10, total: 20 }]);
    // At most 50 conditions of one search are counted; the oversized header token counts as the client IP.
    expect(rows('SELECT COUNT(*) AS n FROM filter_daily')).toEqual([{ n: 50 }]);
    expect(rows('SELECT user_token FROM user_daily ORDER BY user_token').map((r) => r.user_token)).toEqual(['10.0.0.1', 'u1']);
    expect(rows('SELECT query_id, query FROM tracked')).toEqual([{ query_id: 'a'.repeat(32), query: 'lamp' }]);

    // A later batch adds to the same rows.
    log.record({ index: 'shop', query: 'lamp', nbHits: 7, objectIDs: ['o0'] });
    log.close();
    expect(rows('SELECT searches, nb_hits FROM query_daily')).toEqual([{ searches: 4, nb_hits: 7 }]);
    expect(rows("SELECT count FROM hit_daily WHERE object_id = 'o0'")).toEqual([{ count: 3 }]);
  });
});
