/** What the insights tests and benchmarks share (not part of the public API): temporary data folders, builds in process. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InsightsDb } from './db.ts';
import type { InsightsOptions } from './deps.ts';
import { beginModelBuild, endModelBuild } from './model-changes.ts';
import { ModelStore } from './model-store.ts';
import type { BuildBounds, BuildReport } from './models.ts';
import { buildModels } from './models.ts';
import type { PackedModels } from './model-tables.ts';

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

/**
 * A model build on this thread, as the model thread runs one (`model-changes.ts`'s protocol around it), over the
 * aggregates in `modelsFile` (created if missing).
 */
export function buildHere(db: InsightsDb, modelsFile: string, now: number, options: InsightsOptions, request: { full?: boolean; bounds?: BuildBounds } = {}): { packed: PackedModels; report: BuildReport } {
  beginModelBuild(db, now, options);
  const store = new ModelStore(modelsFile);
  try {
    const built = buildModels(db, store, now, options, request);
    endModelBuild(db, built.report.readTo);
    return built;
  } finally {
    store.close();
  }
}
