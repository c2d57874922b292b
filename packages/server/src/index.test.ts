import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, startServer, Store } from './index.ts';
import type { RunningServer } from './index.ts';
import { ADMIN_KEY, APP_ID, SEARCH_KEY, tempDir } from './test-helpers.ts';

describe('startServer', () => {
  const dataDir = tempDir();
  const staticRoot = tempDir('vitrine-static-');
  let server: RunningServer;

  beforeAll(async () => {
    writeFileSync(join(staticRoot, 'index.html'), '<!doctype html><title>shop</title>');
    mkdirSync(join(staticRoot, 'assets'));
    writeFileSync(join(staticRoot, 'assets', 'app.js'), 'console.log(1)');
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

  it('serves the storefront with an SPA fallback, but not for API paths', async () => {
    expect(await (await fetch(`${server.url}/`)).text()).toContain('<title>shop</title>');
    expect(await (await fetch(`${server.url}/product/42-lamp?x=1`)).text()).toContain('<title>shop</title>');
    expect(await (await fetch(`${server.url}/assets/app.js`)).text()).toBe('console.log(1)');
    const api = await fetch(`${server.url}/1/nothing`);
    expect(api.status).toBe(404);
    expect(await api.json()).toEqual({ message: 'Path not found: GET /1/nothing', status: 404 });
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
    await app.close();
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
    expect(logged).toContain('/1/indexes');
    for (const secret of [ADMIN_KEY, SEARCH_KEY, 'wrong-key-attempt']) expect(logged).not.toContain(secret);
  });
});
