/**
 * `npm run bench:import`: a large NDJSON import through the merchant console in headless Chromium (file picked,
 * streamed, sent in batches) while another client searches the shop's index (its searches asked twice before
 * the baseline is read, so that what the server keeps for them is not counted). Prints the server's RSS growth
 * over the import and the searches' latency percentiles. Needs a built storefront (`npm run build`).
 *
 *   node --import tsx packages/storefront/bench/import.ts [--mb 100] [--catalogue 10000] [--threads 1] [--indexing-share S] [--cpu-prof DIR] [--memory-log FILE]
 *
 * `--indexing-share S`: the server's `indexingShareWhileSearching` (`VITRINE_INDEXING_SHARE`; default the server's).
 * `--cpu-prof DIR` writes CPU profiles of the server's threads (main and search threads) into DIR; `--memory-log
 * FILE` appends the server's memory (its main thread's heap and buffers) every half second to FILE.
 *
 * The server runs as a child process (its RSS read from /proc), so the figures are the server's alone.
 * Do not run it while tests run: the machine's cores are shared.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { demoSettings, generateProducts } from '@vitrine/demo';
import { serverProcessEnv } from '@vitrine/server';
import { storefrontDistDir } from '../src/index.ts';

const { values } = parseArgs({ options: { mb: { type: 'string', default: '100' }, catalogue: { type: 'string', default: '10000' }, threads: { type: 'string', default: '1' }, 'indexing-share': { type: 'string' }, 'cpu-prof': { type: 'string' }, 'memory-log': { type: 'string' } } });
const targetBytes = Number(values.mb) * 1024 * 1024;
const appId = 'bench';
const adminKey = randomBytes(16).toString('hex');
const searchKey = randomBytes(16).toString('hex');

if (!existsSync(join(storefrontDistDir, 'index.html'))) throw new Error('Build the storefront first: npm run build');

/** Writes `targetBytes` of NDJSON products (objectIDs of their own) to `path`, streaming; returns the line count. */
async function writeFile(path: string): Promise<number> {
  const out = createWriteStream(path);
  let bytes = 0;
  let lines = 0;
  while (bytes < targetBytes) {
    for (const product of generateProducts(10_000, lines + 1)) {
      const line = `${JSON.stringify({ ...product, objectID: `bulk-${lines}` })}\n`;
      if (!out.write(line)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
      bytes += Buffer.byteLength(line);
      lines++;
      if (bytes >= targetBytes) break;
    }
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  return lines;
}

function rssOf(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : 0;
}

const headers = { 'x-algolia-application-id': appId, 'x-algolia-api-key': adminKey, 'content-type': 'application/json' };
async function call(url: string, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

async function waitTask(url: string, taskID: number): Promise<void> {
  while ((await call(url, 'GET', `/1/task/${taskID}`)).status !== 'published') await new Promise((resolve) => setTimeout(resolve, 50));
}

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] : NaN);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

const dir = await mkdtemp(join(tmpdir(), 'vitrine-bench-import-'));
const file = join(dir, 'bulk.ndjson');
const profileArgs = values['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${values['cpu-prof']}`] : [];
const child = spawn(process.execPath, [...profileArgs, '--conditions=source', '--import', 'tsx', join(dirname(fileURLToPath(import.meta.url)), 'serve-storefront.ts')], {
  // As the `vitrine` command starts a server: with its allocator settings (`server/src/process-memory.ts`).
  env: { ...(serverProcessEnv() ?? process.env), VITRINE_DATA_DIR: join(dir, 'data'), VITRINE_APP_ID: appId, VITRINE_ADMIN_API_KEY: adminKey, VITRINE_SEARCH_API_KEY: searchKey, VITRINE_SEARCH_THREADS: values.threads, ...(values['indexing-share'] ? { VITRINE_INDEXING_SHARE: values['indexing-share'] } : {}), ...(values['memory-log'] ? { VITRINE_MEMORY_LOG: values['memory-log'] } : {}) },
  stdio: ['ignore', 'pipe', 'inherit'],
});
try {
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /LISTENING (\S+)/.exec(output);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`server exited early with ${code}`)));
  });

  const lines = await writeFile(file);
  const fileSize = (await stat(file)).size;
  console.log(`file: ${mb(fileSize)}, ${lines.toLocaleString('en-US')} lines`);

  // The shop's catalogue, which the other client searches during the import.
  await waitTask(url, (await call(url, 'PUT', '/1/indexes/products/settings', demoSettings)).taskID as number);
  let batch: unknown[] = [];
  let last = 0;
  const words = new Set<string>();
  for (const product of generateProducts(Number(values.catalogue), 3)) {
    for (const word of product.name.toLowerCase().split(/\s+/)) if (word.length > 3 && words.size < 500) words.add(word);
    batch.push({ action: 'updateObject', body: product });
    if (batch.length === 1000) {
      last = (await call(url, 'POST', '/1/indexes/products/batch', { requests: batch })).taskID as number;
      batch = [];
    }
  }
  if (batch.length) last = (await call(url, 'POST', '/1/indexes/products/batch', { requests: batch })).taskID as number;
  await waitTask(url, last);
  const queries = [...words];

  const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  const page = await (await browser.newContext({ baseURL: url })).newPage();
  await page.goto('/admin/import?index=bulk');
  await page.getByLabel('Admin API key').fill(adminKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 2, name: 'Import' }).waitFor();
  await page.getByLabel('File', { exact: true }).setInputFiles(file);
  console.log('file chosen in the console; importing');

  // Another client searches, one request at a time, for as long as the import runs.
  const search = async (query: string): Promise<number> => {
    const body = { requests: [{ indexName: 'products', query, facets: ['brand', 'color'], hitsPerPage: 20 }] };
    const started = performance.now();
    const response = await fetch(`${url}/1/indexes/*/queries`, { method: 'POST', headers: { ...headers, 'x-algolia-api-key': searchKey }, body: JSON.stringify(body) });
    await response.arrayBuffer();
    return performance.now() - started;
  };
  // The shop as it serves these searches before the import (each asked twice: what the server keeps for them,
  // its result cache, is in the baseline): the growth is the import's.
  for (let round = 0; round < 2; round++) for (const query of queries) await search(query);
  let importing = true;
  const latencies: number[] = [];
  const searcher = (async () => {
    let n = 0;
    while (importing) latencies.push(await search(queries[n++ % queries.length]));
  })();

  const baseline = rssOf(child.pid!);
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(child.pid!))), 100);
  const started = performance.now();
  await page.getByRole('button', { name: 'Import' }).click();
  // What the console says every 10 s, so a long run shows its progress (and an error at once).
  const reporter = setInterval(() => {
    void page
      .locator('[role="status"], [role="alert"]')
      .allTextContents()
      .then((texts) => console.log(`${((performance.now() - started) / 1000).toFixed(0)} s: ${texts.join(' | ')} (server RSS ${mb(rssOf(child.pid!))})`));
  }, 10_000);
  await page.getByText(/Import finished and published/).waitFor({ timeout: 30 * 60_000 });
  clearInterval(reporter);
  const seconds = (performance.now() - started) / 1000;
  importing = false;
  clearInterval(sampler);
  await searcher;
  const status = await page.getByRole('status').last().textContent();
  const count = ((await call(url, 'POST', '/1/indexes/bulk/query', { query: '', hitsPerPage: 0 })).nbHits as number) ?? 0;
  await browser.close();

  latencies.sort((a, b) => a - b);
  console.log(`console: ${status?.trim()}`);
  console.log(`import: ${count.toLocaleString('en-US')} records searchable in ${seconds.toFixed(1)} s (${(fileSize / 1024 / 1024 / seconds).toFixed(1)} MB/s)`);
  console.log(`server RSS: ${mb(baseline)} before, ${mb(peak)} peak, growth ${mb(peak - baseline)} (target < 200 MB)`);
  console.log(`searches during the import: ${latencies.length}, p50 ${percentile(latencies, 0.5).toFixed(1)} ms, p99 ${percentile(latencies, 0.99).toFixed(1)} ms, max ${latencies[latencies.length - 1]?.toFixed(1)} ms (target p99 < 50 ms)`);
} finally {
  if (profileArgs.length > 0) {
    // A clean stop, so that the threads write their profiles.
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  } else child.kill('SIGKILL');
  await rm(dir, { recursive: true, force: true });
}
