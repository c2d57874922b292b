import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, SEARCH_KEY, securedApiKey } from '../test-support.ts';
import type { TestApp } from '../test-support.ts';

describe('keys API and stored-key restrictions', () => {
  let t: TestApp;
  const createKey = async (definition: Record<string, unknown>) => (await t.call('POST', '/1/keys', definition)).json().key as string;

  beforeAll(async () => {
    t = await createTestApp();
    await t.settle(await t.call('POST', '/1/indexes/shop/batch', {
      requests: [
        { action: 'addObject', body: { objectID: '1', brand: 'Lumio', price: 10 } },
        { action: 'addObject', body: { objectID: '2', brand: 'Apple', price: 20 } },
      ],
    }));
    await t.settle(await t.call('PUT', '/1/indexes/shop/settings', { attributesForFaceting: ['brand'] }));
  });
  afterAll(() => t.close());

  it('stores only hashes: listing shows sha256 references that the key routes accept', async () => {
    const key = await createKey({ acl: ['search'], description: 'listed' });
    const row = t.store.db.prepare('SELECT * FROM api_keys').all() as Array<Record<string, unknown>>;
    expect(JSON.stringify(row)).not.toContain(key);
    const listed = (await t.call('GET', '/1/keys')).json().keys.find((k: { description: string }) => k.description === 'listed');
    expect(listed.value).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect((await t.call('GET', `/1/keys/${encodeURIComponent(listed.value)}`)).json()).toMatchObject({ description: 'listed', acl: ['search'] });
    expect((await t.call('DELETE', `/1/keys/${encodeURIComponent(listed.value)}`)).statusCode).toBe(200);
    expect((await t.call('GET', `/1/keys/${key}`)).statusCode).toBe(404);
  });

  it('validates key definitions', async () => {
    expect((await t.call('POST', '/1/keys', { description: 'no acl' })).json()).toEqual({ message: 'Missing parameter: acl', status: 400 });
    expect((await t.call('POST', '/1/keys', { acl: ['root'] })).statusCode).toBe(400);
    expect((await t.call('POST', '/1/keys', { acl: ['search'], validity: -1 })).statusCode).toBe(400);
  });

  it('forces queryParameters filters, which request filters cannot widen', async () => {
    const key = await createKey({ acl: ['search'], queryParameters: 'filters=brand%3ALumio&hitsPerPage=1' });
    const response = await t.call('POST', '/1/indexes/shop/query', { filters: 'brand:Lumio OR brand:Apple', hitsPerPage: 50 }, key);
    expect(response.json()).toMatchObject({ nbHits: 1, hitsPerPage: 1 });
    expect(response.json().hits[0].objectID).toBe('1');
  });

  it('caps hits per query', async () => {
    const key = await createKey({ acl: ['search'], maxHitsPerQuery: 1 });
    expect((await t.call('POST', '/1/indexes/shop/query', { hitsPerPage: 100 }, key)).json().hits).toHaveLength(1);
  });

  it('answers 429 past maxQueriesPerIPPerHour', async () => {
    const key = await createKey({ acl: ['search'], maxQueriesPerIPPerHour: 2 });
    expect((await t.call('POST', '/1/indexes/shop/query', {}, key)).statusCode).toBe(200);
    expect((await t.call('POST', '/1/indexes/shop/query', {}, key)).statusCode).toBe(200);
    const limited = await t.call('POST', '/1/indexes/shop/query', {}, key);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().status).toBe(429);
  });

  it('checks referers and expiry', async () => {
    const key = await createKey({ acl: ['search'], referers: ['https://shop.example/*'] });
    const call = (referer?: string) =>
      t.app.inject({ method: 'POST', url: '/1/indexes/shop/query', payload: '{}', headers: { 'x-algolia-application-id': 'test-app', 'x-algolia-api-key': key, ...(referer ? { referer } : {}) } });
    expect((await call('https://shop.example/cart')).statusCode).toBe(200);
    expect((await call('https://evil.example/')).json()).toEqual({ message: 'Referer not allowed with this API key', status: 403 });
    expect((await call()).statusCode).toBe(403);

    const expiring = await createKey({ acl: ['search'], validity: 1 });
    const stored = t.store.db.prepare('UPDATE api_keys SET created_at = created_at - 5000').run();
    expect(stored.changes).toBeGreaterThan(0);
    // The key cache reads rows at startup; a fresh app sees the backdated creation time.
    const { KeyStore } = await import('../auth/api-keys.ts');
    expect(new KeyStore(t.store.db).findByValue(expiring)).toBeUndefined();
  });

  it('restores a deleted key', async () => {
    const key = await createKey({ acl: ['search'] });
    await t.call('DELETE', `/1/keys/${key}`);
    expect((await t.call('POST', '/1/indexes/shop/query', {}, key)).statusCode).toBe(403);
    expect((await t.call('POST', `/1/keys/${key}/restore`)).json()).toMatchObject({ key });
    expect((await t.call('POST', '/1/indexes/shop/query', {}, key)).statusCode).toBe(200);
  });

  it('lets any key read its own permissions, and only its own', async () => {
    const key = await createKey({ acl: ['search'], description: 'self' });
    expect((await t.call('GET', `/1/keys/${key}`, undefined, key)).json()).toMatchObject({ value: key, acl: ['search'], description: 'self' });
    expect((await t.call('GET', `/1/keys/${SEARCH_KEY}`, undefined, SEARCH_KEY)).json()).toMatchObject({ value: SEARCH_KEY, acl: ['search'] });
    expect((await t.call('GET', `/1/keys/${key}`, undefined, SEARCH_KEY)).statusCode).toBe(403);
  });

  it('counts secured keys that match no parent against the failed-authentication budget', async () => {
    const t2 = await createTestApp({ limits: { maxFailedAuthPerIPPerHour: 3 } });
    try {
      const parent = (await t2.call('POST', '/1/keys', { acl: ['search'] })).json().key as string;
      const genuine = securedApiKey(parent, { filters: 'brand:Lumio' });
      await t2.settle(await t2.call('POST', '/1/indexes/shop/batch', { requests: [{ action: 'addObject', body: { objectID: '1' } }] }));
      expect((await t2.call('POST', '/1/indexes/shop/query', {}, genuine)).statusCode).toBe(200);
      // Guesses: each one is checked against every parent, and each one costs the caller one failure.
      for (let i = 0; i < 3; i++) {
        const guess = securedApiKey(String(i).repeat(32), { filters: 'brand:Lumio' });
        expect((await t2.call('POST', '/1/indexes/shop/query', {}, guess)).json()).toEqual({ message: 'Invalid Application-ID or API key', status: 403 });
      }
      // Past the budget a new guess is refused unchecked; the key in use from this address keeps working.
      expect((await t2.call('POST', '/1/indexes/shop/query', {}, securedApiKey('9'.repeat(32), { filters: 'brand:Lumio' }))).statusCode).toBe(429);
      expect((await t2.call('POST', '/1/indexes/shop/query', {}, genuine)).statusCode).toBe(200);
    } finally {
      await t2.close();
    }
  });

  it('keeps the keys API to the admin key', async () => {
    const key = await createKey({ acl: ['search', 'addObject', 'settings', 'editSettings', 'deleteIndex', 'listIndexes', 'browse'] });
    expect((await t.call('GET', '/1/keys', undefined, key)).json()).toEqual({ message: 'Method not allowed with this API key', status: 403 });
  });
});
