/**
 * Rate limits: fixed-window counters, recent sightings and the failed-authentication budget built on them. Every
 * table is bounded in memory, because its keys (client IPs, presented keys) are caller-chosen.
 */

/**
 * Fixed-window counters (per client IP, per key and IP…): when the table is full, windows that ended are dropped
 * first, then the oldest entries.
 */
export class WindowCounter {
  private readonly counts = new Map<string, Window>();
  /**
   * Windows in the order they started, from `head` on (stale ones, whose key started another since, skipped):
   * the oldest is found without walking the table, whose keys (user tokens) are all new under a flood.
   */
  private order: Window[] = [];
  private head = 0;

  constructor(
    private readonly windowMs: number,
    private readonly maxEntries = 100_000,
  ) {}

  /** Current count of `key` in its window (0 when none). */
  peek(key: string, now = Date.now()): number {
    const entry = this.counts.get(key);
    return entry && now - entry.start < this.windowMs ? entry.count : 0;
  }

  /** Adds `amount` (one by default) and returns the new count in the current window. */
  hit(key: string, now = Date.now(), amount = 1): number {
    let entry = this.counts.get(key);
    if (!entry || now - entry.start >= this.windowMs) {
      if (!entry && this.counts.size >= this.maxEntries) this.evict(now);
      entry = { key, start: now, count: 0 };
      this.counts.set(key, entry);
      this.order.push(entry);
      if (this.order.length - this.head > 2 * this.maxEntries) this.compact();
    }
    entry.count += amount;
    return entry.count;
  }

  /** Windows that ended go, then the oldest until there is room. */
  private evict(now: number): void {
    while (this.head < this.order.length) {
      const oldest = this.order[this.head];
      if (this.counts.get(oldest.key) === oldest) {
        if (this.counts.size < this.maxEntries && now - oldest.start < this.windowMs) break;
        this.counts.delete(oldest.key);
      }
      this.head++;
    }
    if (this.head > this.order.length / 2) this.compact();
  }

  /** Drops the queue's stale entries: at most once per `maxEntries` windows started or dropped. */
  private compact(): void {
    this.order = this.order.slice(this.head).filter((window) => this.counts.get(window.key) === window);
    this.head = 0;
  }
}

interface Window {
  key: string;
  start: number;
  count: number;
}

/**
 * Keys seen within the last `windowMs` (a sliding window: each sighting renews it), bounded in memory: past
 * `maxEntries` the least recently seen go first, so a key in constant use is never the one dropped.
 */
export class RecentSet {
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly windowMs: number,
    private readonly maxEntries = 100_000,
  ) {}

  has(key: string, now = Date.now()): boolean {
    const last = this.seen.get(key);
    return last !== undefined && now - last < this.windowMs;
  }

  touch(key: string, now = Date.now()): void {
    // Renewed at most once per 1/60 of the window: a key seen on every request costs one lookup, not a move.
    const last = this.seen.get(key);
    if (last !== undefined && now - last < this.windowMs / 60) return;
    // Deleted and set again: Maps iterate in insertion order, so the first keys are the least recently seen.
    this.seen.delete(key);
    if (this.seen.size >= this.maxEntries) this.seen.delete(this.seen.keys().next().value!);
    this.seen.set(key, now);
  }
}

/**
 * The failed-authentication budget of client IPs (`maxFailedAuthPerIPPerHour`, fixed windows). Past it, an IP's
 * keys are refused before any check (no HMAC of secured-key verification), except the keys that authenticated
 * from that IP within the last window: they keep working, so one client spending the budget (behind a proxy,
 * the whole shop shares an address) does not lock out the keys in use. A guesser gains nothing from that: a key
 * it never had accepted is refused past the budget whether valid or not, so guesses stay bounded per IP.
 * A key refused again from the same IP counts once (a stale client retrying an old key learns nothing new),
 * unless refusing it took an HMAC verification, which always counts.
 */
export class FailedAuthBudget {
  private readonly failures: WindowCounter;
  private readonly refusedKeys: WindowCounter;
  private readonly acceptedKeys: RecentSet;

  constructor(
    private readonly maxFailures: number,
    windowMs: number,
  ) {
    this.failures = new WindowCounter(windowMs);
    this.refusedKeys = new WindowCounter(windowMs);
    this.acceptedKeys = new RecentSet(windowMs);
  }

  /** Whether `keyHash` may be checked from `ip`. */
  allows(ip: string, keyHash: string, now = Date.now()): boolean {
    return this.failures.peek(ip, now) < this.maxFailures || this.acceptedKeys.has(`${ip}|${keyHash}`, now);
  }

  accepted(ip: string, keyHash: string, now = Date.now()): void {
    this.acceptedKeys.touch(`${ip}|${keyHash}`, now);
  }

  /** `verified`: refusing the key took a secured-key verification (HMACs). */
  refused(ip: string, keyHash: string, verified: boolean, now = Date.now()): void {
    if (this.refusedKeys.hit(`${ip}|${keyHash}`, now) === 1 || verified) this.failures.hit(ip, now);
  }
}
