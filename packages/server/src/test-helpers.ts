/**
 * Shared by the server's tests: a real Store in a temporary folder and the app built on it, driven in process
 * with `inject()`. Not part of the public API.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from './app.ts';
import type { ServerLimits } from './config.ts';
import { resolveLimits } from './config.ts';
import { Store } from './storage/store.ts';

export const APP_ID = 'test-app';
export const ADMIN_KEY = 'admin-key-0123456789abcdef012345';
export const SEARCH_KEY = 'search-key-0123456789abcdef01234';

export interface TestApp {
  app: FastifyInstance;
  store: Store;
  dataDir: string;
  /** Logged operations that failed to apply: a write accepted then failing is a bug, tests assert none. */
  applyErrors: Array<{ taskID: number; error: unknown }>;
  /** A request with the admin key (or `key`), JSON body sent as text/plain like the JS clients. */
  call(method: string, url: string, body?: unknown, key?: string): Promise<LightMyRequestResponse>;
  /** Waits until every accepted write is visible. */
  settle(response: LightMyRequestResponse): Promise<void>;
  close(): Promise<void>;
}

export function tempDir(prefix = 'vitrine-server-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export async function createTestApp(options: { limits?: Partial<ServerLimits>; dataDir?: string; keepDir?: boolean } = {}): Promise<TestApp> {
  const dataDir = options.dataDir ?? tempDir();
  const limits = resolveLimits(options.limits);
  const applyErrors: TestApp['applyErrors'] = [];
  const store = await Store.open({ dataDir, limits, onApplyError: (taskID, error) => applyErrors.push({ taskID, error }) });
  const app = await buildApp({ store, config: { appId: APP_ID, adminApiKey: ADMIN_KEY, searchApiKey: SEARCH_KEY }, limits });
  return {
    app,
    store,
    dataDir,
    applyErrors,
    call(method, url, body, key = ADMIN_KEY) {
      return app.inject({
        method: method as 'GET',
        url,
        headers: { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': key, 'content-type': 'text/plain' },
        ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : JSON.stringify(body) }),
      });
    },
    async settle(response) {
      const taskID = (response.json() as { taskID: number | Record<string, number> }).taskID;
      const ids = typeof taskID === 'number' ? [taskID] : Object.values(taskID);
      for (const id of ids) await store.waitForTask(id);
    },
    async close() {
      await app.close();
      await store.close();
      if (!options.keepDir && !options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
