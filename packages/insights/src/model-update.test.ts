/**
 * Incremental model builds equal builds from scratch (an oracle test, fast-check): random event logs, written in
 * random batches through the event log itself (ids from its counter, its budgets dropping the oldest events),
 * with users deleted, retention purges, events arriving late or with a clock an hour fast, the days moving on,
 * and events numbered by another writer below what the models read; built incrementally at random moments, in
 * steps of random sizes. After every build, the aggregates (each user's day) and the models derived from them
 * equal those of a build from scratch over the same log, and the change log the builds took is cleared.
 */
import fc from 'fast-check';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { InsightsDb } from './db.ts';
import { openInsightsDb } from './db.ts';
import type { InsightsOptions } from './deps.ts';
import { defaultInsightsOptions } from './deps.ts';
import { EventLog } from './event-log.ts';
import { beginModelBuild, clearChangeSteps, endModelBuild } from './model-changes.ts';
import { ModelStore } from './model-store.ts';
import type { PackedModels } from './model-tables.ts';
import { updateAggregates } from './model-update.ts';
import { buildModels, deriveModels } from './models.ts';
import { purgeSteps } from './retention.ts';
import { SearchLog } from './search-log.ts';
import { removeDir, tempDir } from './test-support.ts';
import type { StoredEvent } from './validate.ts';

const START = Date.UTC(2025, 5, 15, 9);
const HOUR = 3_600_000;
const options: InsightsOptions = {
  ...defaultInsightsOptions,
  modelWindowDays: 3,
  trendingWindowDays: 1,
  retentionDays: 4,
  sessionGapMs: 45 * 60_000,
  boughtTogetherSpanMs: 6 * HOUR,
  maxEventsPerIndex: 40,
  maxEvents: 70,
};
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const USERS = ['u0', 'u1', 'u2', 'u3', 'u4'];
const ITEMS = ['p0', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7'];

const eventArbitrary = fc.record({
  index: fc.constantFrom<string | null>('shop', 'shop', 'other', null),
  kind: fc.constantFrom('view', 'view', 'click', 'purchase', 'addToCart', 'filter', 'instantsearch'),
  user: fc.constantFrom(...USERS),
  auth: fc.option(fc.constantFrom('a0', 'a1', 'u2'), { freq: 3 }),
  items: fc.uniqueArray(fc.constantFrom(...ITEMS), { minLength: 1, maxLength: 4 }),
  facet: fc.constantFrom('brand:Lumio', 'brand:Sitwell', 'color:red'),
  // Minutes before the clock: most recent, some days late, a few an hour ahead.
  minutesAgo: fc.oneof(fc.integer({ min: 0, max: 240 }), fc.integer({ min: 0, max: 6 * 24 * 60 }), fc.integer({ min: -60, max: 0 })),
});

const operation = fc.oneof(
  { weight: 6, arbitrary: fc.record({ op: fc.constant('write' as const), events: fc.array(eventArbitrary, { minLength: 1, maxLength: 12 }) }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('build' as const), chunk: fc.integer({ min: 1, max: 9 }) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('time' as const), hours: fc.integer({ min: 1, max: 30 }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('deleteUser' as const), user: fc.constantFrom(...USERS, 'a0', 'a1') }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('purge' as const) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('renumber' as const), user: fc.constantFrom(...USERS), item: fc.constantFrom(...ITEMS) }) },
);

type Generated = typeof eventArbitrary extends fc.Arbitrary<infer T> ? T : never;

function stored(event: Generated, now: number): StoredEvent {
  const type = event.kind === 'purchase' || event.kind === 'addToCart' ? 'conversion' : event.kind === 'filter' ? 'click' : event.kind;
  return {
    ts: now - event.minutesAgo * 60_000,
    index: event.index,
    type: type as StoredEvent['type'],
    subtype: event.kind === 'purchase' || event.kind === 'addToCart' ? event.kind : null,
    name: 'Event',
    userToken: event.user,
    authToken: event.auth,
    queryID: null,
    objectIDs: event.kind === 'filter' ? null : event.items,
    positions: null,
    filters: event.kind === 'filter' ? [event.facet] : null,
    objectData: null,
    value: null,
    currency: null,
  };
}

function groups(store: ModelStore): unknown[] {
  return store.db.prepare('SELECT day, index_name, user, state FROM user_days ORDER BY day, index_name, user').all();
}

/** A build as the model thread runs it, over the aggregates in `file`, in steps of `chunk` events. */
function incremental(db: InsightsDb, file: string, now: number, chunk: number): { packed: PackedModels; groups: unknown[] } {
  beginModelBuild(db, now, options);
  const store = new ModelStore(file);
  try {
    const report = updateAggregates(db, store, now, options, { chunk });
    const packed = deriveModels(store, now, options);
    endModelBuild(db, report.readTo);
    for (const _step of clearChangeSteps(db, report.changesTo));
    return { packed, groups: groups(store) };
  } finally {
    store.close();
  }
}

function fromScratch(db: InsightsDb, now: number): { packed: PackedModels; groups: unknown[] } {
  const store = new ModelStore(':memory:');
  try {
    const { packed, report } = buildModels(db, store, now, options, { full: true });
    expect(report.full).toBe(true);
    return { packed, groups: groups(store) };
  } finally {
    store.close();
  }
}

describe('incremental model builds', () => {
  it('equal builds from scratch, whatever the log and however the builds are cut', () => {
    fc.assert(
      fc.property(fc.array(operation, { minLength: 1, maxLength: 30 }), (operations) => {
        const dir = tempDir('vitrine-models-oracle-');
        dirs.push(dir);
        const db = openInsightsDb(dir);
        let now = START;
        const searchLog = new SearchLog(db, () => now, 1e9, 1e9, 0);
        const eventLog = new EventLog(db, searchLog, options);
        const file = join(dir, 'models.sqlite');
        let builds = 0;
        try {
          for (const operation of [...operations, { op: 'build' as const, chunk: 4 }]) {
            switch (operation.op) {
              case 'write':
                eventLog.commit([{ events: operation.events.map((event) => stored(event, now)), receivedAt: now }]);
                break;
              case 'build': {
                const built = incremental(db, file, now, operation.chunk);
                const scratch = fromScratch(db, now);
                expect(built.groups).toEqual(scratch.groups);
                expect(built.packed).toEqual(scratch.packed);
                // The changes the build took are gone; those of events it never read were not logged.
                expect(db.prepare('SELECT count(*) FROM model_changes').pluck().get()).toBe(0);
                builds++;
                break;
              }
              case 'time':
                now += operation.hours * HOUR;
                break;
              case 'deleteUser':
                eventLog.deleteUser(operation.user);
                break;
              case 'purge':
                for (const _step of purgeSteps(db, eventLog, now, options.retentionDays));
                break;
              case 'renumber': {
                // Another writer (an older Vitrine) numbers an event as SQLite does: the largest id plus one,
                // the id of the last event once that one was deleted.
                const last = db.prepare('SELECT max(id) FROM events').pluck().get() as number | null;
                if (last !== null) db.prepare('DELETE FROM events WHERE id = ?').run(last);
                db.prepare(`INSERT INTO events (ts, received_at, index_name, type, name, user_token, object_ids) VALUES (?, ?, 'shop', 'click', 'Event', ?, ?)`)
                  .run(now - HOUR, now, operation.user, JSON.stringify([operation.item]));
                break;
              }
            }
          }
        } finally {
          searchLog.close();
          db.close();
        }
        expect(builds).toBeGreaterThan(0);
      }),
      { numRuns: 150 },
    );
  });

  it('counts what a build from scratch counts when nothing changed, and reads nothing again', () => {
    const dir = tempDir('vitrine-models-oracle-');
    dirs.push(dir);
    const db = openInsightsDb(dir);
    const searchLog = new SearchLog(db, () => START, 1e9, 1e9, 0);
    const eventLog = new EventLog(db, searchLog, { maxEventsPerIndex: 1000, maxEvents: 1000 });
    const view = (user: string, item: string, minutesAgo: number): StoredEvent => stored({ index: 'shop', kind: 'view', user, auth: null, items: [item, 'p0'], facet: 'color:red', minutesAgo }, START);
    eventLog.commit([{ events: [view('u1', 'p1', 30), view('u1', 'p2', 20), view('u2', 'p1', 10)], receivedAt: START }]);
    const file = join(dir, 'models.sqlite');
    const first = incremental(db, file, START, 10);
    const store = new ModelStore(file);
    beginModelBuild(db, START, options);
    expect(updateAggregates(db, store, START, options)).toMatchObject({ full: false, eventsScanned: 0, readTo: 3 });
    expect(deriveModels(store, START, options)).toEqual(first.packed);
    expect(first.packed.eventsRead).toBe(3);
    store.close();
    searchLog.close();
    db.close();
  });
});
