/**
 * Each A/B test variant's figures, in tables of their own in the insights database:
 * - `abtest_counts`: per test and variant, searches (as the search log counts them: after query aggregation,
 *   `analytics: false` left out), searches without results, tracked searches, and the events attributed to them
 *   (clicks and the tracked searches clicked, click positions, conversions, add-to-carts, purchases, each as
 *   events and as tracked searches that got at least one, which is what a rate divides);
 * - `abtest_users`: who searched each variant (a digest of the user token or address), and whether with
 *   tracked searches;
 * - `abtest_tracked`: the tracked searches of a test by queryID, so that events find their variant (the search
 *   log's `tracked` table says nothing of variants, and the same index can be both);
 * - `abtest_revenue`: purchases' revenue per currency.
 *
 * Searches are summed in memory (`counted`) and written in one transaction every `flushIntervalMs` or before
 * anything reads or attributes (a search is no acknowledged write: a crash may lose the last second's, as the
 * search log). Events are attributed inside the event log's own transaction (`attribute`), so an acknowledged
 * event is counted exactly once.
 */
import { createHash } from 'node:crypto';
import type { SearchLogEntry } from '@vitrine/protocol';
import type { InsightsDb } from '../db.ts';
import { isQueryId, userOf } from '../search-batch.ts';
import type { StoredEvent } from '../validate.ts';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS abtest_counts (
  ab_test_id INTEGER NOT NULL, variant INTEGER NOT NULL,
  searches INTEGER NOT NULL DEFAULT 0, no_results INTEGER NOT NULL DEFAULT 0, tracked INTEGER NOT NULL DEFAULT 0,
  clicked INTEGER NOT NULL DEFAULT 0, clicks INTEGER NOT NULL DEFAULT 0,
  position_sum INTEGER NOT NULL DEFAULT 0, positioned INTEGER NOT NULL DEFAULT 0,
  converted INTEGER NOT NULL DEFAULT 0, conversions INTEGER NOT NULL DEFAULT 0,
  carted INTEGER NOT NULL DEFAULT 0, carts INTEGER NOT NULL DEFAULT 0,
  purchased INTEGER NOT NULL DEFAULT 0, purchases INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (ab_test_id, variant)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS abtest_users (
  ab_test_id INTEGER NOT NULL, variant INTEGER NOT NULL, user TEXT NOT NULL, tracked INTEGER NOT NULL,
  PRIMARY KEY (ab_test_id, variant, user)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS abtest_tracked (
  query_id TEXT PRIMARY KEY, ab_test_id INTEGER NOT NULL, variant INTEGER NOT NULL, flags INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS abtest_tracked_test ON abtest_tracked (ab_test_id);
CREATE TABLE IF NOT EXISTS abtest_revenue (
  ab_test_id INTEGER NOT NULL, variant INTEGER NOT NULL, currency TEXT NOT NULL, revenue REAL NOT NULL DEFAULT 0,
  PRIMARY KEY (ab_test_id, variant, currency)
) WITHOUT ROWID;
`;

/** Flags of a tracked search: which kinds of event it already got (it counts once in each rate). */
const CLICKED = 1;
const CONVERTED = 2;
const CARTED = 4;
const PURCHASED = 8;

/** Searches summed in memory past this many distinct users or tracked searches are written at once. */
const MAX_PENDING = 10_000;

export interface VariantCounts {
  searches: number;
  noResults: number;
  tracked: number;
  clicked: number;
  clicks: number;
  positionSum: number;
  positioned: number;
  converted: number;
  conversions: number;
  carted: number;
  carts: number;
  purchased: number;
  purchases: number;
  users: number;
  trackedUsers: number;
  revenue: Record<string, number>;
}

interface Pending {
  counts: Map<string, { searches: number; noResults: number; tracked: number }>;
  users: Map<string, boolean>;
  tracked: Array<[string, number, number]>;
}

const emptyPending = (): Pending => ({ counts: new Map(), users: new Map(), tracked: [] });
const key = (abTestID: number, variant: number) => `${abTestID}:${variant}`;

/** Users are kept as digests: telling them apart is all the counts need, and a table of addresses is not kept. */
function userDigest(user: string): string {
  return createHash('sha256').update(user).digest('base64url').slice(0, 16);
}

export class AbTestTally {
  private pending = emptyPending();
  private pendingSize = 0;
  private timer: NodeJS.Timeout | undefined;
  /** Whether any test ever had a tracked search: until then, events are not looked up. */
  private anyTracked: boolean;
  private readonly addCounts;
  private readonly addUser;
  private readonly addTracked;
  private readonly findTracked;
  private readonly setFlags;
  private readonly bump;
  private readonly bumpRevenue;

  constructor(
    private readonly db: InsightsDb,
    private readonly flushIntervalMs: number,
    /** Whether a test still exists (searches of a test deleted meanwhile are not written). */
    private readonly exists: (abTestID: number) => boolean,
  ) {
    db.exec(SCHEMA);
    this.anyTracked = db.prepare('SELECT 1 FROM abtest_tracked LIMIT 1').get() !== undefined;
    this.addCounts = db.prepare(`INSERT INTO abtest_counts (ab_test_id, variant, searches, no_results, tracked) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT (ab_test_id, variant) DO UPDATE SET searches = searches + excluded.searches,
        no_results = no_results + excluded.no_results, tracked = tracked + excluded.tracked`);
    this.addUser = db.prepare(`INSERT INTO abtest_users (ab_test_id, variant, user, tracked) VALUES (?, ?, ?, ?)
      ON CONFLICT (ab_test_id, variant, user) DO UPDATE SET tracked = max(tracked, excluded.tracked)`);
    this.addTracked = db.prepare('INSERT OR IGNORE INTO abtest_tracked (query_id, ab_test_id, variant) VALUES (?, ?, ?)');
    this.findTracked = db.prepare('SELECT ab_test_id, variant, flags FROM abtest_tracked WHERE query_id = ?');
    this.setFlags = db.prepare('UPDATE abtest_tracked SET flags = ? WHERE query_id = ?');
    this.bump = db.prepare(`INSERT INTO abtest_counts (ab_test_id, variant, clicked, clicks, position_sum, positioned, converted, conversions, carted, carts, purchased, purchases)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (ab_test_id, variant) DO UPDATE SET clicked = clicked + excluded.clicked, clicks = clicks + excluded.clicks,
        position_sum = position_sum + excluded.position_sum, positioned = positioned + excluded.positioned,
        converted = converted + excluded.converted, conversions = conversions + excluded.conversions,
        carted = carted + excluded.carted, carts = carts + excluded.carts,
        purchased = purchased + excluded.purchased, purchases = purchases + excluded.purchases`);
    this.bumpRevenue = db.prepare(`INSERT INTO abtest_revenue (ab_test_id, variant, currency, revenue) VALUES (?, ?, ?, ?)
      ON CONFLICT (ab_test_id, variant, currency) DO UPDATE SET revenue = revenue + excluded.revenue`);
  }

  /**
   * A search the search log counted (its sequence closed: `queryIDs` are every queryID the sequence's searches
   * had), when an A/B test routed it.
   */
  counted(entry: SearchLogEntry, queryIDs: readonly string[]): void {
    const test = entry.abTest;
    if (!test) return;
    const { abTestID, abTestVariantID: variant } = test;
    const k = key(abTestID, variant);
    const counts = this.pending.counts.get(k) ?? { searches: 0, noResults: 0, tracked: 0 };
    this.pending.counts.set(k, counts);
    counts.searches++;
    if (entry.nbHits === 0) counts.noResults++;
    const tracked = queryIDs.filter(isQueryId);
    if (tracked.length > 0) counts.tracked++;
    for (const queryID of tracked) this.pending.tracked.push([queryID, abTestID, variant]);
    const user = userOf(entry);
    if (user !== undefined) {
      const userKey = `${k}:${userDigest(user)}`;
      this.pending.users.set(userKey, (this.pending.users.get(userKey) ?? false) || tracked.length > 0);
    }
    if (++this.pendingSize >= MAX_PENDING) this.flush();
    else this.armTimer();
  }

  /** Writes the searches summed in memory (in the caller's transaction when there is one). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pendingSize === 0) return;
    const { counts, users, tracked } = this.pending;
    this.pending = emptyPending();
    this.pendingSize = 0;
    this.db.transaction(() => {
      for (const [k, c] of counts) {
        const [abTestID, variant] = k.split(':').map(Number);
        if (this.exists(abTestID)) this.addCounts.run(abTestID, variant, c.searches, c.noResults, c.tracked);
      }
      for (const [k, withTracked] of users) {
        const [abTestID, variant, user] = k.split(':');
        if (this.exists(Number(abTestID))) this.addUser.run(Number(abTestID), Number(variant), user, withTracked ? 1 : 0);
      }
      for (const row of tracked) if (this.exists(row[1])) this.addTracked.run(...row);
    })();
    if (tracked.length > 0) this.anyTracked = true;
  }

  /**
   * Attributes a committed event to the variant of the tracked search it names (per object: `objectData[i].queryID`
   * may name another search), inside the event log's transaction, after `flush()`.
   */
  attribute(event: StoredEvent): void {
    if (!this.anyTracked || !event.objectIDs || (event.type !== 'click' && event.type !== 'conversion')) return;
    const groups = new Map<string, number[]>();
    event.objectIDs.forEach((_id, i) => {
      const queryID = event.objectData?.[i]?.queryID ?? event.queryID;
      if (queryID) groups.set(queryID, [...(groups.get(queryID) ?? []), i]);
    });
    for (const [queryID, indices] of groups) {
      const search = this.findTracked.get(queryID) as { ab_test_id: number; variant: number; flags: number } | undefined;
      if (search) this.attributeTo(queryID, search, event, indices, groups.size === 1);
    }
  }

  private attributeTo(queryID: string, search: { ab_test_id: number; variant: number; flags: number }, event: StoredEvent, indices: number[], onlyGroup: boolean): void {
    let flags = search.flags;
    const first = (flag: number): number => {
      if (flags & flag) return 0;
      flags |= flag;
      return 1;
    };
    const test = [search.ab_test_id, search.variant] as const;
    if (event.type === 'click') {
      const positions = indices.map((i) => event.positions?.[i]).filter((p): p is number => p !== undefined);
      this.bump.run(...test, first(CLICKED), indices.length, positions.reduce((sum, p) => sum + p, 0), positions.length, 0, 0, 0, 0, 0, 0);
    } else {
      const cart = event.subtype === 'addToCart' ? 1 : 0;
      const purchase = event.subtype === 'purchase' ? 1 : 0;
      this.bump.run(...test, 0, 0, 0, 0, first(CONVERTED), 1, cart ? first(CARTED) : 0, cart, purchase ? first(PURCHASED) : 0, purchase);
      if (purchase && event.currency) {
        const priced = indices.filter((i) => event.objectData?.[i]?.price !== undefined);
        const revenue = priced.length > 0
          ? priced.reduce((sum, i) => sum + event.objectData![i]!.price! * (event.objectData![i]!.quantity ?? 1), 0)
          : onlyGroup ? (event.value ?? 0) : 0;
        if (revenue !== 0) this.bumpRevenue.run(...test, event.currency, revenue);
      }
    }
    if (flags !== search.flags) this.setFlags.run(flags, queryID);
  }

  /** A test's figures per variant (1 and 2), everything summed so far written first. */
  read(abTestID: number): Map<number, VariantCounts> {
    this.flush();
    const out = new Map<number, VariantCounts>();
    const of = (variant: number): VariantCounts => {
      let counts = out.get(variant);
      if (!counts) {
        counts = { searches: 0, noResults: 0, tracked: 0, clicked: 0, clicks: 0, positionSum: 0, positioned: 0, converted: 0, conversions: 0, carted: 0, carts: 0, purchased: 0, purchases: 0, users: 0, trackedUsers: 0, revenue: {} };
        out.set(variant, counts);
      }
      return counts;
    };
    for (const row of this.db.prepare('SELECT * FROM abtest_counts WHERE ab_test_id = ?').all(abTestID) as Array<Record<string, number>>) {
      Object.assign(of(row.variant), {
        searches: row.searches, noResults: row.no_results, tracked: row.tracked, clicked: row.clicked, clicks: row.clicks,
        positionSum: row.position_sum, positioned: row.positioned, converted: row.converted, conversions: row.conversions,
        carted: row.carted, carts: row.carts, purchased: row.purchased, purchases: row.purchases,
      });
    }
    const users = this.db.prepare('SELECT variant, COUNT(*) AS users, SUM(tracked) AS tracked FROM abtest_users WHERE ab_test_id = ? GROUP BY variant').all(abTestID) as Array<{ variant: number; users: number; tracked: number }>;
    for (const row of users) Object.assign(of(row.variant), { users: row.users, trackedUsers: row.tracked });
    const revenue = this.db.prepare('SELECT variant, currency, revenue FROM abtest_revenue WHERE ab_test_id = ?').all(abTestID) as Array<{ variant: number; currency: string; revenue: number }>;
    for (const row of revenue) of(row.variant).revenue[row.currency] = row.revenue;
    return out;
  }

  /** Forgets a deleted test's figures (in the caller's transaction). */
  forget(abTestID: number): void {
    for (const table of ['abtest_counts', 'abtest_users', 'abtest_tracked', 'abtest_revenue']) this.db.prepare(`DELETE FROM ${table} WHERE ab_test_id = ?`).run(abTestID);
  }

  close(): void {
    this.flush();
  }

  private armTimer(): void {
    if (this.timer || this.flushIntervalMs <= 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      // As the search log's rollups: committed without waiting for the disk (the next event commit flushes them).
      this.db.pragma('synchronous = NORMAL');
      try {
        this.flush();
      } finally {
        this.db.pragma('synchronous = FULL');
      }
    }, this.flushIntervalMs);
    this.timer.unref();
  }
}
