/**
 * Fixed-window counters (per client IP, per key and IP…), bounded in memory: when the table is full, windows
 * that ended are dropped first, then the oldest entries. A bound matters because the keys are caller-chosen.
 */
export class WindowCounter {
  private readonly counts = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly windowMs: number,
    private readonly maxEntries = 100_000,
  ) {}

  /** Current count of `key` in its window (0 when none). */
  peek(key: string, now = Date.now()): number {
    const entry = this.counts.get(key);
    return entry && now - entry.start < this.windowMs ? entry.count : 0;
  }

  /** Adds one and returns the new count in the current window. */
  hit(key: string, now = Date.now()): number {
    let entry = this.counts.get(key);
    if (!entry || now - entry.start >= this.windowMs) {
      if (!entry && this.counts.size >= this.maxEntries) this.evict(now);
      entry = { start: now, count: 0 };
      this.counts.set(key, entry);
    }
    entry.count++;
    return entry.count;
  }

  private evict(now: number): void {
    for (const [key, entry] of this.counts) if (now - entry.start >= this.windowMs) this.counts.delete(key);
    // Maps iterate in insertion order: the first keys are the oldest windows.
    for (const key of this.counts.keys()) {
      if (this.counts.size < this.maxEntries) break;
      this.counts.delete(key);
    }
  }
}
