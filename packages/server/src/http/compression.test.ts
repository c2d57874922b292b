/**
 * Compression over a real socket, read with `node:http` (which, unlike fetch, leaves the body as sent): the
 * storefront's precompressed files and the API's JSON, for clients that accept brotli, gzip or nothing.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { algoliasearch } from 'algoliasearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_ID, SEARCH_KEY, startTestServer, tempDir } from '../test-support.ts';
import type { TestServer } from '../test-support.ts';
import { COMPRESSION_THRESHOLD_BYTES } from './compression.ts';

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body as it came over the wire. */
  bytes: Buffer;
  /** The body decoded according to `content-encoding`. */
  text: string;
}

function send(url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const bytes = Buffer.concat(chunks);
        const encoding = res.headers['content-encoding'];
        const decoded = encoding === 'br' ? brotliDecompressSync(bytes) : encoding === 'gzip' ? gunzipSync(bytes) : bytes;
        resolve({ status: res.statusCode!, headers: res.headers, bytes, text: decoded.toString() });
      });
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

const script = `export const catalogue = ${JSON.stringify(Array.from({ length: 200 }, (_, i) => `product number ${i}`))};\n`;
const records = Array.from({ length: 40 }, (_, i) => ({ objectID: String(i), name: `Desk lamp ${i}`, description: `A lamp with a brass arm, number ${i}. `.repeat(10) }));
const searchHeaders = { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': SEARCH_KEY };

describe('compression', () => {
  const staticRoot = tempDir('vitrine-static-');
  const encodings: Array<string | undefined> = [];
  let t: TestServer;

  beforeAll(async () => {
    writeFileSync(join(staticRoot, 'index.html'), '<!doctype html><title>shop</title>');
    mkdirSync(join(staticRoot, 'assets'));
    // As the storefront's build leaves them: the file, its brotli and its gzip copies.
    writeFileSync(join(staticRoot, 'assets', 'app.js'), script);
    writeFileSync(join(staticRoot, 'assets', 'app.js.br'), brotliCompressSync(script));
    writeFileSync(join(staticRoot, 'assets', 'app.js.gz'), gzipSync(script));
    t = await startTestServer({
      config: {
        staticRoot,
        // Records what the server sent each API call, after compression.
        apiExtensions: [(api) => void api.addHook('onResponse', async (request, reply) => {
          if (request.url.includes('/queries')) encodings.push(reply.getHeader('content-encoding') as string | undefined);
        })],
      },
      index: { name: 'products', settings: { searchableAttributes: ['name', 'description'] }, records },
    });
  });
  afterAll(async () => {
    await t.close();
    rmSync(staticRoot, { recursive: true, force: true });
  });

  it('sends the build’s brotli or gzip copy of a file to a client that accepts it, the file itself otherwise', async () => {
    const url = `${t.url}/assets/app.js`;
    const br = await send(url, { headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.bytes.length).toBeLessThan(script.length / 4);
    const gzip = await send(url, { headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    const identity = await send(url);
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.bytes.length).toBe(Buffer.byteLength(script));
    for (const response of [br, gzip, identity]) {
      expect(response.text).toBe(script);
      expect(response.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
      // Every variant says it depends on Accept-Encoding, so that caches keep them apart; and stays immutable.
      expect(response.headers.vary).toBe('accept-encoding');
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
  });

  it('compresses API answers of 1 KB or more for clients that accept it, brotli first', async () => {
    const url = `${t.url}/1/indexes/products/query`;
    const body = JSON.stringify({ query: 'lamp', hitsPerPage: 20 });
    const identity = await send(url, { method: 'POST', headers: searchHeaders, body });
    expect(identity.headers['content-encoding']).toBeUndefined();
    // The size of an InstantSearch answer: over the plugin's default limit for compressing in one call (8 KB).
    expect(identity.bytes.length).toBeGreaterThan(16 * COMPRESSION_THRESHOLD_BYTES);
    const expected = JSON.parse(identity.text) as { nbHits: number };
    expect(expected.nbHits).toBe(records.length);
    for (const [accepted, encoding] of [['gzip, deflate, br, zstd', 'br'], ['br;q=0.5, gzip', 'gzip'], ['gzip', 'gzip'], ['identity', undefined]] as const) {
      const response = await send(url, { method: 'POST', headers: { ...searchHeaders, 'accept-encoding': accepted }, body });
      expect(response.status, accepted).toBe(200);
      expect(response.headers['content-encoding'], accepted).toBe(encoding);
      if (encoding) {
        expect(response.headers.vary, accepted).toBe('accept-encoding');
        expect(response.bytes.length, accepted).toBeLessThan(identity.bytes.length / 3);
        // Compressed in one call, its length known: not through a stream (chunked), which costs more CPU than it saves.
        expect(response.headers['content-length'], accepted).toBe(String(response.bytes.length));
      }
      // Everything but processingTimeMS is the same answer.
      expect({ ...JSON.parse(response.text), processingTimeMS: 0 }, accepted).toEqual({ ...expected, processingTimeMS: 0 });
    }
  });

  it('leaves answers under 1 KB as they are', async () => {
    const small = await send(`${t.url}/1/indexes/products/query`, {
      method: 'POST',
      headers: { ...searchHeaders, 'accept-encoding': 'gzip, deflate, br' },
      body: JSON.stringify({ query: 'lamp', hitsPerPage: 0 }),
    });
    expect(small.status).toBe(200);
    expect(small.bytes.length).toBeLessThan(COMPRESSION_THRESHOLD_BYTES);
    expect(small.headers['content-encoding']).toBeUndefined();
    const alive = await send(`${t.url}/1/isalive`, { headers: { 'accept-encoding': 'br' } });
    expect(alive.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(alive.text)).toEqual({ message: 'server is alive' });
  });

  it('works with the official v5 client, which asks for gzip and decodes it', async () => {
    const client = algoliasearch(APP_ID, SEARCH_KEY, { hosts: [{ url: t.host, protocol: 'http', accept: 'readWrite' }] });
    encodings.length = 0;
    const { results } = await client.search({ requests: [{ indexName: 'products', query: 'lamp', hitsPerPage: 20 }] });
    expect((results[0] as { nbHits: number }).nbHits).toBe(records.length);
    expect(encodings).toEqual(['gzip']);
  });
});
