/**
 * Indexing gives way to searches: while searches are being answered, each apply loop (the main thread's, each
 * search thread's) rests between its slices so that it works at most `ServerLimits.indexingShareWhileSearching`
 * of the time. During a catalogue import the server is CPU-bound (both copies of the index being written): a
 * shopper's search does its few milliseconds of work and then waits for a core. Applying a fifth of the time
 * keeps its p99 under 50 ms, for an import two to three times as long (docs/PERFORMANCE.md, import through the
 * console). With no search in the last second, applies run flat out.
 *
 * Rejected: thread priorities (the main thread both applies and answers HTTP; a search thread both applies and
 * searches), finer slices alone (the waiting was for the CPU, not behind one long slice).
 */

/** Searches answered within this long ago make the loops rest. */
export const SEARCHES_RECENT_MS = 1000;
/** The longest rest after one slice (a slice that overran does not stop indexing for long). */
const MAX_REST_MS = 100;

/** When a search was last answered here (or asked of this thread). */
export class SearchActivity {
  private lastAt = Number.NEGATIVE_INFINITY;

  noted(): void {
    this.lastAt = performance.now();
  }

  get recent(): boolean {
    return performance.now() - this.lastAt < SEARCHES_RECENT_MS;
  }
}

/** How long to rest after working `workedMs` to work at most `share` (0 < share ≤ 1) of the time. */
export function restAfter(workedMs: number, share: number): number {
  if (!(share > 0) || share >= 1 || !(workedMs > 0)) return 0;
  return Math.min(MAX_REST_MS, (workedMs * (1 - share)) / share);
}
