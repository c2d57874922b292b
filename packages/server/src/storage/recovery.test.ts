/**
 * What bounds a restart: the log a crash leaves to replay is capped (writes wait for the snapshot under way past
 * twice the snapshot thresholds), and a server loading its data folder answers `/1/isalive` with 503 and holds
 * other requests until the indexes are whole.
 */
import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { ADMIN_KEY, APP_ID, SEARCH_KEY, tempDir } from '../test-support.ts';
import { getMeta } from './db.ts';
import { Store } from './store.ts';

/** Lets the event loop turn a few times: enough for a queued write to be committed and flushed if it may be. */
async function turns(count = 5): Promise<void> {
  for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** Node's timers count whole milliseconds from the loop's clock, which can be read before a test's own clock. */
const TIMER_SLACK_MS = 25;
/** Records `<prefix>0` … of a lamp, enough to weigh against small snapshot thresholds. */
const records = (prefix: string, count = 10) => Array.from({ length: count }, (_, i) => ({ objectID: `${prefix}${i}`, name: 'lamp' }));

/** A write under way, and whether it was acknowledged yet. */
function tracked<T>(write: Promise<T>): { done: Promise<T>; acknowledged: () => boolean } {
  let acknowledged = false;
  const done = write.then((task) => ((acknowledged = true), task));
  return { done, acknowledged: () => acknowledged };
}

/**
 * The write held at the cap, once let through: acknowledged after a snapshot covering the first write, and every
 * record of the three writes there. Closes the store; returns the held write's task.
 */
async function heldWriteGoesThrough(store: Store, held: { done: Promise<{ taskID: number }> }, firstTaskID: number): Promise<number> {
  const { taskID } = await held.done;
  expect(Number(getMeta(store.db, 'snapshot_seq'))).toBeGreaterThanOrEqual(firstTaskID);
  await store.waitForTask(taskID);
  expect(store.registry.get('products')!.engine!.size).toBe(30);
  await store.close();
  return taskID;
}

describe('recovery bounds', () => {
  const dirs: string[] = [];
  const newDir = () => {
    const dir = tempDir('vitrine-recovery-');
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('holds writes past twice the snapshot threshold until the snapshot under way is current', async () => {
    const dataDir = newDir();
    const store = await Store.open({ dataDir, limits: { snapshotEveryRecords: 10, snapshotEveryOps: 1_000_000, snapshotEveryBytes: 1e9 } });
    // A replica that takes the first snapshot and gives it back only when told; the store then captures it
    // itself, as it does every later one.
    let giveBack: ((error: Error) => void) | undefined;
    let asked!: () => void;
    const captureAsked = new Promise<void>((resolve) => (asked = resolve));
    store.setSnapshotCapture(() => new Promise<string>((_resolve, reject) => {
      if (giveBack !== undefined) return reject(new Error('no replica'));
      giveBack = reject;
      asked();
    }));
    const first = await store.saveObjects('products', records('a'));
    await store.waitForTask(first.taskID);
    await captureAsked;
    // The log since the durable snapshot (none) holds 10 records: 10 more are taken, reaching the cap of 20.
    const second = await store.saveObjects('products', records('b'));
    const third = tracked(store.saveObjects('products', records('c')));
    await turns();
    expect(third.acknowledged(), 'a write past the cap waits for the snapshot').toBe(false);
    giveBack!(new Error('replica gone'));
    expect(await heldWriteGoesThrough(store, third, first.taskID)).toBeGreaterThan(second.taskID);
  });

  it('holds writes past the cap while applying lags behind the log, until a snapshot covers them', async () => {
    const dataDir = newDir();
    const store = await Store.open({ dataDir, limits: { snapshotEveryRecords: 10, snapshotEveryOps: 1_000_000, snapshotEveryBytes: 1e9 } });
    // A search thread behind the main thread holds applying back: logged operations wait, no snapshot is due.
    let release!: () => void;
    const caughtUp = new Promise<void>((resolve) => (release = resolve));
    store.setApplyGate(() => caughtUp);
    const first = await store.saveObjects('products', records('a'));
    await store.saveObjects('products', records('b'));
    const third = tracked(store.saveObjects('products', records('c')));
    await turns();
    expect(third.acknowledged(), 'a write past the cap waits while nothing can be applied').toBe(false);
    store.setApplyGate(null);
    release();
    // Acknowledged once a snapshot made the log since it shorter than the cap.
    await heldWriteGoesThrough(store, third, first.taskID);
  });

  it('after a replay, the snapshot it made due waits snapshotAfterStartMs, and writes past the cap wait for it', async () => {
    const dataDir = newDir();
    const writer = await Store.open({ dataDir, limits: { snapshotEveryRecords: 1000 } });
    const logged = await writer.saveObjects('products', records('a', 15));
    await writer.waitForTask(logged.taskID);
    writer.db.close(); // a crash: 15 records in the log only

    const limits = { snapshotEveryRecords: 10, snapshotEveryOps: 1_000_000, snapshotEveryBytes: 1e9, snapshotAfterStartMs: 400 };
    const started = performance.now();
    const store = await Store.open({ dataDir, limits });
    // Due (15 replayed records, threshold 10) but deferred: nothing written during the first searches.
    await turns(20);
    expect(getMeta(store.db, 'snapshot_seq')).toBeUndefined();
    while (getMeta(store.db, 'snapshot_seq') === undefined) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(performance.now() - started).toBeGreaterThanOrEqual(400 - TIMER_SLACK_MS);
    expect(Number(getMeta(store.db, 'snapshot_seq'))).toBe(logged.taskID);
    store.db.close(); // a crash again: the log since that snapshot is empty

    // Replayed again, then a write past the cap (20) waits for the deferred snapshot: the bound holds.
    const crashed = await Store.open({ dataDir: newDir(), limits: { snapshotEveryRecords: 1000 } });
    const first = await crashed.saveObjects('products', records('b', 15));
    await crashed.waitForTask(first.taskID);
    crashed.db.close();
    const restarted = await Store.open({ dataDir: crashed.dataDir, limits: { ...limits, snapshotAfterStartMs: 300 } });
    const reopened = performance.now();
    await restarted.saveObjects('products', records('c', 10)); // 25 since the durable snapshot (none): over the cap
    const third = tracked(restarted.saveObjects('products', records('d', 1)));
    await turns(20);
    expect(third.acknowledged(), 'a write past the cap waits for the deferred snapshot').toBe(false);
    await third.done;
    expect(performance.now() - reopened).toBeGreaterThanOrEqual(300 - TIMER_SLACK_MS);
    expect(Number(getMeta(restarted.db, 'snapshot_seq'))).toBeGreaterThanOrEqual(first.taskID);
    await restarted.close();
  });

  it('a scheduled snapshot waits while the search threads load, then snapshotAfterStartMs after one is ready', async () => {
    const dataDir = newDir();
    const writer = await Store.open({ dataDir, limits: { snapshotEveryRecords: 1000 } });
    const logged = await writer.saveObjects('products', records('a', 15));
    await writer.waitForTask(logged.taskID);
    writer.db.close(); // a crash: 15 records in the log only

    const limits = { snapshotEveryRecords: 10, snapshotEveryOps: 1_000_000, snapshotEveryBytes: 1e9, snapshotAfterStartMs: 200 };
    const store = await Store.open({ dataDir, limits });
    store.holdScheduledSnapshots(); // as the search threads do when they start loading
    // Past the replay's own deferral, still held: the thread that would capture it is not ready.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(getMeta(store.db, 'snapshot_seq')).toBeUndefined();
    const released = performance.now();
    store.releaseScheduledSnapshots(); // a thread is ready: its first searches go first
    await turns(20);
    expect(getMeta(store.db, 'snapshot_seq')).toBeUndefined();
    while (getMeta(store.db, 'snapshot_seq') === undefined) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(performance.now() - released).toBeGreaterThanOrEqual(200 - TIMER_SLACK_MS);
    expect(Number(getMeta(store.db, 'snapshot_seq'))).toBe(logged.taskID);
    // A snapshot asked for does not wait.
    store.holdScheduledSnapshots();
    const more = await store.saveObjects('products', records('b', 2));
    await store.waitForTask(more.taskID);
    await store.snapshot();
    expect(Number(getMeta(store.db, 'snapshot_seq'))).toBe(more.taskID);
    await store.close();
  });

  it('answers isalive 503 while loading, holds searches until loaded, then answers them whole', async () => {
    const dataDir = newDir();
    const writer = await Store.open({ dataDir });
    const task = await writer.saveObjects('products', [{ objectID: '1', name: 'oak table' }, { objectID: '2', name: 'oak chair' }]);
    await writer.waitForTask(task.taskID);
    // Left as a crash leaves it: the writes in the log only, replayed by the next start.
    writer.db.close();

    const store = Store.create({ dataDir });
    const app = await buildApp({ store, config: { appId: APP_ID, adminApiKey: ADMIN_KEY, searchApiKey: SEARCH_KEY } });
    try {
      const notReady = await app.inject({ method: 'GET', url: '/1/isalive' });
      expect(notReady.statusCode).toBe(503);
      expect(notReady.json()).toEqual({ message: 'Not ready: the indexes are still being loaded', status: 503 });
      const headers = { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': SEARCH_KEY };
      const search = app.inject({ method: 'POST', url: '/1/indexes/products/query', headers, payload: JSON.stringify({ query: 'oak' }) });
      await store.load();
      const answer = await search;
      expect(answer.statusCode).toBe(200);
      expect(answer.json().nbHits).toBe(2);
      expect((await app.inject({ method: 'GET', url: '/1/isalive' })).statusCode).toBe(200);
    } finally {
      await app.close();
      await store.close();
    }
  });
});
