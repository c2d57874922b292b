import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { algoliasearch } from 'algoliasearch';
import type { Environment } from '../config/env.ts';
import { apiStatus, CliError, UsageError } from '../errors.ts';

export type ApiClient = ReturnType<typeof algoliasearch>;

/** `--url algolia` means hosted Algolia: the client's own hosts for the app id. */
export const HOSTED_ALGOLIA = 'algolia';

export interface ConnectionOptions {
  url: string;
  appId: string;
  apiKey: string;
}

/**
 * The official Algolia client, pointed at a Vitrine server (or at hosted Algolia), so import and export use the
 * same API any other Algolia tool would: nothing here depends on Vitrine's internals.
 */
export function createApiClient({ url, appId, apiKey }: ConnectionOptions): ApiClient {
  // Generous timeouts: a 1000-record batch is written to disk before the server answers.
  const timeouts = { connect: 5_000, read: 30_000, write: 120_000 };
  if (url === HOSTED_ALGOLIA) return algoliasearch(appId, apiKey, { timeouts });
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`--url must be a URL such as http://localhost:3000 (or "algolia"), got "${url}"`);
  }
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || (parsed.pathname !== '/' && parsed.pathname !== '')) {
    throw new UsageError(`--url must be an http(s) origin without a path, such as http://localhost:3000, got "${url}"`);
  }
  return algoliasearch(appId, apiKey, {
    hosts: [{ url: parsed.host, protocol: parsed.protocol === 'https:' ? 'https' : 'http', accept: 'readWrite' }],
    timeouts,
  });
}

/**
 * The admin key for import and export: `--api-key`, else `VITRINE_ADMIN_API_KEY`, else the key a local server
 * generated and kept in its data folder. Reading that file never creates it: a client must not invent keys.
 */
export function resolveAdminKey(explicit: string | undefined, env: Environment): string {
  if (explicit) return explicit;
  if (env.adminApiKey) return env.adminApiKey;
  try {
    const kept = JSON.parse(readFileSync(join(env.dataDir, 'keys.json'), 'utf8')) as { adminApiKey?: unknown };
    if (typeof kept.adminApiKey === 'string' && kept.adminApiKey) return kept.adminApiKey;
  } catch {
    // No readable key file: fall through to the explanation below.
  }
  throw new CliError(
    `No API key: pass --api-key, set VITRINE_ADMIN_API_KEY, or run this from the folder of a server whose data is in ${env.dataDir}`,
  );
}

/** Waiting for a task: poll quickly at first (a local server publishes in milliseconds), then every second. */
const WAIT = { maxRetries: 3600, timeout: (retries: number) => Math.min(50 * 2 ** retries, 1000) };

/**
 * Waits for a task, riding out a server that is briefly too busy to answer (a network-level failure, no HTTP
 * status): the write is already durable, only its confirmation is late. API errors are not retried.
 */
export async function waitForTask(client: ApiClient, indexName: string, taskID: number): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await client.waitForTask({ indexName, taskID, ...WAIT });
      return;
    } catch (error) {
      if (apiStatus(error) !== undefined || attempt === 3) throw error;
    }
  }
}
