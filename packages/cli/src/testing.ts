/**
 * Test support (not shipped behaviour): a real server on an ephemeral loopback port with a temporary data folder,
 * and a way to run `vitrine` commands in-process with captured output.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '@vitrine/server';
import type { RunningServer, ServerConfig } from '@vitrine/server';
import type { CliContext } from './context.ts';
import { createApiClient } from './importer/client.ts';
import type { ApiClient } from './importer/client.ts';
import { main } from './main.ts';

export interface TestServer {
  server: RunningServer;
  url: string;
  appId: string;
  adminApiKey: string;
  client: ApiClient;
  /** Environment pointing `vitrine import/export` at this server. */
  env: Record<string, string>;
  close(): Promise<void>;
}

export function tempDir(prefix = 'vitrine-cli-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** A server with its own credentials (two servers in one test must differ) and limits (hosted Algolia's, say). */
export interface TestServerOptions {
  appId?: string;
  adminApiKey?: string;
  limits?: ServerConfig['limits'];
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = tempDir('vitrine-cli-data-');
  const appId = options.appId ?? 'test-app';
  const adminApiKey = options.adminApiKey ?? 'admin-key-for-tests';
  const server = await startServer({ dataDir, appId, adminApiKey, searchApiKey: 'search-key-for-tests', host: '127.0.0.1', port: 0, limits: options.limits });
  const client = createApiClient({ url: server.url, appId, apiKey: adminApiKey });
  return {
    server,
    url: server.url,
    appId,
    adminApiKey,
    client,
    env: { VITRINE_URL: server.url, VITRINE_APP_ID: appId, VITRINE_ADMIN_API_KEY: adminApiKey },
    async close() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCli(args: string[], options: { env?: Record<string, string>; cwd?: string; signal?: AbortSignal } = {}): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const ctx: CliContext = {
    env: options.env ?? {},
    cwd: options.cwd ?? process.cwd(),
    stdout: { write: (chunk: string) => (stdout += chunk) },
    stderr: { write: (chunk: string) => (stderr += chunk) },
    signal: options.signal ?? new AbortController().signal,
  };
  const code = await main(args, ctx);
  return { code, stdout, stderr };
}

/** Every record of an index, sorted by objectID, as the API returns them (browse, all attributes). */
export async function allRecords(client: ApiClient, indexName: string): Promise<Array<Record<string, unknown>>> {
  const records: Array<Record<string, unknown>> = [];
  await client.browseObjects<Record<string, unknown>>({
    indexName,
    browseParams: { hitsPerPage: 1000, attributesToRetrieve: ['*'] },
    aggregator: (response) => {
      for (const hit of response.hits) {
        const { _highlightResult: _h, _snippetResult: _s, ...record } = hit as Record<string, unknown>;
        records.push(record);
      }
    },
  });
  return records.sort((a, b) => String(a.objectID).localeCompare(String(b.objectID), 'en', { numeric: true }));
}

const BIN = fileURLToPath(new URL('../bin/vitrine.js', import.meta.url));

/**
 * Runs the `vitrine` command as a real process (`vitrine start`, `vitrine serve`); `url` resolves with the URL
 * its banner prints, and rejects if it exits first. It runs the sources under test (`--conditions=source`); the
 * package test (`test/package.test.ts`) runs the compiled command as installed from its tarball.
 */
export function spawnVitrine(args: string[], env: Record<string, string>, cwd: string) {
  return spawnCommand(process.execPath, ['--conditions=source', BIN, ...args], { PATH: process.env.PATH ?? '', ...env }, cwd);
}

/** Runs an installed `vitrine` (or any command printing its banner) with exactly `env`; as `spawnVitrine`. */
export function spawnCommand(command: string, args: string[], env: NodeJS.ProcessEnv, cwd: string) {
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const url = new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Vitrine is running at (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void ended.then(({ code }) => reject(new Error(`${command} ${args.join(' ')} exited (${code}) before it was ready:\n${output}`)));
  });
  return { child, url, ended, exited: ended.then(({ code }) => code), output: () => output };
}
