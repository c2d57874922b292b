/**
 * Caps on the events `POST /1/events` accepts, per minute (fixed windows): per client IP, per API key (a secured
 * key counts as its parent: anyone holding the public search key can mint secured keys) and per `userToken`.
 * Events are what a storefront's shoppers send with the public key, so without caps one script filled the disk
 * (1.27 million events in 50 s, 3.9 GB). The defaults (`ServerLimits`) are far above a busy shop's traffic; the
 * storage budget of insights (`maxEventsPerIndex`, `maxEvents`) bounds what a flood under the caps can store.
 *
 * A batch is admitted whole or refused whole (429 with Algolia's body, nothing stored, nothing counted), as the
 * Insights API takes a batch. The IP and key budgets are checked again before the body is read, so a caller past
 * them costs no parsing. The admin key is not limited (the operator's own imports and back-office sends).
 * Memory is bounded: each table keeps at most `MAX_ENTRIES` windows (user tokens are the caller's choice).
 */
import type { ServerLimits } from '../config.ts';
import { createError } from '../errors.ts';
import type { AuthContext } from './authenticate.ts';
import { WindowCounter } from './rate-limit.ts';

const MINUTE_MS = 60_000;
const MAX_ENTRIES = 100_000;

type Limits = Pick<ServerLimits, 'maxEventsPerIPPerMinute' | 'maxEventsPerKeyPerMinute' | 'maxEventsPerUserTokenPerMinute'>;

interface Budget {
  max: number;
  counter: WindowCounter;
  /** What the budget is of, in the refusal's message. */
  per: string;
}

export class EventLimits {
  private readonly ip: Budget;
  private readonly key: Budget;
  private readonly user: Budget;

  constructor(limits: Limits) {
    const budget = (max: number, per: string): Budget => ({ max, per, counter: new WindowCounter(MINUTE_MS, MAX_ENTRIES) });
    this.ip = budget(limits.maxEventsPerIPPerMinute, 'IP address');
    this.key = budget(limits.maxEventsPerKeyPerMinute, 'API key');
    this.user = budget(limits.maxEventsPerUserTokenPerMinute, 'userToken');
  }

  /** Before the body is read: refuses a caller whose IP or key has no event left this minute. */
  checkCaller(auth: AuthContext, ip: string, now = Date.now()): void {
    if (auth.kind === 'admin') return;
    this.require(this.ip, ip, 1, now);
    this.require(this.key, auth.limitKey, 1, now);
  }

  /** A valid batch: counted if it fits every budget, else a 429 naming the first it does not fit (nothing counted). */
  admit(auth: AuthContext, ip: string, events: ReadonlyArray<{ userToken: string }>, now = Date.now()): void {
    if (auth.kind === 'admin') return;
    this.require(this.ip, ip, events.length, now);
    this.require(this.key, auth.limitKey, events.length, now);
    const perUser = new Map<string, number>();
    for (const event of events) perUser.set(event.userToken, (perUser.get(event.userToken) ?? 0) + 1);
    for (const [userToken, count] of perUser) this.require(this.user, userToken, count, now);
    this.spend(this.ip, ip, events.length, now);
    this.spend(this.key, auth.limitKey, events.length, now);
    for (const [userToken, count] of perUser) this.spend(this.user, userToken, count, now);
  }

  private require(budget: Budget, who: string, count: number, now: number): void {
    if (budget.max > 0 && budget.counter.peek(who, now) + count > budget.max) throw createError('TOO_MANY_EVENTS', budget.max, budget.per);
  }

  private spend(budget: Budget, who: string, count: number, now: number): void {
    if (budget.max > 0) budget.counter.hit(who, now, count);
  }
}
