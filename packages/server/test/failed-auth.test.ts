/**
 * The failed-authentication budget never locks out keys that authenticate (issue 49, item 5), over a real server
 * and the official clients: after a restart (nothing remembered of which keys worked from where), 101 distinct
 * bad keys from one address spend its budget; the admin key, the search key, a stored key and secured keys of
 * both still work from that address, and only further failures get 429.
 */
import { algoliasearch } from 'algoliasearch';
import algoliasearchV4 from 'algoliasearch-v4';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../src/index.ts';
import type { RunningServer } from '../src/index.ts';
import { ADMIN_KEY, APP_ID, removeDir, SEARCH_KEY, securedApiKey, tempDir } from '../src/test-support.ts';
import { PRODUCTS, SETTINGS } from './catalogue.ts';

const TOO_MANY = { status: 429, message: 'Too many failed authentications from this IP address' };
const INVALID = { status: 403, message: 'Invalid Application-ID or API key' };

describe('failed authentications from one address', () => {
  const dataDir = tempDir();
  let server: RunningServer;
  let stored: string;
  const start = async () => {
    server = await startServer({ dataDir, appId: APP_ID, adminApiKey: ADMIN_KEY, searchApiKey: SEARCH_KEY, port: 0, searchThreads: 1 });
  };
  // A 429 fails at once: by default the client waits and retries.
  const v5 = (key: string) => algoliasearch(APP_ID, key, { hosts: [{ url: `127.0.0.1:${server.port}`, protocol: 'http', accept: 'readWrite' }], maxRateLimitRetries: 0 });
  const search = (key: string) => v5(key).searchSingleIndex({ indexName: 'products', searchParams: { query: 'lamp' } });
  const listWith = async (key: string) => {
    const response = await fetch(`${server.url}/1/indexes`, { headers: { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': key } });
    return { status: response.status, body: await response.json() };
  };

  beforeAll(async () => {
    await start();
    const admin = v5(ADMIN_KEY);
    await admin.setSettings({ indexName: 'products', indexSettings: SETTINGS });
    await admin.saveObjects({ indexName: 'products', objects: PRODUCTS, waitForTasks: true });
    stored = (await admin.addApiKey({ acl: ['search', 'listIndexes'], description: 'shop' })).key;
    // A restart: the server remembers nothing of which keys worked from this address.
    await server.close();
    await start();
  });
  afterAll(async () => {
    await server.close();
    removeDir(dataDir);
  });

  it('keeps every valid key working once 101 bad keys spent the budget; further failures get 429', async () => {
    for (let i = 0; i < 100; i++) expect(await listWith(`bad-key-${i}`)).toEqual({ status: 403, body: INVALID });
    expect(await listWith('bad-key-100')).toEqual({ status: 429, body: TOO_MANY });
    // A forged secured key costs a verification: refused with 429 too.
    expect((await listWith(securedApiKey('not-a-key-of-this-server', { hitsPerPage: 5 }))).status).toBe(429);

    expect((await v5(ADMIN_KEY).listIndices()).items.map((index) => index.name)).toEqual(['products']);
    expect((await search(SEARCH_KEY)).nbHits).toBe(2);
    expect((await search(stored)).nbHits).toBe(2);
    expect((await listWith(stored)).status).toBe(200);
    // Secured keys never seen before, of the search key and of the stored key (verified now, from this address).
    expect((await search(securedApiKey(SEARCH_KEY, { filters: 'brand:Lumio', validUntil: Math.floor(Date.now() / 1000) + 600 }))).nbHits).toBe(2);
    expect((await search(securedApiKey(stored, { hitsPerPage: 1 }))).hits).toHaveLength(1);
    // A key created after the budget was spent.
    const fresh = (await v5(ADMIN_KEY).addApiKey({ acl: ['search'] })).key;
    expect((await search(fresh)).nbHits).toBe(2);
    // The v4 client too.
    const v4 = algoliasearchV4(APP_ID, SEARCH_KEY, { hosts: [{ url: `127.0.0.1:${server.port}`, protocol: 'http' }] });
    expect((await v4.initIndex('products').search('lamp')).nbHits).toBe(2);

    // Failures are still limited: the next bad key, and a valid one for another application, get 429.
    expect(await listWith('bad-key-101')).toEqual({ status: 429, body: TOO_MANY });
    await expect(algoliasearch('other-app', SEARCH_KEY, { hosts: [{ url: `127.0.0.1:${server.port}`, protocol: 'http', accept: 'read' }], maxRateLimitRetries: 0 })
      .searchSingleIndex({ indexName: 'products' })).rejects.toMatchObject({ status: 429 });
  });
});
