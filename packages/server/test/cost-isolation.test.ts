/**
 * Cost isolation: a client sending the costliest search requests it can build with the public search key does
 * not stall the shop. The server runs as `vitrine start` runs it on two cores (one search thread), as a child
 * process whose memory is read from /proc, over the demo catalogue at 10,000 products. The heavy client
 * (`fixtures/heavy-client.ts`, a process of its own, from 127.0.0.1) sends pages of 1,000 hits with everything
 * highlighted, a hundred of them per multi-query, huge tags, a hundred uncached queries counting every facet,
 * the longest lists and the most parameters a search takes (and more, refused), 170-word queries with typos
 * and the sitemap (the built storefront is served, with its renderer), on four connections, for ten seconds; meanwhile a shopper (from 127.0.0.2) types InstantSearch's
 * multi-queries. The shopper's searches keep a p99 within 100 ms (on a machine so slow that the quiet median,
 * measured just before, is past a fifteenth of that: within fifteen quiet medians), and the server's RSS within 1 GB.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoSettings, generateProducts } from '@vitrine/demo';
import { ADMIN_KEY, APP_ID, SEARCH_KEY, removeDir, spawnServer, tempDir, type ServerProcess } from '../src/test-support.ts';

const PRODUCTS = 10_000;
const ATTACK_MS = 10_000;
const MAX_PROBE_P99_MS = 100;
const MAX_RSS_MB = 1024;

const dataDir = tempDir('vitrine-cost-');
let server: ServerProcess;
/** Words of the catalogue's product names, which the shopper types a letter at a time. */
const words: string[] = [];

/** The server's resident memory, and its peak, in MB (Linux). */
function memory(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)![1]) / 1024;
  return { rss: field('VmRSS'), peak: field('VmHWM') };
}

async function admin(method: string, path: string, body: unknown): Promise<{ taskID?: number }> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': ADMIN_KEY },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { taskID?: number };
}

/** The shopper: its own address, a keep-alive connection as a browser keeps. */
const shopper = new Agent({ keepAlive: true, maxSockets: 1, localAddress: '127.0.0.2' } as ConstructorParameters<typeof Agent>[0]);

/** One InstantSearch multi-query (the hits with their facets, and the refined facet's own counts); its latency. */
function shop(query: string, brand: string): Promise<number> {
  const facets = encodeURIComponent(JSON.stringify(['brand', 'color', 'rating', 'hierarchicalCategories.lvl0']));
  const refined = encodeURIComponent(JSON.stringify([[`brand:${brand}`]]));
  const tags = 'highlightPreTag=__ais-highlight__&highlightPostTag=__%2Fais-highlight__';
  const body = JSON.stringify({
    requests: [
      { indexName: 'products', params: `${tags}&hitsPerPage=20&maxValuesPerFacet=10&query=${query}&facets=${facets}&facetFilters=${refined}&page=0` },
      { indexName: 'products', params: `${tags}&hitsPerPage=0&maxValuesPerFacet=10&query=${query}&facets=brand&analytics=false&clickAnalytics=false&page=0` },
    ],
  });
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}/1/indexes/*/queries`, {
      method: 'POST',
      agent: shopper,
      headers: { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': SEARCH_KEY, 'content-type': 'text/plain' },
    }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - started) : reject(new Error(`shopper got ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Types queries for `ms`, a keystroke every 20 ms or so; the latencies. */
async function shopFor(ms: number): Promise<number[]> {
  const latencies: number[] = [];
  const until = performance.now() + ms;
  for (let i = 0; performance.now() < until; i++) {
    const word = words[i % words.length];
    const typed = word.slice(0, 2 + (i % (word.length - 1)));
    latencies.push(await shop(typed, ['Lumio', 'Nordhus', 'Vertek'][i % 3]));
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return latencies;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

beforeAll(async () => {
  server = await spawnServer({
    VITRINE_DATA_DIR: dataDir,
    VITRINE_SEARCH_THREADS: '1',
    VITRINE_STOREFRONT_DIST: join(import.meta.dirname, '..', '..', 'storefront', 'dist'),
  });
  await admin('PUT', '/1/indexes/products/settings', demoSettings);
  let batch: unknown[] = [];
  let last = 0;
  for (const product of generateProducts(PRODUCTS)) {
    if (words.length < 500) for (const word of product.name.toLowerCase().split(/\s+/)) if (word.length > 3 && !words.includes(word)) words.push(word);
    batch.push({ action: 'updateObject', body: product });
    if (batch.length === 1000) {
      last = (await admin('POST', '/1/indexes/products/batch', { requests: batch })).taskID!;
      batch = [];
    }
  }
  for (;;) {
    const response = await fetch(`${server.url}/1/indexes/products/task/${last}`, { headers: { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': ADMIN_KEY } });
    if (((await response.json()) as { status: string }).status === 'published') break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}, 120_000);

afterAll(async () => {
  shopper.destroy();
  await server?.kill();
  removeDir(dataDir);
});

describe('cost isolation', () => {
  it('keeps answering a shopper within 100 ms (p99) while another client sends the costliest requests it can', async () => {
    const before = await shopFor(2000);
    const heavy = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', join(import.meta.dirname, 'fixtures', 'heavy-client.ts')], {
      env: { ...process.env, HEAVY_URL: server.url, HEAVY_APP_ID: APP_ID, HEAVY_KEY: SEARCH_KEY, HEAVY_CONNECTIONS: '4' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    heavy.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<void>((resolve) => heavy.once('exit', () => resolve()));
    let peakRss = 0;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, memory(server.child.pid!).rss)), 50);
    let during: number[];
    try {
      // The heavy client's first requests are under way before the shopper's are measured.
      await new Promise((resolve) => setTimeout(resolve, 500));
      during = await shopFor(ATTACK_MS);
    } finally {
      clearInterval(sampler);
      heavy.kill('SIGTERM');
      await exited;
    }
    const { results, errors, bytes } = JSON.parse(/DONE (.+)/.exec(output)![1]) as { results: Record<string, number>; errors: Record<string, string>; bytes: number };
    const { peak } = memory(server.child.pid!);
    console.log(
      `shopper p50/p99/max: before ${percentile(before, 0.5).toFixed(1)}/${percentile(before, 0.99).toFixed(1)}/${Math.max(...before).toFixed(1)} ms, ` +
        `during ${percentile(during, 0.5).toFixed(1)}/${percentile(during, 0.99).toFixed(1)}/${Math.max(...during).toFixed(1)} ms (${during.length} searches); ` +
        `server RSS peak during ${peakRss.toFixed(0)} MB (VmHWM ${peak.toFixed(0)} MB); heavy client: ${JSON.stringify(results)}, ${(bytes / 1e6).toFixed(0)} MB received`,
    );

    // The heavy client was answered, with the limits' errors where it went past them.
    expect(results['hundredPages 400']).toBeGreaterThan(0);
    expect(errors['hundredPages 400']).toBe(
      '{"message":"Response too large: the limit is 10485760 bytes; ask for fewer hits, facet values, or highlighted or snippeted attributes","status":400}',
    );
    expect(results['hugeTags 400']).toBeGreaterThan(0);
    expect(errors['hugeTags 400']).toBe('{"message":"Parameter too long: \\"highlightPreTag\\" is 200000 bytes, the limit is 256","status":400}');
    expect(results['twoPages 200']).toBeGreaterThan(0);
    expect(results['hundredQueries 200']).toBeGreaterThan(0);
    expect(results['getPage 200']).toBeGreaterThan(0);
    expect(errors['longList 400']).toBe('{"message":"Parameter too long: \\"attributesToHighlight\\" has 60000 entries, the limit is 1000","status":400}');
    expect(errors['junkParams 400']).toBe('{"message":"Too many parameters: 30001, the limit is 200 per search","status":400}');
    for (const kind of ['fullList', 'manyParams', 'longQuery', 'sitemap']) expect(results[`${kind} 200`], kind).toBeGreaterThan(0);
    expect(Object.keys(results).every((key) => / (200|400)$/.test(key))).toBe(true);

    // A slow machine slows the quiet searches too (their median says how slow: the quiet p99 is only their
    // slowest, often the first); the heavy client may cost the shopper no more than that allows.
    expect(percentile(during, 0.99)).toBeLessThanOrEqual(Math.max(MAX_PROBE_P99_MS, 15 * percentile(before, 0.5)));
    expect(peakRss).toBeLessThan(MAX_RSS_MB);
    expect(peak).toBeLessThan(MAX_RSS_MB);
  }, 60_000);
});
