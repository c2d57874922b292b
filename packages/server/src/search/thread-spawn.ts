/**
 * Starting a search thread's worker. Loading a thread's modules takes a while (a second or more when its
 * TypeScript goes through tsx, module by module), as long as the main thread's own: a server command can start its workers
 * first thing (`prespawnSearchWorkers`), so that both load at once, and the server adopts them when it starts
 * its threads (`spawnSearchWorker`). This module imports nothing else of the server, for that reason.
 */
import { Worker } from 'node:worker_threads';

/** The thread's module: compiled, or, running from the sources, a shim that registers the TypeScript loader first. */
const ENTRY = import.meta.url.endsWith('.ts') ? new URL('./thread-entry.mjs', import.meta.url) : new URL('./thread.js', import.meta.url);

interface Early {
  worker: Worker;
  /** It ended (or failed) before being adopted: not to be used. */
  gone: boolean;
}

const early: Early[] = [];

function newWorker(): Worker {
  return new Worker(ENTRY, { execArgv: threadFlags(process.execArgv) });
}

/**
 * The process's flags a thread keeps: the profiler's (`npm run bench:http -- --cpu-prof`) and the module
 * conditions (`--conditions=source` resolves the workspace's packages to their sources); a worker given its own
 * flags inherits none.
 */
export function threadFlags(execArgv: string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const flag = execArgv[i];
    if (flag.startsWith('--cpu-prof') || flag.startsWith('--conditions=') || flag.startsWith('-C=')) kept.push(flag);
    else if ((flag === '--conditions' || flag === '-C') && i + 1 < execArgv.length) kept.push(flag, execArgv[++i]);
  }
  return kept;
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
