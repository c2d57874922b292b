/**
 * Rate limits: fixed-window counters and the failed-authentication budget built on them. Every
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
 * The failed-authentication budget of client IPs (`maxFailedAuthPerIPPerHour`, fixed windows). Only failures
 * are limited: a key that authenticates is accepted whatever its IP's count (behind a proxy the whole shop
 * shares an address, and a guesser spending the budget once locked out every key in use from it, and after a
 * restart every key: issue 49). Past the budget, until the window ends, the IP's failures answer 429 rather
 * than 403. A key refused again from the same IP counts once (a stale client retrying an old key learns
 * nothing new), unless refusing it took an HMAC verification, which always counts.
 */
export class FailedAuthBudget {
  private readonly failures: WindowCounter;
  private readonly refusedKeys: WindowCounter;

  constructor(
    private readonly maxFailures: number,
    windowMs: number,
  ) {
    this.failures = new WindowCounter(windowMs);
    this.refusedKeys = new WindowCounter(windowMs);
  }

  /**
   * Counts a refusal of `keyHash` from `ip`; whether the IP is still within its budget (the refusal is a 403,
   * else a 429). `verified`: refusing the key took a secured-key verification (HMACs).
   */
  refused(ip: string, keyHash: string, verified: boolean, now = Date.now()): boolean {
    const counts = this.refusedKeys.hit(`${ip}|${keyHash}`, now) === 1 || verified;
    return (counts ? this.failures.hit(ip, now) : this.failures.peek(ip, now)) <= this.maxFailures;
  }
}
