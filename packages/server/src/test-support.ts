/**
 * What the server's tests and benchmarks share (not part of the public API): temporary data folders, the app
 * built on a real Store and driven in process with `inject()`, the real server on a loopback ephemeral port, and
 * the server as a child process (`test/fixtures/serve.ts`) for crash tests and benchmarks.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { algoliasearch } from 'algoliasearch';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { IndexSettings } from '@vitrine/protocol';
import { buildApp } from './app.ts';
import type { ServerConfig, ServerLimits } from './config.ts';
import { resolveLimits } from './config.ts';
import { serverProcessEnv } from './process-memory.ts';
import { startServer } from './index.ts';
import type { RunningServer } from './index.ts';
import { Store } from './storage/store.ts';

export const APP_ID = 'test-app';
export const ADMIN_KEY = 'admin-key-0123456789abcdef012345';
export const SEARCH_KEY = 'search-key-0123456789abcdef01234';
/** The server entry run as a child process by `spawnServer`. */
export const SERVE_SCRIPT = join(dirname(fileURLToPath(import.meta.url)), '..', 'test', 'fixtures', 'serve.ts');

export function tempDir(prefix = 'vitrine-server-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** A secured API key made by the official v5 client (its Node build has the generator; its shared type does not declare it). */
export function securedApiKey(parentApiKey: string, restrictions: Record<string, unknown>): string {
  const client = algoliasearch(APP_ID, parentApiKey) as unknown as { generateSecuredApiKey(options: { parentApiKey: string; restrictions: Record<string, unknown> }): string };
  return client.generateSecuredApiKey({ parentApiKey, restrictions });
}

/** A search answer's body as text, whether one string or pieces of bytes (`SearchAnswer.body`). */
export function bodyText(body: string | Uint8Array[]): string {
  return typeof body === 'string' ? body : Buffer.concat(body).toString('utf8');
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** JSON bodies go as text/plain, as the JS clients send them (no CORS preflight). */
function headersFor(key: string): Record<string, string> {
  return { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': key, 'content-type': 'text/plain' };
}

function payload(body: unknown): string | undefined {
  return body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
}

export interface TestApp {
  app: FastifyInstance;
  store: Store;
  dataDir: string;
  /** Logged operations that failed to apply: a write accepted then failing is a bug, tests assert none. */
  applyErrors: Array<{ taskID: number; error: unknown }>;
  /** A request with the admin key (or `key`). */
  call(method: string, url: string, body?: unknown, key?: string): Promise<LightMyRequestResponse>;
  /** Waits until every accepted write is visible. */
  settle(response: LightMyRequestResponse): Promise<void>;
  close(): Promise<void>;
}

/** The app on a real Store in a temporary folder, without a socket. */
export async function createTestApp(options: { limits?: Partial<ServerLimits>; dataDir?: string; keepDir?: boolean; config?: Partial<ServerConfig> } = {}): Promise<TestApp> {
  const dataDir = options.dataDir ?? tempDir();
  const limits = resolveLimits(options.limits);
  const applyErrors: TestApp['applyErrors'] = [];
  const store = await Store.open({ dataDir, limits, onApplyError: (taskID, error) => applyErrors.push({ taskID, error }) });
  const app = await buildApp({ store, config: { ...options.config, appId: APP_ID, adminApiKey: ADMIN_KEY, searchApiKey: SEARCH_KEY }, limits });
  return {
    app,
    store,
    dataDir,
    applyErrors,
    call: (method, url, body, key = ADMIN_KEY) => app.inject({ method: method as 'GET', url, headers: headersFor(key), payload: payload(body) }),
    async settle(response) {
      const taskID = (response.json() as { taskID: number | Record<string, number> }).taskID;
      for (const id of typeof taskID === 'number' ? [taskID] : Object.values(taskID)) await store.waitForTask(id);
    },
    async close() {
      await app.close();
      await store.close();
      if (!options.keepDir && !options.dataDir) removeDir(dataDir);
    },
  };
}

export interface TestServer {
  server: RunningServer;
  url: string;
  /** `127.0.0.1:<port>`, as the clients' `hosts` take it. */
  host: string;
  dataDir: string;
  /** A JSON request over the socket with the admin key (or `key`); the body parsed when there is one. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read many response shapes
  call(method: string, path: string, body?: unknown, key?: string): Promise<{ status: number; body: any }>;
  /** A search through the query route with the search key (so it is logged as any search), or fails. */
  search(params: Record<string, unknown>, indexName?: string): Promise<{ queryID?: string; nbHits: number; hits: Array<{ objectID: string }> }>;
  /** Creates an API key through `/1/keys`; resolves to its value. */
  createKey(definition: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

/**
 * `startServer` on an ephemeral loopback port and a temporary data folder (removed on close), with the test keys.
 * `index` seeds one index (settings, then records) before the server is handed over, visible to search.
 */
export async function startTestServer(options: {
  config?: Partial<ServerConfig>;
  index?: { name: string; settings: IndexSettings; records: Array<Record<string, unknown>> };
} = {}): Promise<TestServer> {
  const dataDir = tempDir();
  const server = await startServer({ ...options.config, dataDir, appId: APP_ID, adminApiKey: ADMIN_KEY, searchApiKey: SEARCH_KEY, port: 0 });
  if (options.index) {
    await server.store.setSettings(options.index.name, options.index.settings);
    const { taskID } = await server.store.saveObjects(options.index.name, options.index.records as never);
    await server.store.waitForTask(taskID);
  }
  const call: TestServer['call'] = async (method, path, body, key = ADMIN_KEY) => {
    const response = await fetch(`${server.url}${path}`, { method, headers: headersFor(key), body: payload(body) });
    const text = await response.text();
    return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
  };
  return {
    server,
    url: server.url,
    host: `127.0.0.1:${server.port}`,
    dataDir,
    call,
    async search(params, indexName = options.index?.name ?? 'products') {
      const { status, body } = await call('POST', `/1/indexes/${encodeURIComponent(indexName)}/query`, params, SEARCH_KEY);
      if (status !== 200) throw new Error(`search failed: ${status} ${JSON.stringify(body)}`);
      return body;
    },
    async createKey(definition) {
      const { status, body } = await call('POST', '/1/keys', definition);
      if (status !== 200) throw new Error(`key creation failed: ${status} ${JSON.stringify(body)}`);
      return body.key as string;
    },
    async close() {
      await server.close();
      removeDir(dataDir);
    },
  };
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** SIGKILL, resolved once the process is gone. */
  kill(): Promise<void>;
}

/**
 * Runs `script` (default the real server entry, with the test keys, configured by `env`) as a child process and resolves once it
 * prints `LISTENING <url>`; rejects if it exits first. `onSpawn` gets the process at once (to watch it start).
 */
export function spawnServer(env: Record<string, string>, script = SERVE_SCRIPT, nodeArgs: string[] = [], onSpawn?: (child: ChildProcess) => void): Promise<ServerProcess> {
  const keys = { VITRINE_APP_ID: APP_ID, VITRINE_ADMIN_API_KEY: ADMIN_KEY, VITRINE_SEARCH_API_KEY: SEARCH_KEY };
  // As the `vitrine` command starts a server: with its allocator settings (`process-memory.ts`).
  const base = serverProcessEnv() ?? process.env;
  const child = spawn(process.execPath, [...nodeArgs, '--conditions=source', '--import', 'tsx', script], { env: { ...base, ...keys, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  onSpawn?.(child);
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /LISTENING (\S+)/.exec(output);
      if (match) resolve({ child, url: match[1], kill: () => killHard(child) });
    });
    child.once('exit', (code) => reject(new Error(`${script} exited early with ${code}`)));
  });
}

/** A process's resident memory (all its threads) in MB, from /proc; NaN once it is gone or where there is none. */
export function processRssMb(pid: number | undefined): number {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;
  } catch {
    return NaN;
  }
}

export function killHard(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

/**
 * Crash tests' round: `writers` loops of `write` (each runs while `running()` holds, and returns when a request
 * fails: the server died under it), then `kill` at a random moment 150–550 ms in, so that kills land anywhere in
 * the write path (commit, apply, snapshot). Resolves once every loop has ended.
 */
export async function writeUntilKilled(kill: () => Promise<void>, writers: number, write: (running: () => boolean) => Promise<void>): Promise<void> {
  let stop = false;
  const loops = Array.from({ length: writers }, () => write(() => !stop));
  await new Promise((resolve) => setTimeout(resolve, 150 + Math.random() * 400));
  await kill();
  stop = true;
  await Promise.all(loops);
}

/** `POST /1/vitrine/backup` of the server at `url` into `to` with the admin key; resolves to the events it streamed. */
export async function backupTo(url: string, to: string): Promise<string[]> {
  const answer = await fetch(`${url}/1/vitrine/backup`, { method: 'POST', headers: headersFor(ADMIN_KEY), body: JSON.stringify({ to }) });
  return (await answer.text()).trim().split('\n').map((line) => (JSON.parse(line) as { event: string }).event);
}

/** Polls `check` every 25 ms until it holds (hooks cannot use `expect.poll`); rejects after `timeout` ms. */
export async function waitUntil(check: () => Promise<boolean>, timeout = 20_000): Promise<void> {
  const deadline = performance.now() + timeout;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
