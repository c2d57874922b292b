/**
 * @vitrine/server: Algolia's search REST API over the Vitrine engine, with durable storage.
 *
 * - `startServer(config)` opens the data folder (loads the latest snapshot, replays the log), builds the Fastify
 *   app and listens; `RunningServer.close()` stops listening, then flushes and closes the store.
 * - `buildApp(deps)` builds the app without listening (tests use `app.inject()`).
 * - `Store` is the in-process write/read API used by the CLI (demo catalogue) and importers: every write is a
 *   task, durable on disk before its promise resolves, visible to search once `waitForTask(taskID)` resolves.
 * - `resolveKeys(dataDir, env)` picks the admin and search keys from the environment or generates and keeps them.
 */
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { resolveLimits } from './config.ts';
import type { ServerConfig } from './config.ts';
import { Store } from './storage/store.ts';
import { limitHeapGrowth } from './process-memory.ts';
import { publicOrigins } from './pages/public-origin.ts';

export { buildApp } from './app.ts';
export type { AppDeps } from './app.ts';
export { defaultLimits, resolveLimits } from './config.ts';
export type { ApiExtension, LogLevel, RouteExtension, SearchObserver, ServerConfig, ServerLimits } from './config.ts';
export { serverProcessEnv, HUGE_PAGES_TUNABLE, MMAP_THRESHOLD_TUNABLE } from './process-memory.ts';
export type { ProcessHost } from './process-memory.ts';
export { KEYS_FILE, resolveKeys } from './keys-file.ts';
export type { ResolvedKeys } from './keys-file.ts';
export { Store } from './storage/store.ts';
export { DATA_FORMAT, DataFolderError, inspectDataFolder } from './storage/data-folder.ts';
export type { StoreOptions } from './storage/store.ts';
export { searchStore, storeObjects } from './search/in-process.ts';
export type { Insights, InsightsOptions, RecordedEvent } from '@vitrine/insights';
import type { Insights } from '@vitrine/insights';
export { ApiError, createError } from './errors.ts';
export type { ErrorCode } from './errors.ts';
export type { AuthContext } from './auth/authenticate.ts';
export type { Acl } from './auth/acl.ts';

export interface RunningServer {
  /** `http://host:port`, with the port actually bound. */
  url: string;
  port: number;
  app: FastifyInstance;
  store: Store;
  /** Insights, analytics, recommendations and query suggestions (events, search log, models). */
  insights: Insights;
  /** What `/1/isalive` says from now on: alive (200), or not ready (503) while a catalogue is being loaded. */
  setReady(ready: boolean): void;
  /** Stops accepting requests, waits for in-flight ones, then snapshots (when the log grew) and closes the store. */
  close(): Promise<void>;
}

/**
 * Opens the data folder and listens at once; the indexes load meanwhile (the snapshot and the log after it, here
 * and in each search thread in parallel), `/1/isalive` answering 503 and other requests held until they are.
 * Resolves once loaded.
 */
export async function startServer(config: ServerConfig): Promise<RunningServer> {
  limitHeapGrowth();
  // A wrong public URL stops the start before anything is opened.
  publicOrigins(config.publicUrl);
  const limits = resolveLimits(config.limits);
  const store = Store.create({ dataDir: config.dataDir, limits });
  let app: FastifyInstance | undefined;
  let url: string;
  let port: number;
  try {
    app = await buildApp({ store, config, limits });
    await app.listen({ host: config.host ?? '127.0.0.1', port: config.port ?? 0 });
    const address = app.server.address();
    port = typeof address === 'object' && address ? address.port : (config.port ?? 0);
    const host = config.host ?? '127.0.0.1';
    // IPv6 literals need brackets in URLs; 0.0.0.0 is reachable as loopback.
    const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
    url = `http://${shownHost}:${port}`;
    config.onListening?.(url);
    await store.load();
    // Records whose vector a crash left out (a rest embedder's) are found and embedded now.
    app.documentVectors.wakeAll();
  } catch (error) {
    await app?.close();
    await store.close();
    throw error;
  }
  let closed: Promise<void> | undefined;
  return {
    url,
    port,
    app,
    store,
    insights: app.insights,
    setReady: (ready) => app.setReady(ready),
    close() {
      closed ??= (async () => {
        await app.close();
        await store.close();
      })();
      return closed;
    },
  };
}
