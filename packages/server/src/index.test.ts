import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, startServer, Store } from './index.ts';
import type { RunningServer } from './index.ts';
import { ADMIN_KEY, APP_ID, SEARCH_KEY, startTestServer, tempDir } from './test-support.ts';

describe('startServer', () => {
  const dataDir = tempDir();
  const staticRoot = tempDir('vitrine-static-');
  let server: RunningServer;
  /** What a browser sends when navigating. */
  const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

  beforeAll(async () => {
    writeFileSync(join(staticRoot, 'index.html'), '<!doctype html><title>shop</title>');
    mkdirSync(join(staticRoot, 'assets'));
    writeFileSync(join(staticRoot, 'assets', 'app.js'), 'console.log(1)');
    writeFileSync(join(staticRoot, 'robots.txt'), 'User-agent: *');
    server = await startServer({
      dataDir,
      appId: APP_ID,
      adminApiKey: ADMIN_KEY,
      searchApiKey: SEARCH_KEY,
      staticRoot,
      storefrontConfig: { provider: 'vitrine', indexName: 'products' },
      extend: [(app) => void app.get('/images/:name', async (request) => `image ${(request.params as { name: string }).name}`)],
    });
  });
  afterAll(async () => {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(staticRoot, { recursive: true, force: true });
  });

  it('listens on an ephemeral loopback port and reports its URL', async () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    expect(server.port).toBeGreaterThan(0);
    expect(await (await fetch(`${server.url}/1/isalive`)).json()).toEqual({ message: 'server is alive' });
  });

  it('says it is not ready (503) until told, while answering every other request', async () => {
    const dir = tempDir();
    const starting = await startServer({ dataDir: dir, appId: APP_ID, adminApiKey: ADMIN_KEY, searchApiKey: SEARCH_KEY, ready: false });
    try {
      const notReady = await fetch(`${starting.url}/1/isalive`);
      expect(notReady.status).toBe(503);
      expect(await notReady.json()).toEqual({ message: 'Not ready: the indexes are still being loaded', status: 503 });
      await starting.store.waitForTask((await starting.store.saveObjects('products', [{ objectID: '1', name: 'lamp' }])).taskID);
      const search = await fetch(`${starting.url}/1/indexes/products/query`, { method: 'POST', headers: { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': SEARCH_KEY }, body: '{"query":"lamp"}' });
      expect(((await search.json()) as { nbHits: number }).nbHits).toBe(1);
      starting.setReady(true);
      expect(await (await fetch(`${starting.url}/1/isalive`)).json()).toEqual({ message: 'server is alive' });
    } finally {
      await starting.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('closes at once after answering a search built over several slices', async () => {
    // Such a call comes back in pieces. Streamed, its response could end after the client had every byte, and a
    // server closing then kept the keep-alive connection open for its timeout (72 s). A first search, answered
    // while the search thread starts, takes more than a slice.
    for (let round = 0; round < 4; round++) {
      const t = await startTestServer({ config: { searchThreads: 1 }, index: { name: 'products', settings: {}, records: [{ objectID: '1', name: 'lamp' }] } });
      expect((await t.search({ query: '' })).nbHits).toBe(1);
      // Normally a few hundred milliseconds; 5 s is far from both that and the keep-alive timeout.
      let bound: NodeJS.Timeout | undefined;
      const closed = await Promise.race([t.close().then(() => true), new Promise<boolean>((resolve) => (bound = setTimeout(() => resolve(false), 5000)))]);
      clearTimeout(bound);
      expect(closed).toBe(true);
    }
  }, 60_000);

  it('serves the storefront with an SPA fallback, but not for API paths', async () => {
    expect(await (await fetch(`${server.url}/`)).text()).toContain('<title>shop</title>');
    expect(await (await fetch(`${server.url}/product/42-lamp?x=1`, { headers: html })).text()).toContain('<title>shop</title>');
    expect(await (await fetch(`${server.url}/assets/app.js`)).text()).toBe('console.log(1)');
    const api = await fetch(`${server.url}/1/nothing`, { headers: html });
    expect(api.status).toBe(404);
    expect(await api.json()).toEqual({ message: 'Path not found: GET /1/nothing', status: 404 });
  });

  it('answers a missing file with a 404, never with the app shell', async () => {
    // A page of an older build asking for its bundle: HTML as JavaScript would be a blank page.
    const script = { accept: '*/*' };
    const image = { accept: 'image/avif,image/webp,*/*;q=0.8' };
    for (const [path, headers] of [['/assets/index-0ld.js', script], ['/assets/nested/style.css', { accept: 'text/css,*/*;q=0.1' }], ['/assets', html], ['/assets/x', html], ['/favicon.ico', image], ['/old-bundle.js', script]] as const) {
      const response = await fetch(`${server.url}${path}`, { headers });
      expect(response.status, path).toBe(404);
      expect(await response.text(), path).not.toContain('<title>shop</title>');
    }
    // A browser navigating to a product whose objectID holds a dot still gets the app.
    expect(await (await fetch(`${server.url}/p/lamp-sku.1234`, { headers: html })).text()).toContain('<title>shop</title>');
    expect((await fetch(`${server.url}/p/lamp-sku.1234`, { headers: script })).status).toBe(404);
    // Only GET/HEAD requests of clients that take HTML get the shell.
    expect((await fetch(`${server.url}/product/42`, { headers: { accept: 'application/json' } })).status).toBe(404);
    expect((await fetch(`${server.url}/product/42`, { method: 'POST', headers: html, body: '{}' })).status).toBe(404);
    expect((await fetch(`${server.url}/product/42`, { method: 'HEAD', headers: html })).status).toBe(200);
  });

  it('caches hashed assets for a year as immutable and revalidates index.html', async () => {
    const asset = await fetch(`${server.url}/assets/app.js`);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    for (const path of ['/', '/index.html', '/product/42-lamp']) {
      const page = await fetch(`${server.url}${path}`, { headers: html });
      expect(page.status, path).toBe(200);
      expect(page.headers.get('cache-control'), path).toBe('no-cache');
    }
    expect((await fetch(`${server.url}/robots.txt`)).headers.get('cache-control')).toBe('no-cache');
  });

  it("answers requests the HTTP parser refuses with Algolia's error body", async () => {
    const long = await fetch(`${server.url}/1/indexes/products?query=${'x'.repeat(20_000)}`, { headers: { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': SEARCH_KEY } });
    expect(long.status).toBe(431);
    expect(await long.json()).toEqual({ message: expect.any(String), status: 431 });
    const raw = await new Promise<string>((resolve, reject) => {
      let answer = '';
      const socket = connect(server.port, '127.0.0.1', () => socket.write('NOT AN HTTP REQUEST\r\n\r\n'));
      socket.on('data', (chunk) => (answer += chunk.toString()));
      socket.on('close', () => resolve(answer));
      socket.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).toEqual({ message: expect.any(String), status: 400 });
  });

  it("answers invalid percent-encoding and over-long objectIDs in paths with Algolia's body, never echoing the path", async () => {
    const keys = { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': ADMIN_KEY };
    for (const path of ['/1/indexes/products/%FF', '/1/indexes/%E0%A4%A/settings', '/1/indexes/products/%FF/partial', '/p/%FF', '/sitemaps/%C3.xml']) {
      const response = await fetch(`${server.url}${path}`, { headers: keys });
      expect(response.status, path).toBe(400);
      expect(await response.json(), path).toEqual({ message: 'Invalid URL: malformed percent-encoding in the path', status: 400 });
    }
    const longID = 'x'.repeat(3000);
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const response = await fetch(`${server.url}/1/indexes/products/${longID}`, { method, headers: keys, body: method === 'PUT' ? '{}' : undefined });
      expect(response.status, method).toBe(414);
      expect(await response.json(), method).toEqual({ message: 'URI too long: an index name or objectID in the path is longer than 2048 characters', status: 414 });
    }
  });

  it('serves the storefront configuration and extension routes', async () => {
    expect(await (await fetch(`${server.url}/vitrine.config.json`)).json()).toEqual({ provider: 'vitrine', indexName: 'products' });
    expect(await (await fetch(`${server.url}/images/lamp.svg`)).text()).toBe('image lamp.svg');
  });

  it('exposes the store for in-process seeding', async () => {
    expect(server.store.hasIndex('seeded')).toBe(false);
    await server.store.setSettings('seeded', { attributesForFaceting: ['brand'] });
    const task = await server.store.saveObjects('seeded', [{ objectID: '1', brand: 'Lumio' }]);
    await server.store.waitForTask(task.taskID);
    const response = await fetch(`${server.url}/1/indexes/seeded/query`, {
      method: 'POST',
      headers: { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': SEARCH_KEY },
      body: JSON.stringify({ facets: ['brand'] }),
    });
    expect(await response.json()).toMatchObject({ nbHits: 1, facets: { brand: { Lumio: 1 } } });
  });
});

describe('request logging', () => {
  it('never writes API keys to the log, from headers or the query string', async () => {
    const dataDir = tempDir();
    const store = await Store.open({ dataDir });
    const stream = new PassThrough();
    let logged = '';
    stream.on('data', (chunk: Buffer) => (logged += chunk.toString()));
    const app = await buildApp({ store, config: { appId: APP_ID, adminApiKey: ADMIN_KEY, searchApiKey: SEARCH_KEY, log: true }, logStream: stream });
    await app.inject({ method: 'GET', url: `/1/indexes?x-algolia-api-key=${ADMIN_KEY}&x-algolia-application-id=${APP_ID}` });
    await app.inject({ method: 'GET', url: '/1/indexes', headers: { 'x-algolia-api-key': SEARCH_KEY, 'x-algolia-application-id': APP_ID } });
    await app.inject({ method: 'GET', url: '/1/indexes', headers: { 'x-algolia-api-key': 'wrong-key-attempt', 'x-algolia-application-id': APP_ID } });
    // Errors whose messages could quote the URL: a malformed path, an unknown route, a bad parameter, a 405.
    await app.inject({ method: 'GET', url: `/1/indexes/%E0%A4%A?x-algolia-api-key=${ADMIN_KEY}&x-algolia-application-id=${APP_ID}` });
    await app.inject({ method: 'GET', url: `/1/nowhere?x-algolia-api-key=${ADMIN_KEY}&x-algolia-application-id=${APP_ID}` });
    await app.inject({ method: 'GET', url: `/1/indexes/x?hitsPerPage=abc&x-algolia-api-key=${SEARCH_KEY}&x-algolia-application-id=${APP_ID}` });
    await app.inject({ method: 'GET', url: `/2/searches?index=x&limit=0&x-algolia-api-key=${ADMIN_KEY}&x-algolia-application-id=${APP_ID}` });
    await app.inject({ method: 'PATCH', url: `/1/indexes/x/settings?x-algolia-api-key=${ADMIN_KEY}&x-algolia-application-id=${APP_ID}` });
    await app.close();
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
    expect(logged).toContain('/1/indexes');
    for (const secret of [ADMIN_KEY, SEARCH_KEY, 'wrong-key-attempt']) expect(logged).not.toContain(secret);
  });
});
