/**
 * A/B tests: their definitions (the `abtests` table of the insights database, one JSON row per test, committed
 * with `synchronous = FULL` before the caller hears of it), the routing of searches to a variant, and the
 * report of a test (`ABTest`, the abtesting client's shape) from its figures (`tally.ts`) and the statistics
 * (`significance.ts`).
 *
 * The host validates requests (shapes, traffic, indices, overlaps) before it calls `add`, `stop` or `delete`;
 * this module keeps the state and answers searches. The status is computed: `stopped` once stopped, `expired`
 * once `endAt` passed, else `active`. Only active tests route searches, and an index can be in one active test.
 */
import type { ABTest, ABTestStatus, ABTestVariant, AddABTestsVariant, ListABTestsResponse } from '@vitrine/protocol';
import { rate } from '../analytics.ts';
import type { InsightsDb } from '../db.ts';
import { variantOf } from './assign.ts';
import { significance } from './significance.ts';
import { AbTestTally } from './tally.ts';
import type { VariantCounts } from './tally.ts';

/** A test as the host hands it to `add`, validated. */
export interface AbTestDefinition {
  name: string;
  /** Two variants: the first is the control (A). */
  variants: [AddABTestsVariant, AddABTestsVariant];
  /** RFC 3339. */
  endAt: string;
}

interface StoredTest extends AbTestDefinition {
  abTestID: number;
  createdAt: string;
  updatedAt: string;
  stoppedAt: string | null;
}

/** Where an A/B test sends a search: the variant, its index and its extra parameters. */
export interface AbTestRoute {
  abTestID: number;
  abTestVariantID: 1 | 2;
  index: string;
  customSearchParameters?: Record<string, unknown>;
}

export interface ListAbTestsQuery {
  offset: number;
  limit: number;
  indexPrefix?: string;
  indexSuffix?: string;
  /** Whether the caller may see a test whose first variant is this index (default: every test). */
  visible?: (index: string) => boolean;
}

export class AbTests {
  private readonly tests = new Map<number, StoredTest>();
  /** Active tests by the index searches name (their first variant's): rebuilt on every change. */
  private byIndex = new Map<string, StoredTest>();
  readonly tally: AbTestTally;

  constructor(
    private readonly db: InsightsDb,
    private readonly now: () => number,
    flushIntervalMs: number,
  ) {
    db.exec('CREATE TABLE IF NOT EXISTS abtests (id INTEGER PRIMARY KEY AUTOINCREMENT, definition TEXT NOT NULL)');
    for (const row of db.prepare('SELECT id, definition FROM abtests ORDER BY id').all() as Array<{ id: number; definition: string }>) {
      this.tests.set(row.id, { ...(JSON.parse(row.definition) as Omit<StoredTest, 'abTestID'>), abTestID: row.id });
    }
    this.tally = new AbTestTally(db, flushIntervalMs, (id) => this.tests.has(id));
    this.reindex();
  }

  status(abTestID: number): ABTestStatus | undefined {
    const test = this.tests.get(abTestID);
    return test && this.statusOf(test);
  }

  /** The first variant's index of a test (what the API's answers name). */
  indexOf(abTestID: number): string | undefined {
    return this.tests.get(abTestID)?.variants[0].index;
  }

  /** The id of the active test one of whose variants is `index`, if any. */
  activeOn(index: string): number | undefined {
    for (const test of this.tests.values()) {
      if (this.statusOf(test) === 'active' && test.variants.some((variant) => variant.index === index)) return test.abTestID;
    }
    return undefined;
  }

  /**
   * The variant a search of `index` goes to, for a searcher (a user token, else an address): undefined when no
   * active test has this index as its first variant. Called for every search: a map lookup and a hash.
   */
  route(index: string, searcher: string): AbTestRoute | undefined {
    const test = this.byIndex.get(index);
    if (!test || this.statusOf(test) !== 'active') return undefined;
    const id = variantOf(test.abTestID, searcher, test.variants[0].trafficPercentage);
    const variant = test.variants[id - 1];
    return { abTestID: test.abTestID, abTestVariantID: id, index: variant.index, ...(variant.customSearchParameters ? { customSearchParameters: variant.customSearchParameters } : {}) };
  }

  /** Creates a test; returns its id. */
  add(definition: AbTestDefinition): number {
    const at = new Date(this.now()).toISOString();
    const stored: Omit<StoredTest, 'abTestID'> = { ...definition, createdAt: at, updatedAt: at, stoppedAt: null };
    const id = Number(this.db.prepare('INSERT INTO abtests (definition) VALUES (?)').run(JSON.stringify(stored)).lastInsertRowid);
    this.tests.set(id, { ...stored, abTestID: id });
    this.reindex();
    return id;
  }

  /** Stops an active or expired test: it routes no more searches; its figures stay. */
  stop(abTestID: number): void {
    const test = this.tests.get(abTestID);
    if (!test) return;
    const at = new Date(this.now()).toISOString();
    const stopped: StoredTest = { ...test, stoppedAt: at, updatedAt: at };
    const { abTestID: _id, ...definition } = stopped;
    this.db.prepare('UPDATE abtests SET definition = ? WHERE id = ?').run(JSON.stringify(definition), abTestID);
    this.tests.set(abTestID, stopped);
    this.reindex();
  }

  /** Deletes a test and its figures, in one transaction. */
  delete(abTestID: number): void {
    this.tally.flush();
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM abtests WHERE id = ?').run(abTestID);
      this.tally.forget(abTestID);
    })();
    this.tests.delete(abTestID);
    this.reindex();
  }

  /** A test with its figures, as `getABTest` answers. */
  report(abTestID: number): ABTest | undefined {
    const test = this.tests.get(abTestID);
    return test && this.reportOf(test);
  }

  /** `listABTests`: tests in creation order, those with a variant's index starting and ending as asked. */
  list(query: ListAbTestsQuery): ListABTestsResponse {
    const matching = [...this.tests.values()].filter((test) =>
      (query.visible?.(test.variants[0].index) ?? true) &&
      test.variants.some((variant) => variant.index.startsWith(query.indexPrefix ?? '') && variant.index.endsWith(query.indexSuffix ?? '')),
    );
    const page = matching.slice(query.offset, query.offset + query.limit).map((test) => this.reportOf(test));
    return { abtests: page.length > 0 ? page : null, count: page.length, total: matching.length };
  }

  close(): void {
    this.tally.close();
  }

  private statusOf(test: StoredTest): ABTestStatus {
    if (test.stoppedAt !== null) return 'stopped';
    return Date.parse(test.endAt) <= this.now() ? 'expired' : 'active';
  }

  private reindex(): void {
    const byIndex = new Map<string, StoredTest>();
    for (const test of this.tests.values()) if (test.stoppedAt === null) byIndex.set(test.variants[0].index, test);
    this.byIndex = byIndex;
  }

  private reportOf(test: StoredTest): ABTest {
    const figures = this.tally.read(test.abTestID);
    const counts = [figures.get(1), figures.get(2)];
    const outcome = (pick: (c: VariantCounts) => number) =>
      counts.map((c) => ({ successes: c ? pick(c) : 0, trials: c?.tracked ?? 0 })) as [{ successes: number; trials: number }, { successes: number; trials: number }];
    const variants = test.variants.map((variant, i) => variantReport(variant, counts[i]));
    return {
      abTestID: test.abTestID,
      name: test.name,
      status: this.statusOf(test),
      createdAt: test.createdAt,
      updatedAt: test.updatedAt,
      endAt: test.endAt,
      stoppedAt: test.stoppedAt,
      clickSignificance: significance(...outcome((c) => c.clicked)),
      conversionSignificance: significance(...outcome((c) => c.converted)),
      addToCartSignificance: significance(...outcome((c) => c.carted)),
      purchaseSignificance: significance(...outcome((c) => c.purchased)),
      variants,
    };
  }
}

function variantReport(variant: AddABTestsVariant, c: VariantCounts | undefined): ABTestVariant {
  const tracked = c?.tracked ?? 0;
  return {
    index: variant.index,
    trafficPercentage: variant.trafficPercentage,
    ...(variant.description !== undefined ? { description: variant.description } : {}),
    ...(variant.customSearchParameters ? { customSearchParameters: variant.customSearchParameters } : {}),
    searchCount: c?.searches ?? 0,
    trackedSearchCount: tracked,
    userCount: c?.users ?? 0,
    trackedUserCount: c?.trackedUsers ?? 0,
    noResultCount: c?.noResults ?? 0,
    clickCount: c?.clicks ?? 0,
    conversionCount: c?.conversions ?? 0,
    addToCartCount: c?.carts ?? 0,
    purchaseCount: c?.purchases ?? 0,
    clickThroughRate: rate(c?.clicked ?? 0, tracked),
    conversionRate: rate(c?.converted ?? 0, tracked),
    addToCartRate: rate(c?.carted ?? 0, tracked),
    purchaseRate: rate(c?.purchased ?? 0, tracked),
    averageClickPosition: rate(c?.positionSum ?? 0, c?.positioned ?? 0),
    currencies: Object.fromEntries(Object.entries(c?.revenue ?? {}).map(([currency, revenue]) => [currency, { currency, revenue: Math.round(revenue * 100) / 100 }])),
  };
}
