/**
 * The page routes with renderer modules written for the test (real files loaded by `import()`), over a real
 * socket: the renderer's status and HTML are sent compressed as accepted; a renderer that throws gives the app
 * shell with 200 and a log line without the search key; `/admin` never reaches the renderer.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { startServer } from '../index.ts';
import type { RunningServer } from '../index.ts';
import { ADMIN_KEY, APP_ID, SEARCH_KEY, removeDir, securedApiKey, tempDir } from '../test-support.ts';

const shell = '<!doctype html><html><head><title>Shell</title></head><body><div id="root"><p>Loading</p></div></body></html>';

function rendererModule(dir: string, body: string): string {
  const path = join(dir, 'renderer.mjs');
  writeFileSync(path, body);
  return path;
}

describe('server-rendered pages', () => {
  let server: RunningServer | undefined;
  const dirs: string[] = [];
  afterEach(async () => {
    await server?.close();
    server = undefined;
    for (const dir of dirs.splice(0)) removeDir(dir);
  });

  async function start(renderer: string, storefrontKey = SEARCH_KEY) {
    const dataDir = tempDir();
    const staticRoot = mkdtempSync(join(tmpdir(), 'vitrine-static-'));
    dirs.push(dataDir, staticRoot);
    writeFileSync(join(staticRoot, 'index.html'), shell);
    const modulePath = rendererModule(staticRoot, renderer);
    server = await startServer({
      dataDir, appId: APP_ID, adminApiKey: ADMIN_KEY, searchApiKey: SEARCH_KEY, port: 0, staticRoot,
      storefrontConfig: { provider: 'vitrine', appId: APP_ID, searchApiKey: storefrontKey, indexName: 'products' },
      storefrontRenderer: modulePath,
    });
    return server;
  }

  it("renders with the rights of the storefront's key: a secured key's filters apply, and its referers are checked against the page", async () => {
    const listing = `
      export async function render(request, backend) {
        const { results } = await backend.search([{ indexName: 'products', params: { query: '' } }]);
        return { status: 200, html: '<html>' + results[0].hits.map((hit) => hit.objectID).sort().join(',') + '</html>' };
      }
      export async function sitemapPaths() { return ['/']; }
    `;
    const pageOf = async (storefrontKey: string) => {
      const running = await start(listing, storefrontKey);
      const { store } = running;
      await store.waitForTask((await store.saveObjects('products', [{ objectID: 'cheap', price: 5 }, { objectID: 'dear', price: 50 }])).taskID);
      const text = await (await fetch(`${running.url}/c/x`, { headers: { accept: 'text/html', 'accept-encoding': 'identity' } })).text();
      await running.close();
      server = undefined;
      return text;
    };
    expect(await pageOf(SEARCH_KEY)).toBe('<html>cheap,dear</html>');
    expect(await pageOf(securedApiKey(SEARCH_KEY, { filters: 'price < 10' }))).toBe('<html>cheap</html>');
    // Only usable from another site: the shopper gets the app shell, as the browser's searches would be refused.
    expect(await pageOf(securedApiKey(SEARCH_KEY, { referers: ['https://elsewhere.example/*'] }))).toBe(shell);
    // A key this server did not issue (a hosted Algolia one): the page reads as the search-only key.
    expect(await pageOf(securedApiKey('some-other-applications-key', { filters: 'price < 10' }))).toBe('<html>cheap,dear</html>');
  });

  it("sends the renderer's page with its status, compressed when the client accepts it", async () => {
    const running = await start(`
      export async function render(request, backend) {
        const { results } = await backend.search([{ indexName: 'products', params: { query: '' } }]).catch(() => ({ results: [] }));
        return { status: request.url.startsWith('/nope') ? 404 : 200, html: '<html>page ' + request.url + ' from ' + request.origin + ' ' + results.length + '</html>' };
      }
      export async function sitemapPaths() { return ['/', '/p/a-1']; }
    `);
    const found = await fetch(`${running.url}/c/x?q=1`, { headers: { accept: 'text/html', 'accept-encoding': 'identity' } });
    expect(found.status).toBe(200);
    expect(await found.text()).toBe(`<html>page /c/x?q=1 from ${running.url} 0</html>`);
    const missing = await fetch(`${running.url}/nope`, { headers: { accept: 'text/html' } });
    expect(missing.status).toBe(404);
    // Raw bytes over a socket, to see the encoding itself (fetch would decode it).
    const { request } = await import('node:http');
    const body = await new Promise<Buffer>((resolve, reject) => {
      request(`${running.url}/`, { headers: { accept: 'text/html', 'accept-encoding': 'br' } }, (response) => {
        expect(response.headers['content-encoding']).toBe('br');
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk)).on('end', () => resolve(Buffer.concat(chunks)));
      }).on('error', reject).end();
    });
    expect(brotliDecompressSync(body).toString()).toBe(`<html>page / from ${running.url} 0</html>`);
    const sitemap = await (await fetch(`${running.url}/sitemaps/1.xml`)).text();
    expect(sitemap).toContain(`<loc>${running.url}/p/a-1</loc>`);
  });

  it('falls back to the app shell with 200 when rendering fails, and logs the failure without the key', async () => {
    const lines: string[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void lines.push(args.map(String).join(' '));
    try {
      const running = await start(`
        export async function render(request) { throw new Error('renderer exploded on ' + request.url + ' with ' + JSON.stringify(request.config).length); }
        export async function sitemapPaths() { return []; }
      `);
      const response = await fetch(`${running.url}/p/lamp-1`, { headers: { accept: 'text/html' } });
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(shell);
      expect(lines.join('\n')).toMatch(/page rendering failed[\s\S]*renderer exploded on \/p\/lamp-1/);
      expect(lines.join('\n')).not.toContain(SEARCH_KEY);
    } finally {
      console.error = original;
    }
  });

  it('serves the console as the app shell without calling the renderer', async () => {
    const running = await start(`
      export async function render() { return { status: 200, html: 'rendered' }; }
      export async function sitemapPaths() { return []; }
    `);
    const response = await fetch(`${running.url}/admin/keys`, { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(shell);
    expect(await (await fetch(`${running.url}/`, { headers: { accept: 'text/html' } })).text()).toBe('rendered');
  });
});
