/**
 * `npm run bench:ssr`: how long the server takes to answer a server-rendered category page and product page at
 * the demo size (10,000 products, `VITRINE_DEMO_SIZE` to change), requests one at a time over loopback, as a
 * browser asks (`Accept: text/html`, brotli). Prints p50/p95/max per kind of page. Needs `npm run build`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startServer } from '@vitrine/server';
import { demoIndexName, demoReplicas, demoReplicaSettings, demoSettings, generateProducts } from '@vitrine/demo';
import { productPath, slugify } from '../src/lib/catalog.ts';
import { storefrontDistDir, storefrontRendererPath } from '../src/index.ts';

const size = Number(process.env.VITRINE_DEMO_SIZE ?? 10_000);
const rounds = Number(process.env.ROUNDS ?? 300);
const warmup = 30;

const dataDir = await mkdtemp(join(tmpdir(), 'vitrine-bench-ssr-'));
const appId = 'bench';
const server = await startServer({
  dataDir, appId, adminApiKey: 'bench-admin-key', searchApiKey: 'bench-search-key', port: 0,
  staticRoot: storefrontDistDir,
  storefrontRenderer: storefrontRendererPath,
  storefrontConfig: { provider: 'vitrine', appId, searchApiKey: 'bench-search-key', indexName: demoIndexName, replicas: { ...demoReplicas } },
});

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function measure(label: string, paths: string[]): Promise<void> {
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < warmup + rounds; i++) {
    const started = performance.now();
    const response = await fetch(`${server.url}${paths[i % paths.length]}`, { headers: { accept: 'text/html', 'accept-encoding': 'br' } });
    const body = await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${paths[i % paths.length]} answered ${response.status}`);
    if (i >= warmup) {
      times.push(performance.now() - started);
      // fetch() hands back the decoded body: the bytes sent are the compressed body's length.
      bytes += Number(response.headers.get('content-length') ?? body.byteLength);
    }
  }
  times.sort((a, b) => a - b);
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  console.log(`${label.padEnd(14)} p50 ${ms(percentile(times, 50))}  p95 ${ms(percentile(times, 95))}  max ${ms(times[times.length - 1])}  (${rounds} requests, ${(bytes / rounds / 1024).toFixed(1)} KB brotli each)`);
}

try {
  const { store } = server;
  await store.waitForTask((await store.setSettings(demoIndexName, demoSettings)).taskID);
  for (const [replica, settings] of Object.entries(demoReplicaSettings)) await store.waitForTask((await store.setSettings(replica, settings)).taskID);
  const products = [...generateProducts(size, 7)];
  for (let start = 0; start < products.length; start += 1000) {
    await store.waitForTask((await store.saveObjects(demoIndexName, products.slice(start, start + 1000))).taskID);
  }
  const categoryPaths = [...new Set(products.map((product) => product.hierarchicalCategories.lvl1))].map(
    (path) => `/c/${path.split(' > ').map(slugify).join('/')}`,
  );
  const productPaths = products.filter((_, index) => index % 97 === 0).map((product) => productPath(product));
  console.log(`Server-rendered pages, ${size.toLocaleString('en-US')} products, ${categoryPaths.length} category pages and ${productPaths.length} product pages in rotation`);
  await measure('category page', categoryPaths);
  await measure('product page', productPaths);
} finally {
  await server.close();
  await rm(dataDir, { recursive: true, force: true });
}
