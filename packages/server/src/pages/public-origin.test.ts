/**
 * Absolute URLs of the shop's pages (canonical and Open Graph URLs through the renderer's `origin`, `sitemap.xml`,
 * its pages, `robots.txt`) never take a Host header a client made up (issue 49, item 6), over a real socket:
 * they use the configured public URL (`publicUrl`, VITRINE_PUBLIC_URL), else the host a trusted proxy forwarded,
 * else the request's host only when it is a loopback name. And the sitemap goes compressed to clients that
 * accept it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startServer } from '../index.ts';
import type { RunningServer, ServerConfig } from '../index.ts';
import { ADMIN_KEY, APP_ID, SEARCH_KEY, removeDir, tempDir } from '../test-support.ts';

const RENDERER = `
  export async function render(request) {
    return { status: 200, html: '<html><link rel="canonical" href="' + request.origin + '/c/lamps"></html>' };
  }
  export async function sitemapPaths() { return Array.from({ length: 3000 }, (_, i) => '/p/product-' + i); }
`;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

describe('the origin of absolute URLs', () => {
  let server: RunningServer | undefined;
  const dirs: string[] = [];
  afterEach(async () => {
    await server?.close();
    server = undefined;
    for (const dir of dirs.splice(0)) removeDir(dir);
  });

  async function start(config: Partial<ServerConfig> = {}): Promise<RunningServer> {
    const dataDir = tempDir();
    const staticRoot = mkdtempSync(join(tmpdir(), 'vitrine-static-'));
    dirs.push(dataDir, staticRoot);
    writeFileSync(join(staticRoot, 'index.html'), '<!doctype html><title>shell</title>');
    writeFileSync(join(staticRoot, 'renderer.mjs'), RENDERER);
    server = await startServer({
      ...config, dataDir, appId: APP_ID, adminApiKey: ADMIN_KEY, searchApiKey: SEARCH_KEY, host: '127.0.0.1', port: 0, staticRoot,
      storefrontConfig: { provider: 'vitrine', appId: APP_ID, searchApiKey: SEARCH_KEY, indexName: 'products' },
      storefrontRenderer: join(staticRoot, 'renderer.mjs'),
    });
    return server;
  }

  /** A GET with exactly these headers (Host included: fetch would not send a made-up one). */
  const get = (path: string, headers: Record<string, string>) =>
    new Promise<Answer>((resolve, reject) => {
      const request = httpRequest({ host: '127.0.0.1', port: server!.port, path, headers: { accept: 'text/html', ...headers } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
      });
      request.on('error', reject);
      request.end();
    });
  /** Every absolute URL's origin in what the shop answers to these headers: page, sitemap index and page, robots.txt. */
  const originsSeen = async (headers: Record<string, string>) => {
    const texts = await Promise.all(['/c/lamps', '/sitemap.xml', '/sitemaps/1.xml', '/robots.txt'].map(async (path) => (await get(path, headers)).body.toString()));
    // Less the sitemap protocol's namespace.
    return [...new Set(texts.join('\n').match(/https?:\/\/[^/"<\s]+/g))].filter((origin) => origin !== 'http://www.sitemaps.org').sort();
  };

  it('never reflects a made-up Host header without configuration; a loopback one is taken as it is', async () => {
    await start();
    expect(await originsSeen({ host: 'evil.example' })).toEqual(['http://localhost']);
    expect(await originsSeen({ host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-for': '203.0.113.5', 'x-forwarded-proto': 'https' })).toEqual(['http://localhost']);
    expect(await originsSeen({ host: `localhost:${server!.port}` })).toEqual([`http://localhost:${server!.port}`]);
    expect(await originsSeen({ host: `127.0.0.1:${server!.port}` })).toEqual([`http://127.0.0.1:${server!.port}`]);
  });

  it('uses the configured public URL, or the one among several that the request names', async () => {
    await start({ publicUrl: ['https://shop.example.com', 'https://boutique.example.fr/'] });
    expect(await originsSeen({ host: 'evil.example' })).toEqual(['https://shop.example.com']);
    expect(await originsSeen({ host: `localhost:${server!.port}` })).toEqual(['https://shop.example.com']);
    expect(await originsSeen({ host: 'boutique.example.fr' })).toEqual(['https://boutique.example.fr']);
  });

  it('takes the host a trusted proxy forwarded, and only from it', async () => {
    await start({ trustProxy: '127.0.0.1' });
    const proxied = { host: 'internal:3000', 'x-forwarded-host': 'shop.example.org', 'x-forwarded-for': '203.0.113.5', 'x-forwarded-proto': 'https' };
    expect(await originsSeen(proxied)).toEqual(['https://shop.example.org']);
    // A Host header the proxy passed on (nginx's `proxy_set_header Host $host`), no X-Forwarded-Host.
    expect(await originsSeen({ host: 'shop.example.org', 'x-forwarded-for': '203.0.113.5' })).toEqual(['http://shop.example.org']);
    // Straight from a client (no forwarded address): not through the proxy.
    expect(await originsSeen({ host: 'evil.example' })).toEqual(['http://localhost']);
  });

  it('refuses a public URL that is not an http(s) origin', async () => {
    await expect(start({ publicUrl: 'shop.example.com' })).rejects.toThrow(/publicUrl/);
    await expect(start({ publicUrl: 'https://shop.example.com/store' })).rejects.toThrow(/publicUrl/);
  });

  it('sends the sitemap compressed to clients that accept it', async () => {
    await start({ publicUrl: 'https://shop.example.com' });
    const plain = await get('/sitemaps/1.xml', {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toMatch(/product-2999/);
    const brotli = await get('/sitemaps/1.xml', { 'accept-encoding': 'gzip, deflate, br' });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(brotli.body).toString()).toBe(plain.body.toString());
    expect(brotli.body.length).toBeLessThan(plain.body.length / 5);
    const gzip = await get('/sitemap.xml', { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).toString()).toBe((await get('/sitemap.xml', {})).body.toString());
  });
});
