/**
 * The event log: validated batches are committed (`event-intake.ts` brings them, several together when they
 * are small: they share one fsync), and only then is `200 OK` sent. In the same transaction, each event carrying a queryID (on the event or per object in `objectData`) is
 * attributed to its tracked search: the search's day/query/tags rollups get the click, position, conversion,
 * add-to-cart, purchase and revenue counts, and the search's `flags` make it count once in each rate.
 *
 * Storage is bounded: past `maxEventsPerIndex` events of one index, or `maxEvents` in all, the commit that went
 * past drops as many of the oldest (first received) in the same transaction, so the count never stays above
 * the budget and a flood costs a bounded file. Freed pages are reused by the next events (and given back to the
 * file system by the purge, `retention.ts`).
 *
 * Ids are never given twice: each event takes the next of a counter kept in `meta` (`events_next_id`), not
 * SQLite's largest id plus one, which gives a deleted last event's id to the next one. The model builds read
 * the events past the last id they read (`model-update.ts`), so an id given again would never be counted.
 */
import type { InsightsDb } from './db.ts';
import type { SearchLog } from './search-log.ts';
import type { StoredEvent } from './validate.ts';
import { BUMP_SHOWN_CLICK, countedPosition } from './reranking/impressions.ts';

const CLICKED = 1;
const CONVERTED = 2;
const CARTED = 4;
const PURCHASED = 8;

/** Click position buckets of the analytics: 1 to 10 one by one, then 11–20, then 21 and beyond. */
export function positionBucket(position: number): number {
  if (position <= 10) return position;
  return position <= 20 ? 11 : 21;
}

interface TrackedSearch {
  index_name: string;
  day: number;
  tags: string;
  query: string;
  flags: number;
}

export interface EventBudget {
  maxEventsPerIndex: number;
  maxEvents: number;
}

export class EventLog {
  /** Events stored, all indices together (kept here: summing `event_counts` would read a row per index name). */
  private total: number;
  private readonly countOf;
  private readonly dropOldestOf;
  private readonly dropOldestUnindexed;
  private readonly dropOldest;
  private readonly insert;
  private readonly firstFreeId;
  private readonly saveNextId;
  /** Attributes events further, in the same transaction (A/B tests' variants: `abtests/tally.ts`). */
  attribution?: { flush(): void; attribute(event: StoredEvent): void };
  /** The next event's id (see the file's comment). */
  private nextId: number;
  private readonly findTracked;
  private readonly setFlags;
  private readonly bumpQuery;
  private readonly bumpPosition;
  private readonly bumpRevenue;
  private readonly bumpHit;
  private readonly bumpHitQuery;
  private readonly bumpHitRevenue;
  private readonly bumpShownClick;

  constructor(
    private readonly db: InsightsDb,
    private readonly searchLog: SearchLog,
    private readonly budget: EventBudget,
  ) {
    this.total = (db.prepare('SELECT coalesce(SUM(n), 0) AS n FROM event_counts').get() as { n: number }).n;
    this.countOf = db.prepare('SELECT n FROM event_counts WHERE index_name = ?').pluck();
    // In id order through `events_index` (whose entries are ordered by index name, then id).
    this.dropOldestOf = db.prepare('DELETE FROM events WHERE index_name = ? ORDER BY id LIMIT ?');
    this.dropOldestUnindexed = db.prepare('DELETE FROM events WHERE index_name IS NULL ORDER BY id LIMIT ?');
    this.dropOldest = db.prepare('DELETE FROM events ORDER BY id LIMIT ?');
    this.insert = db.prepare(`INSERT INTO events (id, ts, received_at, index_name, type, subtype, name, user_token, auth_token, query_id, object_ids, positions, filters, object_data, value, currency)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    // The counter as a model build may have raised it (`model-changes.ts`), and past ids other writers gave.
    this.firstFreeId = db.prepare("SELECT max(coalesce((SELECT max(id) FROM events), 0) + 1, coalesce((SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'events_next_id'), 1))").pluck();
    this.saveNextId = db.prepare("INSERT INTO meta (key, value) VALUES ('events_next_id', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value");
    this.nextId = 1;
    this.findTracked = db.prepare('SELECT index_name, day, tags, query, flags FROM tracked WHERE query_id = ?');
    this.setFlags = db.prepare('UPDATE tracked SET flags = ? WHERE query_id = ?');
    this.bumpQuery = db.prepare(`
      INSERT INTO query_daily (index_name, day, tags, query, clicked, clicks, position_sum, positioned, converted, conversions, carted, carts, purchased, purchases)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (index_name, day, tags, query) DO UPDATE SET
        clicked = clicked + excluded.clicked, clicks = clicks + excluded.clicks,
        position_sum = position_sum + excluded.position_sum, positioned = positioned + excluded.positioned,
        converted = converted + excluded.converted, conversions = conversions + excluded.conversions,
        carted = carted + excluded.carted, carts = carts + excluded.carts,
        purchased = purchased + excluded.purchased, purchases = purchases + excluded.purchases`);
    this.bumpPosition = db.prepare(`INSERT INTO position_daily (index_name, day, tags, query, bucket, clicks) VALUES (?, ?, ?, ?, ?, 1)
      ON CONFLICT (index_name, day, tags, query, bucket) DO UPDATE SET clicks = clicks + 1`);
    this.bumpRevenue = db.prepare(`INSERT INTO revenue_daily (index_name, day, tags, query, currency, revenue) VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT (index_name, day, tags, query, currency) DO UPDATE SET revenue = revenue + excluded.revenue`);
    const hitUpdate = 'clicks = clicks + excluded.clicks, conversions = conversions + excluded.conversions, carts = carts + excluded.carts, purchases = purchases + excluded.purchases';
    this.bumpHit = db.prepare(`INSERT INTO hit_daily (index_name, day, tags, object_id, clicks, conversions, carts, purchases) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (index_name, day, tags, object_id) DO UPDATE SET ${hitUpdate}`);
    this.bumpHitQuery = db.prepare(`INSERT INTO hit_query_daily (index_name, day, tags, query, object_id, clicks, conversions, carts, purchases) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (index_name, day, tags, query, object_id) DO UPDATE SET ${hitUpdate}`);
    this.bumpShownClick = db.prepare(BUMP_SHOWN_CLICK);
    this.bumpHitRevenue = db.prepare(`INSERT INTO hit_revenue_daily (index_name, day, tags, query, object_id, currency, revenue) VALUES (?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (index_name, day, tags, query, object_id, currency) DO UPDATE SET revenue = revenue + excluded.revenue`);
  }

  /** Writes batches in one transaction (fsync'ed when it returns); throws when nothing was written. */
  commit(batches: ReadonlyArray<{ events: readonly StoredEvent[]; receivedAt: number }>): void {
    const events = batches.flatMap((batch) => batch.events);
    this.total += this.db.transaction(() => {
      // Tracked searches still in memory must exist before their clicks are attributed to them (and a search
      // an event names is final: the shopper stopped typing there).
      this.searchLog.writeTracked(queryIDsOf(events));
      this.attribution?.flush();
      this.nextId = Math.max(this.nextId, this.firstFreeId.get() as number);
      for (const batch of batches) for (const event of batch.events) this.store(event, batch.receivedAt);
      this.saveNextId.run(String(this.nextId));
      return events.length - this.trim(events);
    })();
  }

  /** Events stored, all indices together. */
  get stored(): number {
    return this.total;
  }

  /**
   * Drops the oldest events of each index the batch went past its budget, then the oldest of all past the
   * total; returns how many (inside the batch's transaction, whose total does not count the batch yet).
   */
  private trim(events: readonly StoredEvent[]): number {
    let dropped = 0;
    for (const index of new Set(events.map((event) => event.index ?? ''))) {
      const over = ((this.countOf.get(index) as number | undefined) ?? 0) - this.budget.maxEventsPerIndex;
      if (over <= 0) continue;
      dropped += (index === '' ? this.dropOldestUnindexed.run(over) : this.dropOldestOf.run(index, over)).changes;
    }
    const over = this.total + events.length - dropped - this.budget.maxEvents;
    if (over > 0) dropped += this.dropOldest.run(over).changes;
    return dropped;
  }

  private store(event: StoredEvent, receivedAt: number): void {
    const json = (value: unknown) => (value === null ? null : JSON.stringify(value));
    this.insert.run(this.nextId++, event.ts, receivedAt, event.index, event.type, event.subtype, event.name, event.userToken, event.authToken, event.queryID,
      json(event.objectIDs), json(event.positions), json(event.filters), json(event.objectData), event.value, event.currency);
    this.attribute(event);
    this.attribution?.attribute(event);
  }

  private attribute(event: StoredEvent): void {
    if (!event.objectIDs || (event.type !== 'click' && event.type !== 'conversion')) return;
    // Objects of one event may come from different searches (objectData[i].queryID).
    const groups = new Map<string, number[]>();
    event.objectIDs.forEach((_id, i) => {
      const queryID = event.objectData?.[i]?.queryID ?? event.queryID;
      if (!queryID) return;
      const list = groups.get(queryID) ?? [];
      list.push(i);
      groups.set(queryID, list);
    });
    for (const [queryID, indices] of groups) {
      const search = this.findTracked.get(queryID) as TrackedSearch | undefined;
      if (!search) continue;
      this.attributeTo(queryID, search, event, indices, groups.size === 1);
    }
  }

  private attributeTo(queryID: string, search: TrackedSearch, event: StoredEvent, indices: number[], onlyGroup: boolean): void {
    const key = [search.index_name, search.day, search.tags, search.query] as const;
    let flags = search.flags;
    const first = (flag: number): number => {
      if (flags & flag) return 0;
      flags |= flag;
      return 1;
    };
    const objectIDs = indices.map((i) => event.objectIDs![i]);
    if (event.type === 'click') {
      const positions = indices.map((i) => event.positions?.[i]).filter((p): p is number => p !== undefined);
      const positionSum = positions.reduce((sum, p) => sum + p, 0);
      this.bumpQuery.run(...key, first(CLICKED), indices.length, positionSum, positions.length, 0, 0, 0, 0, 0, 0);
      for (const p of positions) this.bumpPosition.run(...key, positionBucket(p));
      for (const i of indices) if (countedPosition(event.positions?.[i])) this.bumpShownClick.run(search.index_name, search.day, search.query, event.objectIDs![i], event.positions![i]);
      for (const id of objectIDs) {
        this.bumpHit.run(search.index_name, search.day, search.tags, id, 1, 0, 0, 0);
        this.bumpHitQuery.run(...key, id, 1, 0, 0, 0);
      }
    } else {
      const cart = event.subtype === 'addToCart' ? 1 : 0;
      const purchase = event.subtype === 'purchase' ? 1 : 0;
      this.bumpQuery.run(...key, 0, 0, 0, 0, first(CONVERTED), 1, cart ? first(CARTED) : 0, cart, purchase ? first(PURCHASED) : 0, purchase);
      for (const id of objectIDs) {
        this.bumpHit.run(search.index_name, search.day, search.tags, id, 0, 1, cart, purchase);
        this.bumpHitQuery.run(...key, id, 0, 1, cart, purchase);
      }
      if (purchase && event.currency) this.attributeRevenue(key, event, indices, onlyGroup);
    }
    if (flags !== search.flags) {
      this.setFlags.run(flags, queryID);
      search.flags = flags;
    }
  }

  /** Revenue of the objects bought after this search: price × quantity each, or the event's value when no prices are given. */
  private attributeRevenue(key: readonly [string, number, string, string], event: StoredEvent, indices: number[], onlyGroup: boolean): void {
    const currency = event.currency!;
    let total = 0;
    let priced = false;
    for (const i of indices) {
      const data = event.objectData?.[i];
      if (data?.price === undefined) continue;
      priced = true;
      const amount = data.price * (data.quantity ?? 1);
      total += amount;
      this.bumpHitRevenue.run(...key, event.objectIDs![i], currency, amount);
    }
    if (!priced && event.value !== null && onlyGroup) total = event.value;
    if (total !== 0) this.bumpRevenue.run(...key, currency, total);
  }

  /**
   * Committed events in arrival order, back in the Insights API's shape (for operators and tests; Algolia has no
   * public route for reading raw events, so neither do we).
   */
  list(options: { limit?: number; afterId?: number } = {}): RecordedEvent[] {
    const rows = this.db
      .prepare('SELECT * FROM events WHERE id > ? ORDER BY id LIMIT ?')
      .all(options.afterId ?? 0, options.limit ?? 1000) as EventRow[];
    return rows.map((row) => ({ id: row.id, receivedAt: row.received_at, event: eventFromRow(row) }));
  }

  /** `DELETE /1/usertokens/{userToken}`: forgets the user's events (the models drop them at their next rebuild). */
  deleteUser(userToken: string): number {
    const deleted = this.db.prepare('DELETE FROM events WHERE user_token = ? OR auth_token = ?').run(userToken, userToken).changes;
    this.total -= deleted;
    return deleted;
  }

  /** Retention: deletes at most `limit` events older than `ts` (through `events_ts`); returns how many. */
  deleteBefore(ts: number, limit: number): number {
    const deleted = this.db.prepare('DELETE FROM events WHERE ts < ? LIMIT ?').run(ts, limit).changes;
    this.total -= deleted;
    return deleted;
  }
}

interface EventRow {
  id: number;
  ts: number;
  received_at: number;
  index_name: string | null;
  type: string;
  subtype: string | null;
  name: string;
  user_token: string;
  auth_token: string | null;
  query_id: string | null;
  object_ids: string | null;
  positions: string | null;
  filters: string | null;
  object_data: string | null;
  value: number | null;
  currency: string | null;
}

/** One stored event as the Insights API carries it. */
export interface RecordedEvent {
  id: number;
  /** Milliseconds since the epoch, when the server accepted it. */
  receivedAt: number;
  event: Record<string, unknown>;
}

function eventFromRow(row: EventRow): Record<string, unknown> {
  const event: Record<string, unknown> = { eventType: row.type, eventName: row.name, userToken: row.user_token, timestamp: row.ts };
  const optional: Array<[string, unknown]> = [
    ['index', row.index_name],
    ['eventSubtype', row.subtype],
    ['authenticatedUserToken', row.auth_token],
    ['queryID', row.query_id],
    ['objectIDs', row.object_ids && JSON.parse(row.object_ids)],
    ['positions', row.positions && JSON.parse(row.positions)],
    ['filters', row.filters && JSON.parse(row.filters)],
    ['objectData', row.object_data && JSON.parse(row.object_data)],
    ['value', row.value],
    ['currency', row.currency],
  ];
  for (const [key, value] of optional) if (value !== null && value !== undefined) event[key] = value;
  return event;
}

/** The queryIDs events name, on the event or per object. */
function queryIDsOf(events: StoredEvent[]): Set<string> {
  const ids = new Set<string>();
  for (const event of events) {
    if (event.queryID) ids.add(event.queryID);
    for (const data of event.objectData ?? []) if (data?.queryID) ids.add(data.queryID);
  }
  return ids;
}
