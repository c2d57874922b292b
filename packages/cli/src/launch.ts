/**
 * The server commands (`start`, `serve`) run in a child process started with the server's process settings
 * (`serverProcessEnv`, in `@vitrine/server`: huge pages, a fixed mmap threshold, V8's pool sized to the cores):
 * glibc and Node read them from the environment when a process starts, and Node 20 cannot replace its own
 * process. This process only passes signals on and exits as the child did.
 *
 * The child has a session of its own, so a terminal's Ctrl-C reaches it once (passed on from here), not twice
 * (a second SIGINT stops a server without its clean close). It watches the channel to this process: if this one
 * is killed outright, the server ends at once too (as a crash: what it acknowledged is durable), rather than
 * running on with nobody to stop it.
 */
import { spawn } from 'node:child_process';
// The module alone, not the server's whole graph: this process only starts the one that loads it.
import { serverProcessEnv } from '@vitrine/server/process-memory';
import { prespawnSearchWorkers } from '@vitrine/server/search-workers';
import { searchThreadsFrom } from './config/env.ts';
import { STARTED_AT_ENV } from './server/startup-report.ts';

/** Commands that run a server and gain from its allocator settings. */
const SERVER_COMMANDS = new Set(['start', 'serve']);
/** Set in the child's environment: it is the relaunched server. */
const LAUNCHED = 'VITRINE_LAUNCHED';
const PASSED_ON = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** The environment to run `argv` again with, or null to run it in this process. */
export function relaunchEnv(argv: string[], env: NodeJS.ProcessEnv = process.env, settings = serverProcessEnv): NodeJS.ProcessEnv | null {
  if (env[LAUNCHED] === '1' || !SERVER_COMMANDS.has(argv[0] ?? '')) return null;
  const withSettings = settings();
  return withSettings === null ? null : { ...withSettings, [LAUNCHED]: '1' };
}

/**
 * Runs the command line in a child process with `env`; resolves with its exit code, or ends this process by the
 * signal that ended the child.
 */
export function runRelaunched(script: string, argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  // The server reports its start-up times from this process's start, the one a user waits from.
  const childEnv = { ...env, [STARTED_AT_ENV]: String(performance.timeOrigin) };
  const child = spawn(process.execPath, [...process.execArgv, script, ...argv], { stdio: ['inherit', 'inherit', 'inherit', 'ipc'], env: childEnv, detached: true });
  const passOn = (signal: NodeJS.Signals) => child.kill(signal);
  for (const signal of PASSED_ON) process.on(signal, passOn);
  return new Promise((resolve) => {
    child.once('error', (error) => {
      process.stderr.write(`vitrine: could not start the server process: ${error.message}\n`);
      resolve(1);
    });
    child.once('exit', (code, signal) => {
      for (const name of PASSED_ON) process.off(name, passOn);
      if (signal !== null) process.kill(process.pid, signal);
      else resolve(code ?? 1);
    });
  });
}

/** In a relaunched server: ends it at once if the launching process is gone (its channel closed). */
export function followLauncher(): void {
  if (process.env[LAUNCHED] !== '1' || process.send === undefined) return;
  process.channel?.unref();
  process.once('disconnect', () => process.kill(process.pid, 'SIGKILL'));
}

/**
 * For a server command: starts its search threads' workers now, before this process loads the server, so that
 * both load their modules at once (a second or more each). The count is the one the configuration will read;
 * a malformed value starts none (the command then stops with its message).
 */
export function prespawnFor(argv: string[], env: NodeJS.ProcessEnv = process.env): number {
  if (!SERVER_COMMANDS.has(argv[0] ?? '') || argv.includes('--help') || argv.includes('-h')) return 0;
  let count: number;
  try {
    count = searchThreadsFrom(env);
  } catch {
    return 0;
  }
  prespawnSearchWorkers(count);
  return count;
}
