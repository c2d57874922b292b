/**
 * Restarts at scale through the real start path (`npm run bench:recovery`): the compiled `vitrine start` (as
 * `npm start` and the installed command run it: storefront, server rendering, insights, search thread), on a data
 * folder of `--size` demo products written by its own first start, killed with SIGKILL at several moments and
 * stopped once with SIGTERM, then started again each time on the same folder:
 *
 * 1. right after the demo catalogue was written (the first start answered `/1/isalive` 200);
 * 2. during an import of new products over HTTP (1,000 a batch, two in flight, a shopper searching), half way;
 * 3. right after that import's last batch was acknowledged;
 * 4. while a snapshot is being written (its temporary folder exists; updates keep coming);
 * 5. idle (no write and no snapshot for 3 s);
 * 6. after SIGTERM (a clean stop).
 *
 * For each start it prints the time from the spawn to the socket listening, to `/1/isalive` 200 and to the first
 * search answered (InstantSearch-shaped) and its latency, the next 100 searches' p50/p99, the server's own
 * `Ready in` line (modules, listening, indexes loaded: snapshot and replay, search thread: snapshot, replay,
 * warm-up), RSS, and checks that every acknowledged product is found. Target: searches served within 10 s of
 * the spawn, the first under 100 ms, nothing acknowledged lost.
 *
 *   npm run bench:recovery [-- --size 1000000] [--keep DIR]
 *   npm run bench:recovery -- --from DIR [--runs 3]       restarts copies of a kept folder only
 *
 * `--keep DIR` copies the data folder as each stop left it to DIR/<moment>. Run it on a quiet machine.
 */
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { cpSync, existsSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateProducts } from '@vitrine/demo';
import type { Product } from '@vitrine/protocol';
import { ADMIN_KEY, APP_ID, SEARCH_KEY, killHard, processRssMb, removeDir, tempDir } from '../../server/src/test-support.ts';
import { SEARCH_PATH, WRITE_PATH, headers, workloadOf } from '../../server/bench/workload.ts';
import type { Workload } from '../../server/bench/workload.ts';

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '1000000' },
    import: { type: 'string', default: '60000' },
    keep: { type: 'string' },
    from: { type: 'string' },
    runs: { type: 'string', default: '3' },
  },
});
const SIZE = Number(values.size);
const IMPORT = Number(values.import);
const BATCH = 1000;
const TARGET_MS = 10_000;
const BIN = join(import.meta.dirname, '..', 'bin', 'vitrine.js');

if (!existsSync(join(import.meta.dirname, '..', 'dist', 'main.js'))) {
  console.error('The compiled command is missing: run `npm run build` first (npm run bench:recovery does).');
  process.exit(1);
}

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

/** The process serving: the command's child when it relaunched itself with its allocator settings, else itself. */
function serverPid(command: ChildProcess): number | undefined {
  const children = spawnSync('pgrep', ['-P', String(command.pid)], { encoding: 'utf8' }).stdout.trim().split('\n').filter(Boolean);
  return children.length > 0 ? Number(children[0]) : command.pid;
}

interface Started {
  child: ChildProcess;
  url: string;
  listeningMs: number;
  aliveMs: number;
  firstSearchMs: number;
  firstSearchLatency: number;
  p50: number;
  p99: number;
  nbHits: number;
  readyLine: string;
  rssMb: number;
}

async function search(url: string, body: string): Promise<{ ms: number; nbHits: number }> {
  const started = performance.now();
  const response = await fetch(`${url}${SEARCH_PATH}`, { method: 'POST', headers: { ...headers, 'x-algolia-api-key': SEARCH_KEY }, body });
  const text = await response.text();
  if (!response.ok) throw new Error(`search: ${response.status} ${text}`);
  return { ms: performance.now() - started, nbHits: (JSON.parse(text) as { results: Array<{ nbHits: number }> }).results[0].nbHits };
}

const EVERYTHING = JSON.stringify({ requests: [{ indexName: 'products', query: '', hitsPerPage: 0 }] });

/** `vitrine start` on `dataDir`, timed from the spawn to serving; resolves once 100 searches were answered. */
async function start(dataDir: string, workload: Workload | null, moment?: string): Promise<Started> {
  if (values.keep !== undefined && moment !== undefined) cpSync(dataDir, join(values.keep, moment.replaceAll(' ', '-')), { recursive: true });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const spawned = performance.now();
  const env = {
    ...process.env,
    VITRINE_DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    VITRINE_DEMO_SIZE: String(SIZE),
    VITRINE_APP_ID: APP_ID,
    VITRINE_ADMIN_API_KEY: ADMIN_KEY,
    VITRINE_SEARCH_API_KEY: SEARCH_KEY,
  };
  const child = spawn(process.execPath, [BIN, 'start'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let listeningMs = NaN;
  // Asked every 20 ms from the spawn on: refused connections, then 503s until the server is ready.
  for (;;) {
    if (child.exitCode !== null) throw new Error(`vitrine start exited (${child.exitCode}):\n${output}`);
    const status = await fetch(`${url}/1/isalive`).then((response) => response.status, () => 0);
    if (status !== 0 && Number.isNaN(listeningMs)) listeningMs = performance.now() - spawned;
    if (status === 200) break;
    await sleep(20);
  }
  const aliveMs = performance.now() - spawned;
  const body = workload?.searchBody() ?? EVERYTHING;
  const first = await search(url, body);
  const firstSearchMs = performance.now() - spawned;
  const latencies: number[] = [];
  for (let i = 0; i < 100; i++) latencies.push((await search(url, workload?.searchBody() ?? EVERYTHING)).ms);
  latencies.sort((a, b) => a - b);
  const { nbHits } = await search(url, EVERYTHING);
  for (let waited = 0; !/Ready in/.test(output) && waited < 5000; waited += 20) await sleep(20);
  const readyLine = /Ready in [^\n]*/.exec(output)?.[0] ?? '(no Ready line)';
  return { child, url, listeningMs, aliveMs, firstSearchMs, firstSearchLatency: first.ms, p50: latencies[49], p99: latencies[98], nbHits, readyLine, rssMb: processRssMb(serverPid(child)) };
}

function stopped(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));
}

/** SIGKILL of the serving process and of the command (as a crash of the machine's process would). */
async function crash(started: Started): Promise<void> {
  const pid = serverPid(started.child);
  if (pid !== undefined && pid !== started.child.pid) process.kill(pid, 'SIGKILL');
  await killHard(started.child);
}

const rows: Array<{ moment: string; result: Started; expected: number }> = [];

function report(moment: string, result: Started, expected: number): void {
  rows.push({ moment, result, expected });
  const found = result.nbHits >= expected ? 'all found' : `MISSING ${expected - result.nbHits}`;
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  console.log(
    `${moment.padEnd(28)} listening ${s(result.listeningMs)}, isalive 200 ${s(result.aliveMs)}, first search ${s(result.firstSearchMs)} (${result.firstSearchLatency.toFixed(0)} ms), ` +
      `next 100 p50 ${result.p50.toFixed(1)} / p99 ${result.p99.toFixed(1)} ms; ${result.nbHits.toLocaleString('en-US')} products (${found}); RSS ${result.rssMb.toFixed(0)} MB`,
  );
  console.log(`${''.padEnd(28)} ${result.readyLine}`);
}

function summary(): void {
  const within = rows.filter(({ result }) => result.firstSearchMs <= TARGET_MS).length;
  const fast = rows.filter(({ result }) => result.firstSearchLatency < 100).length;
  const lost = rows.filter(({ result, expected }) => result.nbHits < expected).length;
  const worst = Math.max(...rows.map(({ result }) => result.firstSearchMs));
  console.log(`\nsearches served within ${TARGET_MS / 1000} s of the spawn: ${within} of ${rows.length} starts (slowest ${(worst / 1000).toFixed(1)} s); first search under 100 ms: ${fast} of ${rows.length}; starts with acknowledged products missing: ${lost}`);
}

/** Imports `products` (objectIDs of their own) in batches, two in flight; resolves with how many were acknowledged. */
async function importProducts(url: string, products: Product[]): Promise<number> {
  let acknowledged = 0;
  let failure: unknown;
  const send = async (start: number): Promise<void> => {
    const requests = products.slice(start, start + BATCH).map((body) => ({ action: 'updateObject', body }));
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
  for (let start = 0; start < products.length && failure === undefined; start += BATCH) {
    const write = send(start).finally(() => inFlight.delete(write));
    inFlight.add(write);
    if (inFlight.size >= 2) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
  if (failure !== undefined) throw failure;
  return acknowledged;
}

/** New products for the import: demo products under objectIDs the demo catalogue does not use. */
function newProducts(count: number): Product[] {
  return [...generateProducts(count)].map((product, i) => ({ ...product, objectID: `import-${i}` }));
}

if (values.from !== undefined) {
  const from = values.from;
  for (let run = 1; run <= Number(values.runs); run++) {
    const copy = tempDir('vitrine-bench-recovery-');
    try {
      cpSync(from, copy, { recursive: true });
      // The copy written back to disk first: otherwise the kernel writes its gigabyte during the start timed.
      spawnSync('sync');
      const result = await start(copy, workloadOf(generateProducts(Math.min(SIZE, 100_000))));
      report(`${from.split('/').pop()} #${run}`, result, 0);
      await crash(result);
    } finally {
      removeDir(copy);
    }
  }
  summary();
  process.exit(0);
}

const dataDir = tempDir('vitrine-bench-recovery-');
try {
  const workload = workloadOf(generateProducts(Math.min(SIZE, 100_000)));
  console.log(`first start: the demo catalogue of ${SIZE.toLocaleString('en-US')} products…`);
  let result = await start(dataDir, null);
  console.log(`  demo written and served after ${(result.aliveMs / 1000).toFixed(1)} s; ${result.readyLine}`);

  // 1. Right after the demo catalogue was written.
  await crash(result);
  result = await start(dataDir, workload, 'after the demo');
  report('after the demo (kill -9)', result, SIZE);

  // 2. During an import of new products: killed once half of them are acknowledged, batches in flight.
  const imported = newProducts(IMPORT);
  const half = Math.floor(IMPORT / 2 / BATCH) * BATCH;
  let acknowledged = await importProducts(result.url, imported.slice(0, half));
  const inFlight = importProducts(result.url, imported.slice(half, half + 4 * BATCH)).catch(() => 0);
  await sleep(50);
  await crash(result);
  acknowledged = half + (await inFlight);
  result = await start(dataDir, workload, 'during an import');
  report('during an import (kill -9)', result, SIZE + acknowledged);

  // 3. Right after an import: the rest of the products, the last batch acknowledged, then SIGKILL at once.
  await importProducts(result.url, imported.slice(half));
  await crash(result);
  result = await start(dataDir, workload, 'after an import');
  report('after an import (kill -9)', result, SIZE + IMPORT);

  // 4. During a snapshot: updates sent until one is being written, then SIGKILL.
  let updating = true;
  const target = result;
  const updates = (async () => {
    while (updating) await fetch(`${target.url}${WRITE_PATH}`, { method: 'POST', headers, body: workload.writeBody() }).catch(() => undefined);
  })();
  const waitFrom = performance.now();
  while (!snapshotInProgress(dataDir) && performance.now() - waitFrom < 600_000) await sleep(10);
  const during = snapshotInProgress(dataDir);
  await sleep(200);
  await crash(result);
  updating = false;
  await updates;
  result = await start(dataDir, workload, during ? 'during a snapshot' : 'no snapshot seen');
  report(during ? 'during a snapshot (kill -9)' : 'no snapshot seen (kill -9)', result, SIZE + IMPORT);

  // 5. Idle: no write and no snapshot under way for 3 s.
  let quietSince = performance.now();
  while (performance.now() - quietSince < 3000) {
    if (snapshotInProgress(dataDir)) quietSince = performance.now();
    await sleep(50);
  }
  await crash(result);
  result = await start(dataDir, workload, 'idle');
  report('idle (kill -9)', result, SIZE + IMPORT);

  // 6. A clean stop.
  result.child.kill('SIGTERM');
  await stopped(result.child);
  result = await start(dataDir, workload, 'after SIGTERM');
  report('after SIGTERM', result, SIZE + IMPORT);
  await crash(result);
  summary();
} finally {
  removeDir(dataDir);
}
