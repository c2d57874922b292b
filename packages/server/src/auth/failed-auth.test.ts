import { afterEach, describe, expect, it } from 'vitest';
import { ADMIN_KEY, APP_ID, createTestApp, SEARCH_KEY, securedApiKey } from '../test-support.ts';
import type { TestApp } from '../test-support.ts';

/** The failed-authentication budget through real requests: `inject` with a chosen client address. */
describe('failed authentications', () => {
  let t: TestApp;
  afterEach(() => t.close());

  const listIndexes = (key: string, remoteAddress = '127.0.0.1') =>
    t.app.inject({ method: 'GET', url: '/1/indexes', remoteAddress, headers: { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': key } });
  const search = (key: string, remoteAddress = '127.0.0.1') =>
    t.app.inject({ method: 'POST', url: '/1/indexes/products/query', remoteAddress, payload: '{}', headers: { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': key } });

  it('answers 429 to failures past the budget, and keeps accepting every valid key', async () => {
    t = await createTestApp({ limits: { maxFailedAuthPerIPPerHour: 3 } });
    for (let i = 0; i < 3; i++) expect((await listIndexes(`guess-${i}`)).statusCode).toBe(403);
    const guess = await listIndexes('guess-3');
    expect(guess.statusCode).toBe(429);
    expect(guess.json()).toEqual({ message: 'Too many failed authentications from this IP address', status: 429 });
    // Valid keys never used from this IP work: only failures are limited (behind a proxy, the whole shop
    // shares the address).
    expect((await listIndexes(ADMIN_KEY)).statusCode).toBe(200);
    // 404: past authentication, to an index that does not exist.
    expect((await search(SEARCH_KEY)).statusCode).toBe(404);
    expect((await search(securedApiKey(SEARCH_KEY, { hitsPerPage: 5 }))).statusCode).toBe(404);
    // Other addresses have budgets of their own.
    expect((await listIndexes('guess-4', '10.0.0.9')).statusCode).toBe(403);
  });

  it('counts a wrong key retried from one IP once, but every failed secured-key verification', async () => {
    t = await createTestApp({ limits: { maxFailedAuthPerIPPerHour: 3 } });
    // A stale client retrying an old key reveals nothing new and costs no HMAC: it does not spend the budget.
    for (let i = 0; i < 10; i++) expect((await listIndexes('old-key-rotated-away')).statusCode).toBe(403);
    expect((await listIndexes(ADMIN_KEY)).statusCode).toBe(200);
    // A forged secured key costs a verification each time: repeats count.
    const forged = securedApiKey('not-a-parent-key', { hitsPerPage: 5 });
    for (let i = 0; i < 3; i++) expect((await search(forged, '10.0.0.2')).statusCode).toBe(403);
    expect((await search(forged, '10.0.0.2')).statusCode).toBe(429);
  });

  it('gives each client behind a trusted proxy a budget of its own', async () => {
    t = await createTestApp({ limits: { maxFailedAuthPerIPPerHour: 3 }, config: { trustProxy: '127.0.0.1' } });
    const viaProxy = (key: string, client: string) =>
      t.app.inject({ method: 'GET', url: '/1/indexes', headers: { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': key, 'x-forwarded-for': client } });
    for (let i = 0; i < 3; i++) expect((await viaProxy(`guess-${i}`, '203.0.113.7')).statusCode).toBe(403);
    expect((await viaProxy('guess-3', '203.0.113.7')).statusCode).toBe(429);
    expect((await viaProxy('guess-3', '198.51.100.2')).statusCode).toBe(403);
    expect((await viaProxy(ADMIN_KEY, '203.0.113.7')).statusCode).toBe(200);
  });
});
