/**
 * The search log on a real SQLite file: searches summed in memory are written as one row per distinct rollup
 * key, with exact counts, and what a caller controls (hits, filter conditions, user tokens) is bounded; a large
 * batch written in the background takes several turns of the event loop (never one long stall) and loses
 * nothing, and a `flush()` meanwhile completes it at once; `settle()` (analytics reads) waits for the chunks
 * instead of writing at once; `writeTracked()` (event commits) writes the tracked searches and nothing else;
 * a user typing counts once, for the last query, with every keystroke's queryID attributed to it.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { removeDir, tempDir } from './test-support.ts';
import { openInsightsDb } from './db.ts';
import { inOrderInSteps } from './ordered-steps.ts';
import { SearchLog } from './search-log.ts';

describe('inOrderInSteps', () => {
  const byCodeUnits = (keys: string[]) => [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

  it('yields every key in order, whatever the keys (a sort of them, with undefined between steps)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary' }), { maxLength: 300 }), (keys) => {
        const unique = [...new Set(keys)];
        const out = [...inOrderInSteps(unique)].filter((key) => key !== undefined);
        expect(out).toEqual(byCodeUnits(unique));
      }),
    );
  });

  it('sorts a large set in runs, a step each, then merges them: no step sorts more than a run', () => {
    const keys = Array.from({ length: 50_000 }, (_, i) => String((i * 7919) % 100_003));
    const steps = [...inOrderInSteps(keys)];
    const markers = steps.filter((step) => step === undefined).length;
    // 50,000 keys in runs of 4,096: 13 runs, each sorted in a step of its own.
    expect(markers).toBe(13);
    expect(steps.filter((step) => step !== undefined)).toEqual(byCodeUnits(keys));
    // A set that fits in one run is sorted in one go, with no empty step.
    expect([...inOrderInSteps(['b', 'a', 'c'])]).toEqual(['a', 'b', 'c']);
  });
});

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

  it('writes a large batch over several turns of the event loop, with exact totals', async () => {
    db.exec('DELETE FROM query_daily; DELETE FROM hit_daily; DELETE FROM hit_query_daily');
    const log = new SearchLog(db, () => NOW, 60_000, 200);
    // 200 searches of distinct queries, ten distinct top hits each: 2,200 rows to write behind the 200th search.
    for (let i = 0; i < 200; i++) log.record({ index: 'shop', query: `q${i}`, nbHits: 10, objectIDs: Array.from({ length: 10 }, (_, k) => `o${i}-${k}`) });
    expect(log.pendingCount).toBe(0);
    const count = () => (rows('SELECT COUNT(*) AS n FROM hit_query_daily')[0].n as number) + (rows('SELECT COUNT(*) AS n FROM query_daily')[0].n as number);
    const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
    await turn();
    const afterOneTurn = count();
    expect(afterOneTurn).toBeGreaterThan(0);
    expect(afterOneTurn).toBeLessThan(1200);
    // The writer rests between chunks (timers): wait in turns that let timers run.
    const timerTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 1));
    let turns = 1;
    while (count() < 2200 && turns < 2000) {
      await timerTurn();
      turns++;
    }
    expect(turns).toBeGreaterThan(2);
    expect(rows('SELECT COUNT(*) AS n, SUM(count) AS total FROM hit_daily')).toEqual([{ n: 2000, total: 2000 }]);
    expect(rows('SELECT COUNT(*) AS n, SUM(searches) AS total FROM query_daily')).toEqual([{ n: 200, total: 200 }]);

    // Interrupted by a flush (an analytics read), the rest is written at once.
    for (let i = 0; i < 200; i++) log.record({ index: 'shop', query: `q${i}`, nbHits: 10, objectIDs: [`o${i}-0`] });
    await turn();
    log.flush();
    expect(rows('SELECT SUM(searches) AS total FROM query_daily')).toEqual([{ total: 400 }]);
    expect(rows("SELECT count FROM hit_daily WHERE object_id = 'o7-0'")).toEqual([{ count: 2 }]);
    log.close();
  });

  it('ends a chunk once it has taken a few milliseconds, whatever its rows', async () => {
    db.exec('DELETE FROM query_daily; DELETE FROM hit_daily; DELETE FROM hit_query_daily');
    const log = new SearchLog(db, () => NOW, 60_000, 200);
    for (let i = 0; i < 200; i++) log.record({ index: 'shop', query: `t${i}`, nbHits: 10, objectIDs: Array.from({ length: 10 }, (_, k) => `t${i}-${k}`) });
    const written = () => ['query_daily', 'hit_daily', 'hit_query_daily'].reduce((n, table) => n + (rows(`SELECT COUNT(*) AS n FROM ${table}`)[0].n as number), 0);
    // A slow disk, as the writer sees it: every reading of the clock is a millisecond later.
    let clock = performance.now();
    const now = vi.spyOn(performance, 'now').mockImplementation(() => (clock += 1));
    try {
      await new Promise<void>((resolve) => setImmediate(resolve));
      const first = written();
      expect(first).toBeGreaterThan(0);
      // The clock is read every 32 rows: past 4 ms by the fifth reading, where 500 rows would be the cap.
      expect(first).toBeLessThanOrEqual(160);
    } finally {
      now.mockRestore();
    }
    log.flush();
    expect(written()).toBe(200 + 2000 + 2000);
    log.close();
  });

  it('rests between chunks as long as a chunk took, unless an analytics read waits', async () => {
    db.exec('DELETE FROM query_daily; DELETE FROM hit_daily; DELETE FROM hit_query_daily');
    const log = new SearchLog(db, () => NOW, 60_000, 200);
    for (let i = 0; i < 200; i++) log.record({ index: 'shop', query: `r${i}`, nbHits: 10, objectIDs: Array.from({ length: 10 }, (_, k) => `r${i}-${k}`) });
    const written = () => ['query_daily', 'hit_daily', 'hit_query_daily'].reduce((n, table) => n + (rows(`SELECT COUNT(*) AS n FROM ${table}`)[0].n as number), 0);
    const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
    // Every reading of the clock is 100 ms later: the first chunk seems to take a few hundred milliseconds.
    let clock = performance.now();
    const now = vi.spyOn(performance, 'now').mockImplementation(() => (clock += 100));
    try {
      await turn();
      const first = written();
      expect(first).toBeGreaterThan(0);
      // Resting: turns of the event loop go by and nothing more is written.
      for (let i = 0; i < 5; i++) await turn();
      expect(written()).toBe(first);
    } finally {
      now.mockRestore();
    }
    // A read waiting: the rest ends with the current one, and the chunks follow each other without any.
    await log.settle();
    expect(written()).toBe(200 + 2000 + 2000);
    log.close();
  });

  it('settle() resolves once the searches recorded before it are written, in chunks, with requests in between', async () => {
    db.exec('DELETE FROM query_daily; DELETE FROM hit_daily; DELETE FROM hit_query_daily');
    const log = new SearchLog(db, () => NOW, 60_000, 10_000);
    for (let i = 0; i < 200; i++) log.record({ index: 'shop', query: `s${i}`, nbHits: 10, objectIDs: Array.from({ length: 10 }, (_, k) => `p${i}-${k}`) });
    expect(log.pendingCount).toBe(200);
    let settled = false;
    const settling = log.settle().then(() => (settled = true));
    // Nothing written synchronously: the caller's turn ends first.
    expect(log.pendingCount).toBe(0);
    expect(rows('SELECT COUNT(*) AS n FROM query_daily')).toEqual([{ n: 0 }]);
    // Other work gets turns of the event loop while the chunks are written.
    let turns = 0;
    while (!settled && turns < 100) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      turns++;
    }
    await settling;
    expect(turns).toBeGreaterThan(2);
    expect(rows('SELECT COUNT(*) AS n, SUM(searches) AS total FROM query_daily')).toEqual([{ n: 200, total: 200 }]);
    expect(rows('SELECT COUNT(*) AS n FROM hit_query_daily')).toEqual([{ n: 2000 }]);
    // Nothing waiting: settles at once.
    await log.settle();
    log.close();
  });

  it('writeTracked() writes the tracked searches for event attribution, leaving the rollups to their batch', () => {
    db.exec('DELETE FROM query_daily; DELETE FROM hit_daily; DELETE FROM hit_query_daily; DELETE FROM tracked');
    const log = new SearchLog(db, () => NOW, 60_000, 10_000);
    log.record({ index: 'shop', query: 'Desk', nbHits: 4, objectIDs: ['d1', 'd2'], queryID: 'b'.repeat(32) });
    log.record({ index: 'shop', query: 'desk', nbHits: 4, objectIDs: ['d1'] });
    db.transaction(() => log.writeTracked())();
    expect(rows('SELECT query_id, query FROM tracked')).toEqual([{ query_id: 'b'.repeat(32), query: 'desk' }]);
    expect(rows('SELECT COUNT(*) AS n FROM query_daily')).toEqual([{ n: 0 }]);
    expect(log.pendingCount).toBe(2);
    log.flush();
    expect(rows('SELECT searches, tracked FROM query_daily')).toEqual([{ searches: 2, tracked: 1 }]);
    expect(rows('SELECT COUNT(*) AS n FROM tracked')).toEqual([{ n: 1 }]);
    log.close();
  });

  it('counts a user typing as one search, the last, with every queryID of the sequence attributed to it', async () => {
    db.exec('DELETE FROM query_daily; DELETE FROM hit_daily; DELETE FROM hit_query_daily; DELETE FROM tracked; DELETE FROM user_daily');
    let now = NOW;
    const log = new SearchLog(db, () => now, 50, 10_000, 30_000);
    const id = (c: string) => c.repeat(32);
    // One shopper types "lamp" (each keystroke a tracked search); another, at the same time, "chair".
    log.record({ index: 'shop', query: 'l', nbHits: 90, objectIDs: ['x1'], userToken: 'u1', queryID: id('1') });
    log.record({ index: 'shop', query: 'ch', nbHits: 40, objectIDs: ['c9'], userToken: 'u2' });
    log.record({ index: 'shop', query: 'la', nbHits: 50, objectIDs: ['x2'], userToken: 'u1', queryID: id('2') });
    log.record({ index: 'shop', query: 'chair', nbHits: 8, objectIDs: ['c1'], userToken: 'u2' });
    log.record({ index: 'shop', query: 'lamp', nbHits: 12, objectIDs: ['l1', 'l2'], userToken: 'u1', queryID: id('3') });
    expect(log.pendingCount).toBe(0);
    expect(log.openSequences).toBe(2);

    // An event about the second keystroke's results: that shopper's sequence is final, written for attribution.
    db.transaction(() => log.writeTracked([id('2')]))();
    expect(rows('SELECT query_id, query FROM tracked ORDER BY query_id')).toEqual([
      { query_id: id('1'), query: 'lamp' },
      { query_id: id('2'), query: 'lamp' },
      { query_id: id('3'), query: 'lamp' },
    ]);
    expect(log.pendingCount).toBe(1);
    expect(log.openSequences).toBe(1);

    // The other shopper's sequence closes once its window has passed, at the next batch.
    now += 30_001;
    await vi.waitFor(() => expect(log.openSequences).toBe(0), { timeout: 2000, interval: 20 });
    await log.settle();
    expect(rows('SELECT query, searches, nb_hits, tracked FROM query_daily ORDER BY query')).toEqual([
      { query: 'chair', searches: 1, nb_hits: 8, tracked: 0 },
      { query: 'lamp', searches: 1, nb_hits: 12, tracked: 1 },
    ]);
    // Only the counted searches' hits count.
    expect(rows('SELECT object_id FROM hit_daily ORDER BY object_id').map((r) => r.object_id)).toEqual(['c1', 'l1', 'l2']);
    expect(rows('SELECT user_token FROM user_daily ORDER BY user_token').map((r) => r.user_token)).toEqual(['u1', 'u2']);

    // flush() counts the sequences still open: model builds and imports see every search.
    log.record({ index: 'shop', query: 'desk', nbHits: 3, ip: '10.0.0.9' });
    log.flush();
    expect(rows("SELECT searches FROM query_daily WHERE query = 'desk'")).toEqual([{ searches: 1 }]);
    log.close();
  });
});

describe('search log after close', () => {
  it('ignores searches that finish after shutdown began, and writes nothing to the closed database', async () => {
    const dir = tempDir('vitrine-search-log-closed-');
    const db = openInsightsDb(dir);
    try {
      const log = new SearchLog(db, () => Date.UTC(2025, 3, 1, 12), 5, 2);
      log.record({ index: 'shop', query: 'lamp', nbHits: 1 });
      log.close();
      db.close();
      // Past the batch size (a background write at once) and with the flush timer armed before: both would
      // have written to the closed database from a timer, an uncaught exception failing this test.
      for (let i = 0; i < 5; i++) log.record({ index: 'shop', query: `late ${i}`, nbHits: 1 });
      expect(log.pendingCount).toBe(0);
      await new Promise((resolve) => setTimeout(resolve, 20));
      await expect(log.settle()).resolves.toBeUndefined();
    } finally {
      removeDir(dir);
    }
  });
});
