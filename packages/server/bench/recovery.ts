/**
 * Crash recovery at scale (`npm run bench:recovery`): a server process imports `--size` demo products over HTTP
 * (1,000 a batch, two in flight) and is killed with SIGKILL at several moments — half way through the import,
 * right after its last acknowledged batch, while a snapshot is being written, and idle — then restarted on the
 * same data folder each time. For each restart it prints the time from spawning the process to `/1/isalive`
 * answering 200, to the first search answered, the first 100 searches' p50/p99 (InstantSearch-shaped
 * multi-queries), and checks that every acknowledged product is found.
 *
 *   node --import tsx packages/server/bench/recovery.ts [--size 1000000] [--threads 1] [--keep DIR]
 *   node --import tsx packages/server/bench/recovery.ts --from DIR [--runs 3] [--threads 1]
 *
 * `--keep DIR` copies the data folder as each crash left it to DIR/<moment>; `--from DIR` restarts a copy of
 * such a folder `--runs` times (no import), to time a restart again after a change.
 *
 * Do not run it while tests run: the machine's cores are shared.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateProducts } from '@vitrine/demo';
import type { Product } from '@vitrine/protocol';
import { processRssMb, removeDir, spawnServer, tempDir } from '../src/test-support.ts';
import type { ServerProcess } from '../src/test-support.ts';
import { SEARCH_PATH, WRITE_PATH, headers, putDemoSettings, workloadOf } from './workload.ts';
import type { Workload } from './workload.ts';

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '1000000' },
    threads: { type: 'string', default: '1' },
    keep: { type: 'string' },
    from: { type: 'string' },
    runs: { type: 'string', default: '3' },
  },
});
const SIZE = Number(values.size);
const BATCH = 1000;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** True while a snapshot is being written (its temporary folder exists). */
function snapshotInProgress(dataDir: string): boolean {
  try {
    return readdirSync(join(dataDir, 'snapshots')).some((name) => name.startsWith('tmp-'));
  } catch {
    return false;
  }
}

/** CPU time (ms) a process has used, all threads, from /proc (Linux): the work, whatever the machine's load. */
/** When the server's memory is read again after isalive (searches sent meanwhile): once the records it loaded are read from its files. */
const RSS_SETTLED_MS = 8_000;

function processCpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the command name, in clock ticks.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return NaN;
  }
}

interface Restart {
  server: ServerProcess;
  url: string;
  aliveMs: number;
  /** CPU time the server process had used when it answered `/1/isalive` with 200 (both threads). */
  aliveCpuMs: number;
  firstSearchMs: number;
  firstSearchLatency: number;
  p50: number;
  p99: number;
  nbHits: number;
  /** RSS when /1/isalive first answers 200, after the searches that follow, and 8 s after isalive (records read back). */
  rssAliveMb: number;
  rssAfterMb: number;
  rssSettledMb: number;
}

async function search(url: string, body: string): Promise<{ ms: number; nbHits: number }> {
  const started = performance.now();
  const response = await fetch(`${url}${SEARCH_PATH}`, { method: 'POST', headers, body });
  const text = await response.text();
  if (!response.ok) throw new Error(`search: ${response.status} ${text}`);
  return { ms: performance.now() - started, nbHits: (JSON.parse(text) as { results: Array<{ nbHits: number }> }).results[0].nbHits };
}

const EVERYTHING = JSON.stringify({ requests: [{ indexName: 'products', query: '', hitsPerPage: 0 }] });

/** Starts the server on `dataDir` and times it back to serving, from the moment the process is spawned. */
async function restart(dataDir: string, workload: Workload, moment?: string): Promise<Restart> {
  if (values.keep !== undefined && moment !== undefined) cpSync(dataDir, join(values.keep, moment.replaceAll(' ', '-')), { recursive: true });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const spawned = performance.now();
  let pid: number | undefined;
  const starting = spawnServer({ VITRINE_DATA_DIR: dataDir, VITRINE_SEARCH_THREADS: values.threads!, PORT: String(port), VITRINE_STARTUP_REPORT: '1' }, undefined, [], (child) => (pid = child.pid));
  // Asked every 20 ms from the spawn on: refused connections and 503s until the server is ready.
  while ((await fetch(`${url}/1/isalive`).then((response) => response.status, () => 0)) !== 200) await sleep(20);
  const aliveMs = performance.now() - spawned;
  const aliveCpuMs = processCpuMs(pid);
  const rssAliveMb = processRssMb(pid);
  const server = await starting;
  const first = await search(url, workload.searchBody());
  const firstSearchMs = performance.now() - spawned;
  const latencies: number[] = [];
  for (let i = 0; i < 100; i++) latencies.push((await search(url, workload.searchBody())).ms);
  latencies.sort((a, b) => a - b);
  const { nbHits } = await search(url, EVERYTHING);
  const rssAfterMb = processRssMb(pid);
  // The loaded records are read back from the snapshot's files 5 s after the start (`recordsFromFilesAfterStartMs`),
  // their memory freed by a later garbage collection: a shopper keeps searching meanwhile.
  while (performance.now() < spawned + aliveMs + RSS_SETTLED_MS) await search(url, workload.searchBody());
  const rssSettledMb = processRssMb(pid);
  return { server, url, aliveMs, aliveCpuMs, firstSearchMs, firstSearchLatency: first.ms, p50: latencies[49], p99: latencies[98], nbHits, rssAliveMb, rssAfterMb, rssSettledMb };
}

/** Imports products `from` to `to` (exclusive) in batches, two in flight; resolves with how many were acknowledged. */
async function importProducts(url: string, products: Product[], from: number, to: number): Promise<number> {
  let acknowledged = from;
  let failure: unknown;
  const send = async (start: number): Promise<void> => {
    const requests = products.slice(start, Math.min(to, start + BATCH)).map((body) => ({ action: 'updateObject', body }));
    try {
      const response = await fetch(`${url}${WRITE_PATH}`, { method: 'POST', headers, body: JSON.stringify({ requests }) });
      if (!response.ok) throw new Error(`batch: ${response.status} ${await response.text()}`);
      // Batches are acknowledged in order (group commit): the highest acknowledged covers those before it.
      acknowledged = Math.max(acknowledged, start + requests.length);
    } catch (error) {
      failure ??= error;
    }
  };
  const inFlight = new Set<Promise<void>>();
  for (let start = from; start < to && failure === undefined; start += BATCH) {
    const write = send(start).finally(() => inFlight.delete(write));
    inFlight.add(write);
    if (inFlight.size >= 2) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
  if (failure !== undefined) throw failure;
  return acknowledged;
}

/** Runs `work` while one client searches, one call at a time; prints the searches' latency percentiles. */
async function whileSearching<T>(url: string, workload: Workload, what: string, work: () => Promise<T>): Promise<T> {
  const latencies: number[] = [];
  let done = false;
  const searcher = (async () => {
    while (!done) {
      try {
        latencies.push((await search(url, workload.searchBody())).ms);
      } catch {
        return; // the server was killed
      }
    }
  })();
  try {
    return await work();
  } finally {
    done = true;
    await searcher;
    latencies.sort((a, b) => a - b);
    const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))]?.toFixed(0) ?? '-';
    console.log(`  searches ${what}: ${latencies.length}, p50 ${at(0.5)} / p99 ${at(0.99)} / max ${at(1)} ms`);
  }
}

function report(moment: string, result: Restart, expected: number): void {
  const found = result.nbHits >= expected ? 'all found' : `MISSING ${expected - result.nbHits}`;
  console.log(
    `${moment.padEnd(26)} isalive 200 after ${(result.aliveMs / 1000).toFixed(1)} s (CPU ${(result.aliveCpuMs / 1000).toFixed(1)} s), first search after ${(result.firstSearchMs / 1000).toFixed(1)} s ` +
      `(${result.firstSearchLatency.toFixed(0)} ms), next 100: p50 ${result.p50.toFixed(1)} / p99 ${result.p99.toFixed(1)} ms; ${result.nbHits.toLocaleString('en-US')} products (${found}); RSS ${result.rssAliveMb.toFixed(0)} MB at isalive, ${result.rssAfterMb.toFixed(0)} MB after the searches, ${result.rssSettledMb.toFixed(0)} MB ${RSS_SETTLED_MS / 1000} s after isalive`,
  );
}

/** `--from DIR`: restarts copies of a kept crash folder, without importing anything. */
async function restartKept(from: string): Promise<void> {
  const workload = workloadOf([...generateProducts(Math.min(SIZE, 100_000))]);
  for (let run = 1; run <= Number(values.runs); run++) {
    const copy = tempDir('vitrine-bench-recovery-');
    try {
      cpSync(from, copy, { recursive: true });
      // The copy written back to disk first: otherwise the kernel writes its 1-2 GB during the restart timed.
      spawnSync('sync');
      const result = await restart(copy, workload);
      report(`${from.split('/').pop()} #${run}`, result, 0);
      await result.server.kill();
    } finally {
      removeDir(copy);
    }
  }
}

if (values.from !== undefined) {
  await restartKept(values.from);
  process.exit(0);
}

const dataDir = tempDir('vitrine-bench-recovery-');
try {
  console.log(`generating ${SIZE.toLocaleString('en-US')} products…`);
  const products = [...generateProducts(SIZE)];
  const workload = workloadOf(products);
  let server = await spawnServer({ VITRINE_DATA_DIR: dataDir, VITRINE_SEARCH_THREADS: values.threads! });
  await putDemoSettings(server.url);
  const half = Math.floor(SIZE / 2 / BATCH) * BATCH;

  // 1. During the import: killed once half the products are acknowledged, batches still in flight.
  let started = performance.now();
  let acknowledged = await whileSearching(server.url, workload, 'during the import', () => importProducts(server.url, products, 0, half));
  const inFlight = importProducts(server.url, products, half, half + 4 * BATCH).catch(() => half);
  await sleep(50);
  await server.kill();
  acknowledged = Math.max(acknowledged, await inFlight);
  console.log(`imported ${acknowledged.toLocaleString('en-US')} products in ${((performance.now() - started) / 1000).toFixed(1)} s, killed mid-import`);
  let result = await restart(dataDir, workload, 'during the import');
  report('during the import', result, acknowledged);

  // 2. Right after the import: the last batch acknowledged, then SIGKILL at once.
  started = performance.now();
  acknowledged = await whileSearching(result.url, workload, 'during the import', () => importProducts(result.url, products, acknowledged, SIZE));
  console.log(`imported the rest in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  await result.server.kill();
  result = await restart(dataDir, workload, 'right after the import');
  report('right after the import', result, SIZE);

  // 3. During a snapshot: updates sent until one is being written, then SIGKILL.
  server = result.server;
  let updating = true;
  const updates = (async () => {
    while (updating) {
      await fetch(`${result.url}${WRITE_PATH}`, { method: 'POST', headers, body: workload.writeBody() }).catch(() => undefined);
    }
  })();
  const waitFrom = performance.now();
  while (!snapshotInProgress(dataDir) && performance.now() - waitFrom < 600_000) await sleep(10);
  const during = snapshotInProgress(dataDir);
  await sleep(200);
  await server.kill();
  updating = false;
  await updates;
  result = await restart(dataDir, workload, during ? 'during a snapshot' : 'no snapshot seen');
  report(during ? 'during a snapshot' : 'no snapshot seen (killed)', result, SIZE);

  // 4. Idle: no write and no snapshot under way for 3 s.
  let quietSince = performance.now();
  while (performance.now() - quietSince < 3000) {
    if (snapshotInProgress(dataDir)) quietSince = performance.now();
    await sleep(50);
  }
  await result.server.kill();
  result = await restart(dataDir, workload, 'idle');
  report('idle', result, SIZE);
  await result.server.kill();
} finally {
  removeDir(dataDir);
}
