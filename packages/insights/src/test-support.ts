/** What the insights tests and benchmarks share (not part of the public API): temporary data folders. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function tempDir(prefix = 'vitrine-insights-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * The main thread's longest stall from now to `stop()`: the longest gap between turns of a 1 ms timer, including a
 * stall that lasts up to `stop()` itself (work done synchronously before it).
 */
export function watchStalls(): { stop(): number } {
  let longest = 0;
  let last = performance.now();
  const ticker = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  return {
    stop() {
      clearInterval(ticker);
      return Math.max(longest, performance.now() - last);
    },
  };
}
