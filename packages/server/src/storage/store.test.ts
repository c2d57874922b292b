import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SearchIndex } from '@vitrine/engine';
import { tempDir } from '../test-support.ts';
import { getMeta } from './db.ts';
import { writeSnapshotFiles } from './snapshot.ts';
import { Store } from './store.ts';
import { searchStore, storeObjects } from '../search/in-process.ts';

describe('Store', () => {
  const dirs: string[] = [];
  const newDir = () => {
    const dir = tempDir('vitrine-store-');
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('acknowledges writes as tasks that become published once search sees them', async () => {
    const store = await Store.open({ dataDir: newDir() });
    const task = await store.saveObjects('products', [{ objectID: 'a', name: 'Lamp' }, { name: 'Chair' }]);
    expect(task.objectIDs[0]).toBe('a');
    expect(task.objectIDs[1]).toMatch(/^[0-9a-f-]{36}$/);
    expect(['published', 'notPublished']).toContain(store.taskStatus(task.taskID));
    await store.waitForTask(task.taskID);
    expect(store.taskStatus(task.taskID)).toBe('published');
    expect(store.taskStatus(task.taskID + 1000)).toBeUndefined();
    expect(store.registry.get('products')!.engine!.size).toBe(2);
    await store.close();
  });

  it('groups writes of one event-loop turn into one commit, in order', async () => {
    const store = await Store.open({ dataDir: newDir() });
    const tasks = await Promise.all([1, 2, 3].map((n) => store.saveObjects('products', [{ objectID: 'x', n }])));
    const ids = tasks.map((t) => t.taskID);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    await store.waitForTask(ids[2]);
    expect(store.registry.get('products')!.engine!.getObject('x')).toEqual({ objectID: 'x', n: 3 });
    await store.close();
  });

  it('replays the log after an unclean stop (no close, no snapshot)', async () => {
    const dataDir = newDir();
    const first = await Store.open({ dataDir });
    await first.setSettings('products', { searchableAttributes: ['name'] });
    const last = await first.saveObjects('products', [{ objectID: 'a', name: 'Lamp' }, { objectID: 'b', name: 'Desk' }]);
    await first.waitForTask(last.taskID);
    // Simulates a crash: the process state is dropped without close(); only the database remains.
    first.db.close();
    const second = await Store.open({ dataDir });
    expect(second.getSettings('products')).toEqual({ searchableAttributes: ['name'] });
    expect(second.registry.get('products')!.engine!.size).toBe(2);
    expect(second.taskStatus(last.taskID)).toBe('published');
    const next = await second.saveObjects('products', [{ objectID: 'c' }]);
    expect(next.taskID).toBeGreaterThan(last.taskID);
    await second.close();
  });

  it('snapshots, compacts the log and restores from snapshot plus the log after it', async () => {
    const dataDir = newDir();
    const store = await Store.open({ dataDir, limits: { snapshotEveryOps: 3 } });
    for (let i = 0; i < 4; i++) await store.waitForTask((await store.saveObjects('products', [{ objectID: String(i), name: `item ${i}` }])).taskID);
    await store.settled();
    const snapshots = readdirSync(join(dataDir, 'snapshots'));
    expect(snapshots).toHaveLength(1);
    const logged = (store.db.prepare('SELECT COUNT(*) AS n FROM ops').get() as { n: number }).n;
    expect(logged).toBeLessThan(4);
    const last = await store.saveObjects('products', [{ objectID: 'late' }]);
    await store.waitForTask(last.taskID);
    await store.settled();
    store.db.close();
    const reopened = await Store.open({ dataDir });
    expect([...reopened.registry.get('products')!.engine!.records()].map((r) => r.objectID).sort()).toEqual(['0', '1', '2', '3', 'late']);
    await reopened.close();
    // A clean close snapshots everything: the log is empty and one snapshot remains.
    expect(readdirSync(join(dataDir, 'snapshots'))).toHaveLength(1);
    expect(existsSync(join(dataDir, 'snapshots', `${snapshots[0]}.tmp`))).toBe(false);
  });

  it('reads the records a snapshot holds from its file, keeping in memory only those written since', async () => {
    const dataDir = newDir();
    const store = await Store.open({ dataDir });
    const expected = new Map<string, Record<string, unknown>>();
    const records = Array.from({ length: 2000 }, (_, i) => ({ objectID: String(i), name: `item ${i} ${i % 7 === 0 ? 'lamp' : 'desk'}`, note: 'é'.repeat(i % 50) }));
    for (const record of records) expected.set(record.objectID, record);
    await store.waitForTask((await store.saveObjects('products', records)).taskID);
    await store.snapshot();
    const engine = store.registry.get('products')!.engine!;
    await vi.waitFor(() => expect(engine.recordsOutOfMemory).toBe(2000));
    const first = readdirSync(join(dataDir, 'snapshots'));
    // Written since: replaced, deleted, added.
    const changes = [{ objectID: '7', name: 'item 7 changed lamp' }, { objectID: 'new', name: 'new lamp' }];
    await store.waitForTask((await store.saveObjects('products', changes)).taskID);
    const deletion = await store.submit({ kind: 'batch', at: new Date().toISOString(), requests: [{ action: 'deleteObject', indexName: 'products', body: { objectID: '14' } }] });
    await store.waitForTask(deletion);
    for (const record of changes) expected.set(record.objectID, record);
    expected.delete('14');
    expect(engine.recordsOutOfMemory).toBe(1998);
    const check = (index: SearchIndex) => {
      expect(new Map([...index.records()].map((record) => [record.objectID, record]))).toEqual(expected);
      const hits = index.search({ query: 'lamp', hitsPerPage: 1000 }).hits.map((hit) => hit.objectID);
      expect(hits.sort()).toEqual([...expected.values()].filter((record) => String(record.name).includes('lamp')).map((record) => record.objectID).sort());
    };
    check(engine);
    // The next snapshot copies the records read from the first one; once it is in place (the first one's folder
    // pruned), every record is read from it.
    await store.snapshot();
    expect(readdirSync(join(dataDir, 'snapshots'))).not.toEqual(first);
    await vi.waitFor(() => expect(engine.recordsOutOfMemory).toBe(expected.size));
    check(engine);
    // One more write, left in the log: a restart replays it after loading the snapshot.
    await store.waitForTask((await store.saveObjects('products', [{ objectID: '21', name: 'item 21 replayed' }])).taskID);
    expected.set('21', { objectID: '21', name: 'item 21 replayed' });
    store.db.close();
    const reopened = await Store.open({ dataDir, limits: { recordsFromFilesAfterStartMs: 300 } });
    const loaded = reopened.registry.get('products')!.engine!;
    check(loaded);
    // In memory as loaded while the first searches are answered (`recordsFromFilesAfterStartMs`)…
    expect(loaded.recordsOutOfMemory).toBe(0);
    // …then read from the snapshot it loaded, but for the record the replay changed.
    await vi.waitFor(() => expect(loaded.recordsOutOfMemory).toBe(expected.size - 1));
    check(loaded);
    await reopened.waitForTask((await reopened.saveObjects('products', [{ objectID: 'after', name: 'after restart' }])).taskID);
    expected.set('after', { objectID: 'after', name: 'after restart' });
    await reopened.snapshot();
    await vi.waitFor(() => expect(loaded.recordsOutOfMemory).toBe(expected.size));
    check(loaded);
    await reopened.close();
  });

  it('deletes the log a snapshot covers in steps, and a restart never replays rows a crash left behind', async () => {
    const dataDir = newDir();
    const store = await Store.open({ dataDir, limits: { snapshotEveryOps: 1_000_000, maxPendingTasks: 10_000 } });
    // 4,500 logged operations (more than two steps of the trim), each setting the counter to its number.
    const written = await Promise.all(Array.from({ length: 4500 }, (_, n) => store.saveObjects('p', [{ objectID: 'counter', n }])));
    await store.waitForTask(Math.max(...written.map((task) => task.taskID)));
    const count = () => (store.db.prepare('SELECT COUNT(*) AS n FROM ops').get() as { n: number }).n;
    expect(count()).toBe(4500);
    const first = (store.db.prepare('SELECT op FROM ops ORDER BY seq LIMIT 1').get() as { op: string }).op;
    await store.snapshot();
    expect(count()).toBe(0);
    // What a crash in the middle of a trim leaves: a row at or below the snapshot's position (here the first
    // operation, setting the counter back to 0 if it were replayed).
    const covered = Number((store.db.prepare("SELECT value FROM meta WHERE key = 'snapshot_seq'").get() as { value: string }).value);
    store.db.prepare('INSERT INTO ops (seq, op) VALUES (?, ?)').run(covered, first);
    await store.settled();
    store.db.close();
    const reopened = await Store.open({ dataDir });
    expect(storeObjects(reopened, 'p', ['counter'])).toEqual([{ objectID: 'counter', n: 4499 }]);
    await reopened.close();
  });

  it('publishes no task while a replica writing a snapshot holds it, and every one once it lets go', async () => {
    const dataDir = newDir();
    const store = await Store.open({ dataDir });
    const first = await store.saveObjects('products', [{ objectID: 'a', name: 'Lamp' }]);
    await store.waitForTask(first.taskID);
    // A replica that captures the state when asked, then holds what comes after until the test lets it go.
    let asked!: (seq: number) => void;
    const wasAsked = new Promise<number>((resolve) => (asked = resolve));
    let letGo!: () => void;
    const gate = new Promise<void>((resolve) => (letGo = resolve));
    store.setSnapshotCapture(async (seq, dir, released) => {
      // Written before it says it was asked: nothing after `seq` is applied yet.
      const manifest = await writeSnapshotFiles(store.registry, seq, dir, () => {});
      asked(seq);
      await gate;
      released();
      return manifest;
    });
    const snapshot = store.snapshot();
    expect(await wasAsked).toBe(first.taskID);
    const applied = new Promise<void>((resolve) => store.onApplied((ops) => ops.some((op) => op.seq === second.taskID) && resolve()));
    const second = await store.saveObjects('products', [{ objectID: 'b', name: 'Chair' }]);
    let published = false;
    const waiting = store.waitForTask(second.taskID).then(() => (published = true));
    await applied;
    // Applied here, but the replica holds it: not published.
    expect(storeObjects(store, 'products', ['b'])[0]).toMatchObject({ name: 'Chair' });
    expect(store.taskStatus(second.taskID)).toBe('notPublished');
    expect(published).toBe(false);
    letGo();
    await waiting;
    expect(store.taskStatus(second.taskID)).toBe('published');
    await snapshot;
    expect(Number(getMeta(store.db, 'snapshot_seq'))).toBe(first.taskID);
    await store.close();
    const reopened = await Store.open({ dataDir });
    expect(storeObjects(reopened, 'products', ['a', 'b']).map((record) => record?.name)).toEqual(['Lamp', 'Chair']);
    await reopened.close();
  });

  it('without a search thread, writes a snapshot from the live indexes in pieces, holding writes until it is written', async () => {
    const dataDir = newDir();
    const store = await Store.open({ dataDir });
    const records = Array.from({ length: 3000 }, (_, i) => ({ objectID: String(i), name: `Lamp ${i}`, price: i }));
    await store.waitForTask((await store.saveObjects('products', records)).taskID);
    const whole = vi.spyOn(SearchIndex.prototype, 'saveSnapshot');
    const pieces = vi.spyOn(SearchIndex.prototype, 'saveSnapshotInPieces');
    try {
      // A write arriving once the snapshot's file is being written waits for it, then is applied.
      const snapshot = store.snapshot();
      while (pieces.mock.calls.length === 0) await new Promise((resolve) => setImmediate(resolve));
      const later = store.saveObjects('products', [{ objectID: 'late', name: 'Chair' }]);
      await snapshot;
      const lateTask = (await later).taskID;
      await store.waitForTask(lateTask);
      // No copy of the whole index in one synchronous step (seconds at a million records, nothing answered).
      expect(whole).not.toHaveBeenCalled();
      expect(pieces).toHaveBeenCalledTimes(1);
      const seq = Number(getMeta(store.db, 'snapshot_seq'));
      expect(seq).toBeLessThan(lateTask);
    } finally {
      whole.mockRestore();
      pieces.mockRestore();
    }
    await store.close();
    const reopened = await Store.open({ dataDir });
    expect(reopened.registry.get('products')!.engine!.size).toBe(3001);
    expect(storeObjects(reopened, 'products', ['2999', 'late'])).toMatchObject([{ price: 2999 }, { name: 'Chair' }]);
    await reopened.close();
  });

  it('with an apply interval, applies a burst of writes together, once per interval', async () => {
    const store = await Store.open({ dataDir: newDir(), limits: { applyIntervalMs: 200 } });
    const first = await store.saveObjects('p', [{ objectID: 'a' }]);
    await store.waitForTask(first.taskID);
    const appliedFirst = performance.now();
    const [second, third] = await Promise.all([store.saveObjects('p', [{ objectID: 'b' }]), store.saveObjects('p', [{ objectID: 'c' }])]);
    expect(store.taskStatus(second.taskID)).toBe('notPublished');
    await store.waitForTask(second.taskID);
    expect(performance.now() - appliedFirst).toBeGreaterThanOrEqual(150);
    expect(store.taskStatus(third.taskID)).toBe('published');
    await store.close();
  });

  it('applies and snapshots every accepted write on close, then refuses new ones', async () => {
    const dataDir = newDir();
    const store = await Store.open({ dataDir });
    const accepted = store.saveObjects('p', [{ objectID: 'a' }]);
    const closing = store.close();
    await expect(store.saveObjects('p', [{ objectID: 'b' }])).rejects.toMatchObject({ status: 429 });
    const { taskID } = await accepted;
    await closing;
    expect(store.taskStatus(taskID)).toBe('published');
    const reopened = await Store.open({ dataDir });
    expect(storeObjects(reopened, 'p', ['a', 'b'])).toEqual([{ objectID: 'a' }, null]);
    expect((reopened.db.prepare('SELECT COUNT(*) AS n FROM ops').get() as { n: number }).n).toBe(0);
    await reopened.close();
  });

  it('refuses to open a data folder another store holds', async () => {
    const dataDir = newDir();
    const first = await Store.open({ dataDir });
    await expect(Store.open({ dataDir })).rejects.toThrow(/in use by another Vitrine server/);
    await first.close();
    const second = await Store.open({ dataDir });
    await second.close();
  });

  it('refuses writes past the pending-task cap with a 429', async () => {
    const store = await Store.open({ dataDir: newDir(), limits: { maxPendingTasks: 2 } });
    const accepted = [store.saveObjects('p', [{ objectID: 'a' }]), store.saveObjects('p', [{ objectID: 'b' }])];
    await expect(store.saveObjects('p', [{ objectID: 'c' }])).rejects.toMatchObject({ status: 429 });
    await Promise.all(accepted);
    await store.close();
  });

  it('serves in-process reads: search, getObjects, listIndices', async () => {
    const store = await Store.open({ dataDir: newDir() });
    await store.setSettings('products', { attributesForFaceting: ['brand'] });
    await store.waitForTask((await store.saveObjects('products', [{ objectID: 'a', name: 'lamp', brand: 'Lumio' }, { objectID: 'b', name: 'desk' }])).taskID);
    expect(searchStore(store, 'products', { query: 'lamp', facets: ['brand'] })).toMatchObject({ nbHits: 1, facets: { brand: { Lumio: 1 } } });
    expect(() => searchStore(store, 'missing', {})).toThrow('Index does not exist');
    expect(() => searchStore(store, 'products', { hitsPerPage: 5000 })).toThrow(/hitsPerPage/);
    expect(storeObjects(store, 'products', ['b', 'zz'])).toEqual([{ objectID: 'b', name: 'desk' }, null]);
    expect(storeObjects(store, 'missing', ['a'])).toEqual([null]);
    expect(store.listIndices()).toEqual(['products']);
    await store.close();
  });

  it('replaces an index exactly: settings and records', async () => {
    const store = await Store.open({ dataDir: newDir() });
    await store.setSettings('suggestions', { hitsPerPage: 5, customRanking: ['desc(count)'] });
    await store.waitForTask((await store.saveObjects('suggestions', [{ objectID: 'old', query: 'old' }])).taskID);
    await store.replaceIndex('suggestions', [{ objectID: 'lamp', query: 'lamp', count: 3 }, { objectID: 'desk', query: 'desk', count: 9 }], { customRanking: ['desc(count)'] });
    expect(store.getSettings('suggestions')).toEqual({ customRanking: ['desc(count)'] });
    expect(searchStore(store, 'suggestions', {}).hits.map((h) => h.objectID)).toEqual(['desk', 'lamp']);
    await store.close();
  });

  it('acknowledges and applies a write only once the log is flushed to disk, the event loop free meanwhile', async () => {
    const flushes: Array<(error: Error | null) => void> = [];
    const store = await Store.open({ dataDir: newDir(), walFsync: (_fd, done) => flushes.push(done) });
    let acknowledged = false;
    const write = store.saveObjects('products', [{ objectID: 'a', name: 'Lamp' }]).then((task) => {
      acknowledged = true;
      return task;
    });
    while (flushes.length === 0) await new Promise((resolve) => setImmediate(resolve));
    // Committed to the log, not yet on disk: neither acknowledged nor visible; timers still run.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(acknowledged).toBe(false);
    expect(store.hasIndex('products')).toBe(false);
    flushes.shift()!(null);
    const task = await write;
    await store.waitForTask(task.taskID);
    expect(searchStore(store, 'products', {}).nbHits).toBe(1);
    await store.close();
  });

  it('refuses the writes of a failed log flush, and every write after it', async () => {
    let fail = true;
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => errors.push(args);
    try {
      const store = await Store.open({ dataDir: newDir(), walFsync: (_fd, done) => done(fail ? new Error('EIO: flush failed') : null) });
      await expect(store.saveObjects('products', [{ objectID: 'a', name: 'Lamp' }])).rejects.toThrow('EIO');
      // The disk may have dropped what it could not write: a later flush succeeding proves nothing.
      fail = false;
      await expect(store.saveObjects('products', [{ objectID: 'b', name: 'Desk' }])).rejects.toThrow('EIO');
      expect(store.hasIndex('products')).toBe(false);
      expect(errors).toHaveLength(1);
      store.db.close();
    } finally {
      console.error = original;
    }
  });
});
