/**
 * Brings the models' aggregates (`model-store.ts`) up to date with the event log, reading only what changed
 * since the last build: the events past the last id read, and the changes the insights database logged
 * (`model_changes`: counted events deleted since, events numbered below what was read).
 *
 * In steps of at most `chunk` events and `chunk` changes, each one transaction of the aggregates holding its
 * changes and the new `readTo` / `changesTo`, over one read snapshot of the event log: a build killed at any
 * point has committed whole steps or nothing of one, and the next starts where the last committed step ended.
 * A step:
 *
 * 1. changes: the groups (index, day, user) of counted events deleted or numbered below `readTo` are marked to
 *    be folded again; changes of events never counted are nothing to undo (they are gone, or will be read);
 * 2. new events, by group: when every one comes after the group's last folded event, the fold goes on
 *    (`GroupFold.follows`); otherwise the group is marked too;
 * 3. marked groups are folded again from their events in the snapshot, up to the step's last id (one or two
 *    queries per user, through the user-token indices), and written, or deleted when no event is left.
 *
 * The first step drops the days that left the window, or starts from scratch when the aggregates cannot be
 * trusted to follow this log: none yet, another layout or fold, another event log (epoch), a window reaching
 * back before their first day, deletions possibly not logged (`models_from` past the window), or a `readTo` /
 * `changesTo` the log never reached (a file copied from elsewhere).
 *
 * From scratch, the events up to the last id are read in time order instead (`fill`, through `events_ts`), so
 * that every event continues its group's fold: read in id order, a log written out of time order (a bulk
 * import, clients sending late) made steps fold the same groups again and again (100,000 events stored newest
 * first: 400,000 rows read). The changes logged meanwhile wait until the fill is done, then are taken as above
 * (a group folded again for an event deleted before the fill reached it changes nothing). A build that finds
 * more new events than it counted so far (a bulk import) starts from scratch too (`mostlyNew`).
 */
import type { InsightsDb } from './db.ts';
import type { InsightsOptions } from './deps.ts';
import { DAY_MS } from './deps.ts';
import { dayOf } from './days.ts';
import { keptFromDay } from './model-changes.ts';
import type { FoldedEvent } from './model-groups.ts';
import { foldSettings, GroupFold } from './model-groups.ts';
import type { AggregatesState, ModelStore } from './model-store.ts';

export const DEFAULT_CHUNK = 10_000;

export interface UpdateReport {
  /** Whether the aggregates were rebuilt from scratch. */
  full: boolean;
  /** Event rows read: new ones and those of groups folded again. */
  eventsScanned: number;
  readTo: number;
  changesTo: number;
}

interface EventRow {
  id: number;
  ts: number;
  index_name: string | null;
  type: string;
  subtype: string | null;
  name: string;
  user_token: string;
  auth_token: string | null;
  object_ids: string | null;
  filters: string | null;
}

interface ChangeRow {
  seq: number;
  id: number;
  index_name: string;
  user: string;
  ts: number;
}

const folded = (row: Pick<EventRow, 'id' | 'ts' | 'type' | 'subtype' | 'name' | 'object_ids' | 'filters'>): FoldedEvent => ({
  id: row.id,
  ts: row.ts,
  type: row.type,
  subtype: row.subtype,
  name: row.name,
  objectIDs: row.object_ids === null ? null : (JSON.parse(row.object_ids) as string[]),
  filters: row.filters === null ? null : (JSON.parse(row.filters) as string[]),
});

const byTime = (a: FoldedEvent, b: FoldedEvent) => a.ts - b.ts || a.id - b.id;

/** Groups to fold again, by index and user (read together), then day. */
class Marked {
  readonly users = new Map<string, { indexName: string; user: string; days: Set<number> }>();

  add(indexName: string, user: string, day: number): void {
    const key = `${indexName}\u0000${user}`;
    let entry = this.users.get(key);
    if (!entry) this.users.set(key, (entry = { indexName, user, days: new Set() }));
    entry.days.add(day);
  }

  has(indexName: string, user: string, day: number): boolean {
    return this.users.get(`${indexName}\u0000${user}`)?.days.has(day) ?? false;
  }
}

class Updater {
  private readonly meta;
  private readonly lastId;
  private readonly lastChange;
  private readonly changes;
  private readonly newEvents;
  private readonly inTimeOrder;
  private readonly byAuth;
  private readonly byUser;
  readonly report: UpdateReport = { full: false, eventsScanned: 0, readTo: 0, changesTo: 0 };

  constructor(
    private readonly events: InsightsDb,
    private readonly store: ModelStore,
    private readonly options: InsightsOptions,
    private readonly fromDay: number,
    private readonly chunk: number,
  ) {
    this.meta = events.prepare("SELECT key, value FROM meta WHERE key IN ('models_epoch', 'models_from', 'models_read_to', 'events_next_id')");
    this.lastId = events.prepare('SELECT coalesce(max(id), 0) FROM events').pluck();
    this.lastChange = events.prepare('SELECT coalesce(max(seq), 0) FROM model_changes').pluck();
    this.changes = events.prepare('SELECT seq, id, index_name, user, ts FROM model_changes WHERE seq > ? ORDER BY seq LIMIT ?');
    this.newEvents = events.prepare('SELECT id, ts, index_name, type, subtype, name, user_token, auth_token, object_ids, filters FROM events WHERE id > ? ORDER BY id LIMIT ?');
    this.inTimeOrder = events.prepare(`SELECT id, ts, index_name, type, subtype, name, user_token, auth_token, object_ids, filters FROM events INDEXED BY events_ts
      WHERE ts >= ? AND NOT (ts = ? AND id <= ?) AND id <= ? ORDER BY ts, id LIMIT ?`);
    const columns = 'id, ts, type, subtype, name, object_ids, filters';
    const where = "index_name = ? AND ts >= ? AND ts < ? AND id <= ? AND type != 'instantsearch'";
    this.byAuth = events.prepare(`SELECT ${columns} FROM events INDEXED BY events_auth WHERE auth_token = ? AND ${where}`);
    this.byUser = events.prepare(`SELECT ${columns} FROM events INDEXED BY events_user WHERE user_token = ? AND auth_token IS NULL AND ${where}`);
  }

  /** One step, in its transactions; returns whether there is more to read. */
  step(first: boolean, full: boolean): boolean {
    return this.store.db.transaction(() => {
      this.events.exec('BEGIN');
      try {
        return this.stepIn(first, full);
      } finally {
        this.events.exec('COMMIT');
      }
    }).immediate();
  }

  private stepIn(first: boolean, full: boolean): boolean {
    let state = this.store.state();
    if (first) {
      const meta = new Map((this.meta.all() as Array<{ key: string; value: string }>).map((row) => [row.key, row.value]));
      const epoch = meta.get('models_epoch') ?? '';
      const nextId = Math.max(Number(meta.get('events_next_id') ?? 0), (this.lastId.get() as number) + 1);
      const lastChange = this.lastChange.get() as number;
      const from = meta.get('models_from');
      const trusted = state !== undefined && !full && epoch !== '' && state.epoch === epoch && state.fold === foldSettings(this.options) &&
        this.fromDay >= state.firstDay && from !== undefined && Number(from) <= this.fromDay * DAY_MS &&
        state.readTo < nextId && state.readTo <= Number(meta.get('models_read_to') ?? -1) && state.changesTo <= lastChange &&
        (state.fill !== '' || !this.mostlyNew(state.readTo));
      if (!trusted) {
        this.store.clear();
        const fill = JSON.stringify({ to: this.lastId.get() as number, ts: this.fromDay * DAY_MS, id: 0 });
        state = { epoch, fold: foldSettings(this.options), readTo: 0, changesTo: lastChange, firstDay: this.fromDay, fill };
        this.report.full = true;
      } else if (this.fromDay > state!.firstDay) {
        this.store.dropBefore(this.fromDay);
        state = { ...state!, firstDay: this.fromDay };
      }
    }
    const before: AggregatesState = state!;
    if (before.fill !== '') return this.fillStep(before);
    const changes = this.changes.all(before.changesTo, this.chunk) as ChangeRow[];
    const rows = this.newEvents.all(before.readTo, this.chunk) as EventRow[];
    this.report.eventsScanned += rows.length;
    const readTo = rows.length > 0 ? rows[rows.length - 1].id : before.readTo;
    const marked = new Marked();
    for (const change of changes) {
      const day = dayOf(change.ts);
      if (change.id <= before.readTo && day >= before.firstDay) marked.add(change.index_name, change.user, day);
    }
    this.foldNew(rows, before.firstDay, marked);
    this.foldAgain(marked, readTo);
    const after = { ...before, readTo, changesTo: changes.length > 0 ? changes[changes.length - 1].seq : before.changesTo };
    this.store.setState(after);
    this.report.readTo = after.readTo;
    this.report.changesTo = after.changesTo;
    return rows.length === this.chunk || changes.length === this.chunk;
  }

  /**
   * More events past `readTo` than up to it (and more than a step): a build from scratch reads no more, in time
   * order, where these events, if stored out of time order, would make many steps fold the same groups again.
   */
  private mostlyNew(readTo: number): boolean {
    const unread = (this.lastId.get() as number) - readTo;
    return unread > this.chunk && unread > readTo;
  }

  /** A step of a build from scratch: the next events up to `fill.to`, in time order, each continuing its group. */
  private fillStep(before: AggregatesState): boolean {
    const fill = JSON.parse(before.fill) as { to: number; ts: number; id: number };
    const rows = this.inTimeOrder.all(Math.max(fill.ts, before.firstDay * DAY_MS), fill.ts, fill.id, fill.to, this.chunk) as EventRow[];
    this.report.eventsScanned += rows.length;
    // Every group's events come in order: none is marked.
    this.foldNew(rows, before.firstDay, new Marked());
    const last = rows[rows.length - 1];
    const done = rows.length < this.chunk;
    const after = done ? { ...before, readTo: fill.to, fill: '' } : { ...before, fill: JSON.stringify({ to: fill.to, ts: last.ts, id: last.id }) };
    this.store.setState(after);
    this.report.readTo = after.readTo;
    this.report.changesTo = after.changesTo;
    return true;
  }

  private foldNew(rows: EventRow[], firstDay: number, marked: Marked): void {
    const groups = new Map<string, { day: number; indexName: string; user: string; events: FoldedEvent[] }>();
    for (const row of rows) {
      if (row.index_name === null || row.type === 'instantsearch') continue;
      const day = dayOf(row.ts);
      if (day < firstDay) continue;
      const user = row.auth_token ?? row.user_token;
      const key = `${day}\u0000${row.index_name}\u0000${user}`;
      let group = groups.get(key);
      if (!group) groups.set(key, (group = { day, indexName: row.index_name, user, events: [] }));
      group.events.push(folded(row));
    }
    for (const { day, indexName, user, events } of groups.values()) {
      if (marked.has(indexName, user, day)) continue;
      events.sort(byTime);
      const stored = this.store.group(day, indexName, user);
      const fold = stored === undefined ? GroupFold.empty(this.options) : GroupFold.of(stored, this.options);
      if (!fold.follows(events[0])) {
        marked.add(indexName, user, day);
        continue;
      }
      for (const event of events) fold.add(event);
      this.store.putGroupState(day, indexName, user, fold.encode());
    }
  }

  /** Folds the marked groups again from the events of the snapshot up to `readTo`. */
  private foldAgain(marked: Marked, readTo: number): void {
    for (const { indexName, user, days } of marked.users.values()) {
      const sorted = [...days].sort((a, b) => a - b);
      const params = [indexName, sorted[0] * DAY_MS, (sorted[sorted.length - 1] + 1) * DAY_MS, readTo];
      const rows = [...this.byAuth.all(user, ...params), ...this.byUser.all(user, ...params)] as EventRow[];
      this.report.eventsScanned += rows.length;
      const byDay = new Map<number, FoldedEvent[]>();
      for (const row of rows) {
        const day = dayOf(row.ts);
        if (!days.has(day)) continue;
        let list = byDay.get(day);
        if (!list) byDay.set(day, (list = []));
        list.push(folded(row));
      }
      for (const day of sorted) {
        const events = byDay.get(day);
        if (!events) {
          this.store.removeGroup(day, indexName, user);
          continue;
        }
        events.sort(byTime);
        const fold = GroupFold.empty(this.options);
        for (const event of events) fold.add(event);
        this.store.putGroupState(day, indexName, user, fold.encode());
      }
    }
  }
}

/**
 * Updates the aggregates to the event log as it is now (from scratch when `full`, or when they cannot be
 * trusted). The caller has run `beginModelBuild` on the insights database first (`model-changes.ts`).
 */
export function updateAggregates(events: InsightsDb, store: ModelStore, now: number, options: InsightsOptions, request: { full?: boolean; chunk?: number } = {}): UpdateReport {
  const updater = new Updater(events, store, options, keptFromDay(now, options), request.chunk ?? DEFAULT_CHUNK);
  for (let first = true; updater.step(first, request.full === true); first = false);
  return updater.report;
}
