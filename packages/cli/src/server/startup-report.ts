/**
 * How a server command's start went, phase by phase, printed once it is ready: an operator sees where a slow
 * restart spends its time, and `npm run bench:recovery` reads the same line. Times are counted from the command's
 * start: the launching process's when the server runs relaunched (`launch.ts` passes it on), so that they add up
 * to what a user waits.
 */
import type { RunningServer } from '@vitrine/server';

/** Set by the launcher in the relaunched server's environment: when the command started (ms since the epoch). */
export const STARTED_AT_ENV = 'VITRINE_STARTED_AT';

/** Milliseconds since the epoch at which the command started. */
export function commandStartedAt(env: Record<string, string | undefined>): number {
  const passed = Number(env[STARTED_AT_ENV]);
  return Number.isFinite(passed) && passed > 0 ? passed : performance.timeOrigin;
}

/** A clock of milliseconds since the command started. */
export function sinceStart(startedAt: number): () => number {
  return () => performance.timeOrigin + performance.now() - startedAt;
}

export interface StartupTimes {
  /** The server's modules loaded (the command's code starts running). */
  modulesMs: number;
  /** The socket listens: storefront renderer, API and insights set up. */
  listeningMs: number;
  /** The indexes loaded on the main thread. */
  loadedMs: number;
  /** `/1/isalive` answers 200. */
  readyMs: number;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** One line: `Ready in 7.9 s: modules 0.5 s, listening 0.9 s, indexes 4.1 s (…), search thread 7.8 s (…)`. */
export function formatStartup(times: StartupTimes, server: Pick<RunningServer, 'store' | 'app'>, startedAt: number): string {
  const parts = [`modules ${seconds(times.modulesMs)}`, `listening ${seconds(times.listeningMs)}`];
  const load = server.store.startup;
  if (load !== null) {
    const ops = load.replayedOps.toLocaleString('en-US');
    parts.push(`indexes ${seconds(times.loadedMs)} (snapshot ${seconds(load.snapshotMs)}, replay ${seconds(load.replayMs)} of ${ops} operations)`);
  }
  const thread = server.app.searchThreads?.firstReady;
  if (thread) {
    // The thread's clock is this process's: its spawn time converted to the command's.
    const readyAt = performance.timeOrigin + thread.spawnedAtMs + thread.readyMs - startedAt;
    parts.push(`search thread ${seconds(readyAt)} (snapshot ${seconds(thread.snapshotMs)}, replay ${seconds(thread.replayMs)}, warm-up ${seconds(thread.warmUpMs)})`);
  }
  return `Ready in ${seconds(times.readyMs)}: ${parts.join(', ')}\n`;
}
