/**
 * HTTP benchmark (`npm run bench:http`): the server in its own process with a generated catalogue, loaded by
 * autocannon with InstantSearch-shaped multi-queries (a hits query plus one query per refined disjunctive
 * facet) mixed with a share of small write batches; then the same load against a bare Node HTTP server that
 * answers a fixed body of the same size. Prints throughput, latencies and the ratio.
 *
 *   node --import tsx packages/server/bench/http.ts [--size 100000] [--duration 10] [--connections 50] [--writes 0.1]
 *     [--apply-interval 0]   (the server's applyIntervalMs)
 *     [--cpu-prof <dir>]     (write a V8 CPU profile of the server process into <dir>)
 *     [--threads 0]          (the server's searchThreads)
 *
 * Do not run it while tests run: the machine's cores are shared.
 */
import autocannon from 'autocannon';
import type { Result } from 'autocannon';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { demoSettings, generateProducts } from '@vitrine/demo';
import { ADMIN_KEY, APP_ID, removeDir, spawnServer, tempDir } from '../src/test-support.ts';

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '100000' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    writes: { type: 'string', default: '0.1' },
    'apply-interval': { type: 'string', default: '0' },
    'cpu-prof': { type: 'string' },
    threads: { type: 'string', default: '0' },
  },
});
const SIZE = Number(values.size);
const DURATION = Number(values.duration);
const CONNECTIONS = Number(values.connections);
const WRITE_SHARE = Number(values.writes);
const headers = { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': ADMIN_KEY, 'content-type': 'text/plain' };

async function post(url: string, path: string, body: unknown, method = 'POST'): Promise<Record<string, unknown>> {
  const response = await fetch(`${url}${path}`, { method, headers, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

async function waitTask(url: string, taskID: number): Promise<void> {
  for (;;) {
    const response = await fetch(`${url}/1/indexes/products/task/${taskID}`, { headers });
    if (((await response.json()) as { status: string }).status === 'published') return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function summarize(name: string, result: Result): Record<string, string | number> {
  return {
    target: name,
    'req/s': Math.round(result.requests.average),
    'p50 ms': result.latency.p50,
    'p90 ms': result.latency.p90,
    'p99 ms': result.latency.p99,
    'max ms': result.latency.max,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

const dataDir = tempDir('vitrine-bench-');
const profileArgs = values['cpu-prof'] === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${values['cpu-prof']}`];
const server = await spawnServer(
  { VITRINE_DATA_DIR: dataDir, VITRINE_APPLY_INTERVAL_MS: String(values['apply-interval']), VITRINE_SEARCH_THREADS: String(values.threads) },
  undefined,
  profileArgs,
);
try {
  console.log(`seeding ${SIZE} products…`);
  const started = performance.now();
  await post(server.url, '/1/indexes/products/settings', demoSettings, 'PUT');
  const words = new Set<string>();
  const brands = new Set<string>();
  let batch: unknown[] = [];
  let lastTask = 0;
  for (const product of generateProducts(SIZE)) {
    if (words.size < 2000) for (const word of product.name.toLowerCase().split(/\s+/)) if (word.length > 3) words.add(word);
    if (brands.size < 200) brands.add(product.brand);
    batch.push({ action: 'updateObject', body: product });
    if (batch.length === 1000) {
      lastTask = (await post(server.url, '/1/indexes/products/batch', { requests: batch })).taskID as number;
      batch = [];
    }
  }
  if (batch.length > 0) lastTask = (await post(server.url, '/1/indexes/products/batch', { requests: batch })).taskID as number;
  await waitTask(server.url, lastTask);
  console.log(`seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const wordList = [...words];
  const brandList = [...brands];
  const pick = <T>(list: T[]): T => list[Math.floor(Math.random() * list.length)];
  const searchBody = () => {
    const word = pick(wordList);
    const query = word.slice(0, 2 + Math.floor(Math.random() * (word.length - 1)));
    const refined = [pick(brandList), pick(brandList)];
    const facets = ['brand', 'color', 'rating', 'hierarchicalCategories.lvl0'];
    return JSON.stringify({
      requests: [
        { indexName: 'products', query, hitsPerPage: 20, facets, facetFilters: [refined.map((b) => `brand:${b}`)], numericFilters: ['price>=1'] },
        { indexName: 'products', query, hitsPerPage: 0, facets: ['brand'], numericFilters: ['price>=1'], analytics: false, clickAnalytics: false },
      ],
    });
  };
  const writeBody = () =>
    JSON.stringify({
      requests: Array.from({ length: 10 }, () => ({
        action: 'partialUpdateObject',
        body: { objectID: String(Math.floor(Math.random() * SIZE)), popularity: { _operation: 'Increment', value: 1 } },
      })),
    });
  // The bare server answers the median size of a sample of responses (one response alone may have no hits).
  const sizes: number[] = [];
  for (let i = 0; i < 101; i++) {
    const sample = await fetch(`${server.url}/1/indexes/*/queries`, { method: 'POST', headers, body: searchBody() });
    sizes.push((await sample.arrayBuffer()).byteLength);
  }
  const responseBytes = sizes.sort((a, b) => a - b)[sizes.length >> 1];
  console.log(`median multi-query response: ${responseBytes} bytes (of ${sizes.length} sampled)`);

  const load = (url: string) =>
    autocannon({
      url,
      connections: CONNECTIONS,
      duration: DURATION,
      headers,
      requests: [
        {
          method: 'POST',
          setupRequest: (request) =>
            Math.random() < WRITE_SHARE
              ? { ...request, path: '/1/indexes/products/batch', body: writeBody() }
              : { ...request, path: '/1/indexes/*/queries', body: searchBody() },
        },
      ],
    });
  // The load generator shares the machine's cores with the server: say how much of them it took.
  const loadCpuBefore = process.cpuUsage();
  const vitrine = await load(server.url);
  const loadCpu = process.cpuUsage(loadCpuBefore);
  const loadCores = (loadCpu.user + loadCpu.system) / 1e6 / DURATION;
  // A graceful stop, waited for, so that a CPU profile is written and the bare server gets the cores to itself.
  const stopped = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await stopped;
  const bare = await spawnServer({ BODY_BYTES: String(responseBytes) }, join(import.meta.dirname, 'bare-server.ts'));
  const baseline = await load(bare.url);
  bare.child.kill('SIGTERM');
  console.table([summarize('vitrine', vitrine), summarize('bare node http', baseline)]);
  console.log(`throughput ratio vitrine / bare: ${(vitrine.requests.average / baseline.requests.average).toFixed(3)}`);
  console.log(`the load generator used ${loadCores.toFixed(2)} of the machine's cores while loading vitrine`);
  console.log(
    `catalogue ${SIZE}, ${CONNECTIONS} connections, ${DURATION} s, ${Math.round(WRITE_SHARE * 100)}% writes of 10 partial updates, applyIntervalMs ${values['apply-interval']}, searchThreads ${values.threads}`,
  );
} finally {
  await server.kill();
  removeDir(dataDir);
}
