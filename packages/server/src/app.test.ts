import { rmSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.ts';
import { Store } from './storage/store.ts';
import { ADMIN_KEY, APP_ID, createTestApp, SEARCH_KEY, tempDir } from './test-support.ts';
import type { TestApp } from './test-support.ts';

describe('the app: transport, errors, auth, CORS', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ limits: { maxSearchBodyBytes: 10_000, maxFailedAuthPerIPPerHour: 5 } });
    await t.settle(await t.call('POST', '/1/indexes/products/batch', { requests: [{ action: 'addObject', body: { objectID: '1', name: 'Lamp' } }] }));
  });
  afterAll(() => t.close());

  it('answers isalive without credentials', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/1/isalive' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'server is alive' });
  });

  it('answers unknown paths with a 404 Algolia body and wrong methods with a 405', async () => {
    const missing = await t.call('GET', '/1/nothing/here');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: 'Path not found: GET /1/nothing/here', status: 404 });
    const wrongMethod = await t.call('PATCH', '/1/indexes/products/settings', {});
    expect(wrongMethod.statusCode).toBe(405);
    expect(wrongMethod.json()).toMatchObject({ status: 405 });
  });

  it('parses JSON whatever the content-type, and none', async () => {
    for (const contentType of ['text/plain', 'application/json', 'application/x-www-form-urlencoded', undefined]) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/1/indexes/products/query',
        headers: { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': SEARCH_KEY, ...(contentType ? { 'content-type': contentType } : {}) },
        payload: JSON.stringify({ query: 'lamp' }),
      });
      expect(response.statusCode, String(contentType)).toBe(200);
      expect(response.json().query).toBe('lamp');
    }
  });

  it('accepts gzip-encoded bodies and rejects broken ones with a 400', async () => {
    const payload = gzipSync(JSON.stringify({ query: 'lamp' }));
    const headers = { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': SEARCH_KEY, 'content-type': 'text/plain', 'content-encoding': 'gzip' };
    const ok = await t.app.inject({ method: 'POST', url: '/1/indexes/products/query', headers, payload });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().nbHits).toBe(1);
    const broken = await t.app.inject({ method: 'POST', url: '/1/indexes/products/query', headers, payload: Buffer.from('not gzip') });
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toEqual({ message: 'Invalid gzip-encoded body', status: 400 });
  });

  it('caps decompressed bodies: a gzip bomb is a 413, not an allocation', async () => {
    const bomb = gzipSync(Buffer.alloc(5_000_000, 32));
    const response = await t.app.inject({
      method: 'POST',
      url: '/1/indexes/products/query',
      headers: { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': SEARCH_KEY, 'content-encoding': 'gzip' },
      payload: bomb,
    });
    expect(response.statusCode).toBe(413);
    expect(response.json().status).toBe(413);
  });

  it('rejects malformed and too deep JSON with Algolia bodies', async () => {
    const malformed = await t.call('POST', '/1/indexes/products/query', '{"query": ');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toMatch(/^Invalid JSON body/);
    const deep = await t.call('POST', '/1/indexes/products/query', `{"query":"a","x":${'['.repeat(100)}${']'.repeat(100)}}`);
    expect(deep.statusCode).toBe(400);
    expect(deep.json().message).toMatch(/nesting deeper than 64/);
  });

  it('refuses prototype-poisoning bodies on every route shape', async () => {
    const poisoned = [
      '{"requests":[{"action":"addObject","body":{"objectID":"x","__proto__":{"polluted":true}}}]}',
      '{"constructor":{"prototype":{"polluted":true}}}',
      '{"requests":[{"indexName":"products","params":"query=a&__proto__=x"}],"\u005f_proto__":{"polluted":true}}',
    ];
    for (const payload of poisoned) {
      const response = await t.call('POST', '/1/indexes/products/batch', payload);
      expect(response.statusCode, payload).toBe(400);
      expect(response.json().message).toMatch(/forbidden key/);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('caps search bodies lower than write bodies', async () => {
    const response = await t.call('POST', '/1/indexes/products/query', { query: 'a', padding: 'x'.repeat(20_000) });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ message: 'Request body too large', status: 413 });
    const write = await t.call('POST', '/1/indexes/big_write/batch', { requests: [{ action: 'addObject', body: { objectID: 'w', text: 'x'.repeat(20_000) } }] });
    expect(write.statusCode).toBe(200);
  });

  it('takes credentials from headers or the query string, in any case', async () => {
    const viaQuery = await t.app.inject({ method: 'GET', url: `/1/indexes/products?query=lamp&X-Algolia-API-Key=${SEARCH_KEY}&x-algolia-application-id=${APP_ID}` });
    expect(viaQuery.statusCode).toBe(200);
    expect(viaQuery.json().nbHits).toBe(1);
    const viaHeaders = await t.app.inject({ method: 'GET', url: '/1/indexes/products?query=lamp', headers: { 'X-Algolia-API-Key': SEARCH_KEY, 'X-Algolia-Application-Id': APP_ID } });
    expect(viaHeaders.statusCode).toBe(200);
  });

  it("answers Algolia's 403 texts for bad keys and missing ACLs", async () => {
    const badKey = await t.call('POST', '/1/indexes/products/query', {}, 'wrong');
    expect(badKey.statusCode).toBe(403);
    expect(badKey.json()).toEqual({ message: 'Invalid Application-ID or API key', status: 403 });
    const write = await t.call('POST', '/1/indexes/products/batch', { requests: [] }, SEARCH_KEY);
    expect(write.statusCode).toBe(403);
    expect(write.json()).toEqual({ message: 'Method not allowed with this API key', status: 403 });
    const wrongApp = await t.app.inject({ method: 'GET', url: '/1/indexes', headers: { 'x-algolia-application-id': 'other', 'x-algolia-api-key': ADMIN_KEY } });
    expect(wrongApp.statusCode).toBe(403);
  });

  it('answers CORS preflights and sets the origin header on API answers', async () => {
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/1/indexes/*/queries',
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-algolia-api-key, content-type' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(preflight.headers['access-control-allow-headers']).toBe('x-algolia-api-key, content-type');
    expect(String(preflight.headers['access-control-allow-methods'])).toContain('POST');
    const search = await t.call('POST', '/1/indexes/products/query', {}, SEARCH_KEY);
    expect(search.headers['access-control-allow-origin']).toBe('*');
  });

  it('sees client addresses through a trusted proxy only', async () => {
    const key = (await t.call('POST', '/1/keys', { acl: ['search'], queryParameters: 'restrictSources=10.1.0.0%2F16' })).json().key as string;
    const viaProxy = { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': key, 'x-forwarded-for': '10.1.2.3' };
    // Not trusted by default: the socket address (127.0.0.1) is outside the key's sources.
    expect((await t.app.inject({ method: 'POST', url: '/1/indexes/products/query', headers: viaProxy, payload: '{}' })).statusCode).toBe(403);
    const dataDir = tempDir();
    const store = await Store.open({ dataDir });
    const app = await buildApp({ store, config: { appId: APP_ID, adminApiKey: ADMIN_KEY, searchApiKey: SEARCH_KEY, trustProxy: '127.0.0.1' } });
    try {
      const created = await app.inject({ method: 'POST', url: '/1/keys', headers: { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': ADMIN_KEY }, payload: JSON.stringify({ acl: ['search'], queryParameters: 'restrictSources=10.1.0.0%2F16' }) });
      await store.waitForTask((await store.saveObjects('products', [{ objectID: '1' }])).taskID);
      const trusted = await app.inject({ method: 'POST', url: '/1/indexes/products/query', headers: { ...viaProxy, 'x-algolia-api-key': created.json().key }, payload: '{}' });
      expect(trusted.statusCode).toBe(200);
    } finally {
      await app.close();
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('runs API extensions inside the API scope and tells the search observer about searches', async () => {
    const seen: Array<{ indexName: string; query: unknown; nbHits: number; userToken?: string }> = [];
    const dataDir = tempDir();
    const store = await Store.open({ dataDir });
    const app = await buildApp({
      store,
      config: {
        appId: APP_ID,
        adminApiKey: ADMIN_KEY,
        searchApiKey: SEARCH_KEY,
        apiExtensions: [(api) => void api.post('/1/vitrine/echo', { config: { acl: 'search' } }, async (request) => ({ echoed: request.body }))],
        onSearch: ({ indexName, params, response, userToken }) => {
          seen.push({ indexName, query: params.query, nbHits: response.nbHits, userToken });
          throw new Error('observer bugs never fail a search');
        },
      },
    });
    try {
      await store.waitForTask((await store.saveObjects('p', [{ objectID: '1', name: 'lamp' }])).taskID);
      const headers = { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': SEARCH_KEY, 'x-algolia-usertoken': 'user-7' };
      const search = await app.inject({ method: 'POST', url: '/1/indexes/*/queries', headers, payload: JSON.stringify({ requests: [{ indexName: 'p', query: 'lamp' }] }) });
      expect(search.statusCode).toBe(200);
      expect(seen).toEqual([{ indexName: 'p', query: 'lamp', nbHits: 1, userToken: 'user-7' }]);
      // The extension's route is authenticated like the core ones and parses text/plain JSON.
      const event = await app.inject({ method: 'POST', url: '/1/vitrine/echo', headers: { ...headers, 'content-type': 'text/plain' }, payload: '{"events":[]}' });
      expect(event.json()).toEqual({ echoed: { events: [] } });
      const anonymous = await app.inject({ method: 'POST', url: '/1/events', payload: '{}' });
      expect(anonymous.statusCode).toBe(403);
    } finally {
      await app.close();
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
