/**
 * Starting a search thread's worker. Loading a thread's modules takes a second or more (its TypeScript goes
 * through tsx, module by module), as long as the main thread's own: a server command can start its workers
 * first thing (`prespawnSearchWorkers`), so that both load at once, and the server adopts them when it starts
 * its threads (`spawnSearchWorker`). This module imports nothing else of the server, for that reason.
 */
import { Worker } from 'node:worker_threads';

const ENTRY = new URL('./thread-entry.mjs', import.meta.url);

interface Early {
  worker: Worker;
  /** It ended (or failed) before being adopted: not to be used. */
  gone: boolean;
}

const early: Early[] = [];

function newWorker(): Worker {
  // Only the profiler's flags follow the process into its threads (`npm run bench:http -- --cpu-prof`).
  return new Worker(ENTRY, { execArgv: process.execArgv.filter((flag) => flag.startsWith('--cpu-prof')) });
}

/**
 * Starts `count` workers now, for `spawnSearchWorker` to hand out later. They do not keep the process alive:
 * one never adopted (the command failed, or ran without threads) ends with it.
 */
export function prespawnSearchWorkers(count: number): void {
  for (let i = 0; i < count; i++) {
    const entry: Early = { worker: newWorker(), gone: false };
    entry.worker.unref();
    // A worker failing before adoption is dropped (a fresh one is started instead); its error is not lost on
    // the way: the fresh worker meets the same failure, reported then.
    entry.worker.once('error', () => (entry.gone = true));
    entry.worker.once('exit', () => (entry.gone = true));
    early.push(entry);
  }
}

/** A started worker: one started early if any is still alive, else a new one. */
export function spawnSearchWorker(): Worker {
  for (let entry = early.shift(); entry !== undefined; entry = early.shift()) {
    if (entry.gone) continue;
    entry.worker.ref();
    return entry.worker;
  }
  return newWorker();
}
