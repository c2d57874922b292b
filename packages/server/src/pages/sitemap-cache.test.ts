/**
 * The sitemap is generated once per catalogue change: a renderer (a real module file, loaded by `import()`)
 * whose `sitemapPaths` numbers its calls, behind a real server: requests share one generation, a write applied
 * makes the next request generate again, a failure is not kept. And the cache's own bounds.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer } from '../index.ts';
import { ADMIN_KEY, APP_ID, SEARCH_KEY, removeDir, tempDir } from '../test-support.ts';
import { SitemapCache } from './sitemap-cache.ts';

describe('the sitemap behind a server', () => {
  let server: RunningServer | undefined;
  const dirs: string[] = [];
  afterEach(async () => {
    await server?.close();
    for (const dir of dirs.splice(0)) removeDir(dir);
  });

  it('generates the paths once for any number of requests, and again after a write', async () => {
    const dataDir = tempDir();
    const staticRoot = mkdtempSync(join(tmpdir(), 'vitrine-static-'));
    dirs.push(dataDir, staticRoot);
    writeFileSync(join(staticRoot, 'index.html'), '<!doctype html><html><body></body></html>');
    const renderer = join(staticRoot, 'renderer.mjs');
    writeFileSync(renderer, `
      let calls = 0;
      export async function render() { return { status: 200, html: '<html></html>' }; }
      export async function sitemapPaths() { calls++; return ['/', '/generation-' + calls]; }
    `);
    server = await startServer({
      dataDir, appId: APP_ID, adminApiKey: ADMIN_KEY, searchApiKey: SEARCH_KEY, port: 0, staticRoot, storefrontRenderer: renderer,
      storefrontConfig: { provider: 'vitrine', appId: APP_ID, searchApiKey: SEARCH_KEY, indexName: 'products' },
    });
    const page = async () => (await fetch(`${server!.url}/sitemaps/1.xml`)).text();
    const pages = await Promise.all([page(), page(), (await fetch(`${server.url}/sitemap.xml`)).text(), page()]);
    expect(pages[0]).toContain('/generation-1</loc>');
    expect(new Set([pages[0], pages[1], pages[3]]).size).toBe(1);
    expect(await page()).toContain('/generation-1</loc>');

    await server.store.waitForTask((await server.store.saveObjects('products', [{ objectID: 'p1' }])).taskID);
    expect(await page()).toContain('/generation-2</loc>');
    expect(await page()).toContain('/generation-2</loc>');
    expect((await fetch(`${server.url}/sitemaps/2.xml`)).status).toBe(404);
  });
});

describe('SitemapCache', () => {
  it('keeps no failure, no text built from paths an invalidation made stale, and at most 48 texts', async () => {
    let calls = 0;
    let fail = true;
    const cache = new SitemapCache(async () => {
      calls++;
      if (fail) throw new Error('index not loaded');
      return [`/g${calls}`];
    });
    await expect(cache.text('a', (paths) => paths.join())).rejects.toThrow('index not loaded');
    fail = false;
    expect(await cache.text('a', (paths) => paths.join())).toBe('/g2');

    // A write lands while a text is being built: that text answers its request but is not kept.
    cache.invalidate();
    const building = cache.text('a', (paths) => paths.join());
    cache.invalidate();
    expect(await building).toBe('/g3');
    expect(await cache.text('a', (paths) => paths.join())).toBe('/g4');

    let builds = 0;
    const build = (paths: readonly string[]) => (builds++, paths.join());
    for (let i = 0; i < 49; i++) await cache.text(`origin ${i}`, build);
    expect(builds).toBe(49);
    await cache.text('origin 48', build);
    expect(builds).toBe(49);
    await cache.text('origin 0', build);
    expect(builds).toBe(50);
    expect(await cache.text('missing', () => undefined)).toBeUndefined();
    expect(calls).toBe(4);
  });
});
