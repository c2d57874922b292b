/**
 * An event flood against the product as users start it (`npm run bench:events`): the compiled `vitrine start`
 * (storefront, insights, search thread) on a temporary data folder, then:
 *
 * 1. prefill: `--prefill` events of shoppers' sessions over the last 20 days, sent with the admin key (not rate
 *    limited), so that the flood and the rebuilds meet an event log of that size;
 * 2. flood: `POST /1/events` with the public search key, 1,000 view events a request, `--connections` connections
 *    from each of `--ips` source addresses (127.0.0.2 on: with `VITRINE_TRUST_PROXY` unset, the connection's
 *    address is the client's IP), for `--duration` seconds, from a thread of its own;
 * 3. rebuilds: `--rebuilds` model rebuilds asked in a row (`POST /1/vitrine/recommend/build`), the flood over:
 *    incremental ones (the aggregates take the events since the last build).
 *
 * With `--preload N`, N stored events of shoppers' sessions over the last 20 days are written first, straight into
 * the insights database through the package's own event log (the product started once to create its folder,
 * stopped, preloaded, started again), and one build from scratch (`{"full": true}`) is asked before the prefill.
 * Each rebuild prints whether it was full, its time in the model thread, the events it read and the probe's p99
 * while it ran.
 *
 * Meanwhile a shopper searches every 100 ms (an InstantSearch multi-query with the search key, from 127.0.0.1) and
 * `/1/isalive` is asked every 500 ms. Prints, every 5 s, the data folder's size (and the insights database's and its
 * log's), the events stored, the server's RSS and the probe's p99 over those seconds; then, per phase, the
 * probe's p50 / p99 / max, `/1/isalive`'s slowest answer, events accepted and refused. Target: probe p99 ≤ 100 ms
 * during the flood and the rebuilds, the data folder bounded.
 *
 *   npm run bench:events [-- --size 10000] [--prefill 1000000] [--preload 0] [--duration 60] [--ips 4] [--connections 2] [--rebuilds 3] [--keep DIR]
 *
 * Run it on a quiet machine: the flood's sender shares the machine with the server.
 */
import Database from 'better-sqlite3';
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { cpSync, existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { generateProducts } from '@vitrine/demo';
import { openInsightsDb } from '../../insights/src/db.ts';
import { EventLog } from '../../insights/src/event-log.ts';
import { SearchLog } from '../../insights/src/search-log.ts';
import type { StoredEvent } from '../../insights/src/validate.ts';
import { ADMIN_KEY, APP_ID, SEARCH_KEY, processRssMb, removeDir, tempDir } from '../src/test-support.ts';
import { SEARCH_PATH, workloadOf } from './workload.ts';

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '10000' },
    prefill: { type: 'string', default: '1000000' },
    preload: { type: 'string', default: '0' },
    duration: { type: 'string', default: '60' },
    ips: { type: 'string', default: '4' },
    connections: { type: 'string', default: '2' },
    rebuilds: { type: 'string', default: '3' },
    keep: { type: 'string' },
  },
});
const SIZE = Number(values.size);
const PREFILL = Number(values.prefill);
const PRELOAD = Number(values.preload);
const DURATION_MS = Number(values.duration) * 1000;
const IPS = Array.from({ length: Number(values.ips) }, (_, i) => `127.0.0.${i + 2}`);
const CONNECTIONS = Number(values.connections);
const REBUILDS = Number(values.rebuilds);
const BIN = join(import.meta.dirname, '..', '..', 'cli', 'bin', 'vitrine.js');
const DAY_MS = 86_400_000;

if (!existsSync(join(import.meta.dirname, '..', '..', 'cli', 'dist', 'main.js'))) {
  console.error('The compiled command is missing: run `npm run build` first.');
  process.exit(1);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function folderBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    try {
      total += entry.isDirectory() ? folderBytes(path) : statSync(path).size;
    } catch {
      // Removed meanwhile (a snapshot's temporary folder).
    }
  }
  return total;
}

const fileBytes = (path: string) => (existsSync(path) ? statSync(path).size : 0);
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
const percentile = (sorted: number[], p: number) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]);

/** The server's process: the command's child when it relaunched itself, else the command. */
function serverPid(command: ChildProcess): number | undefined {
  const children = spawnSync('pgrep', ['-P', String(command.pid)], { encoding: 'utf8' }).stdout.trim().split('\n').filter(Boolean);
  return children.length > 0 ? Number(children[0]) : command.pid;
}

type Phase = 'full build' | 'prefill' | 'flood' | 'rebuilds' | 'after';
let phase: Phase = 'prefill';
const probes: Array<{ at: number; ms: number; phase: Phase }> = [];
const alive: Array<{ ms: number; phase: Phase }> = [];
const flood = { accepted: 0, refusedEvents: 0, requests: 0, refused: 0, other: 0, errors: 0 };

async function startProduct(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const env: Record<string, string | undefined> = {
    ...process.env,
    VITRINE_DATA_DIR: dataDir,
    // A free port, which the banner tells.
    PORT: '0',
    HOST: '127.0.0.1',
    VITRINE_DEMO_SIZE: String(SIZE),
    VITRINE_APP_ID: APP_ID,
    VITRINE_ADMIN_API_KEY: ADMIN_KEY,
    VITRINE_SEARCH_API_KEY: SEARCH_KEY,
    VITRINE_LOG_LEVEL: 'warn',
  };
  // The connection's address is the client's: each flood address has budgets of its own.
  delete env.VITRINE_TRUST_PROXY;
  const child = spawn(process.execPath, [BIN, 'start'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const started = performance.now();
  let url: string | undefined;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`vitrine start exited (${child.exitCode}):\n${output}`);
    url ??= /Vitrine is running at (\S+)/.exec(output)?.[1];
    if (url !== undefined && (await fetch(`${url}/1/isalive`).then((response) => response.status, () => 0)) === 200) break;
    await sleep(100);
  }
  console.log(`vitrine start: serving ${SIZE.toLocaleString('en-US')} demo products after ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return { child, url };
}

/** A search every 100 ms and `/1/isalive` every 500 ms, each timed, until `stop()`. */
function probe(url: string): () => Promise<void> {
  const workload = workloadOf(generateProducts(Math.min(SIZE, 2000)));
  const headers = { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': SEARCH_KEY, 'content-type': 'text/plain' };
  let running = true;
  const searches = (async () => {
    while (running) {
      const started = performance.now();
      const response = await fetch(`${url}${SEARCH_PATH}`, { method: 'POST', headers, body: workload.searchBody() });
      await response.text();
      if (!response.ok) throw new Error(`probe search: ${response.status}`);
      const ms = performance.now() - started;
      probes.push({ at: Date.now(), ms, phase });
      await sleep(Math.max(0, 100 - ms));
    }
  })();
  const isalive = (async () => {
    while (running) {
      const started = performance.now();
      const status = await fetch(`${url}/1/isalive`).then((response) => response.status, () => 0);
      alive.push({ ms: status === 200 ? performance.now() - started : Infinity, phase });
      await sleep(500);
    }
  })();
  return async () => {
    running = false;
    await Promise.all([searches, isalive]);
  };
}

/** Events of shoppers' sessions over the last 20 days: views, clicks, some purchases of neighbouring products. */
function prefillEvents(batch: number, now = Date.now()) {
  return Array.from({ length: 1000 }, (_, i) => {
    const session = batch * 125 + Math.floor(i / 8);
    const item = 1 + ((session * 7919 + (i % 8) * 13) % SIZE);
    const kind = (session + i) % 20;
    const [eventType, eventSubtype] = kind < 14 ? ['view', undefined] : kind < 19 ? ['click', undefined] : ['conversion', 'purchase'];
    return {
      eventType, eventSubtype, eventName: 'Prefill', index: 'products', userToken: `shopper-${session % 50_000}`,
      objectIDs: [String(item), String(1 + (item % SIZE))], timestamp: now - Math.floor(((session % 20_000) / 20_000) * 20 * DAY_MS) - (i % 8) * 60_000,
    };
  });
}

const prefillBody = (batch: number) => JSON.stringify({ events: prefillEvents(batch) });

/**
 * `--preload`: the prefill's events, written into the stopped product's insights database by its own event log
 * (ids, counts and budgets as the server writes them), batches of 10,000 without an fsync each.
 */
function preload(dataDir: string): void {
  const started = performance.now();
  const db = openInsightsDb(dataDir);
  const searchLog = new SearchLog(db, Date.now, 1e9, 1e9, 0);
  const eventLog = new EventLog(db, searchLog, { maxEventsPerIndex: Math.max(1_000_000, PRELOAD), maxEvents: Math.max(2_000_000, PRELOAD) });
  const now = Date.now();
  db.pragma('synchronous = NORMAL');
  for (let batch = 0; batch * 1000 < PRELOAD; batch += 10) {
    const events: StoredEvent[] = [];
    for (let b = batch; b < batch + 10 && b * 1000 < PRELOAD; b++) {
      for (const event of prefillEvents(b, now)) {
        events.push({
          ts: event.timestamp, index: event.index, type: event.eventType as StoredEvent['type'], subtype: (event.eventSubtype ?? null) as StoredEvent['subtype'],
          name: event.eventName, userToken: event.userToken, authToken: null, queryID: null, objectIDs: event.objectIDs, positions: null,
          filters: null, objectData: null, value: null, currency: null,
        });
      }
    }
    eventLog.commit([{ events, receivedAt: now }]);
  }
  searchLog.close();
  db.close();
  console.log(`preload: ${PRELOAD.toLocaleString('en-US')} events written into insights.sqlite in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

async function prefill(url: string): Promise<void> {
  const headers = { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': ADMIN_KEY, 'content-type': 'application/json' };
  const started = performance.now();
  let next = 0;
  const send = async () => {
    for (let batch = next++; batch * 1000 < PREFILL; batch = next++) {
      const response = await fetch(`${url}/1/events`, { method: 'POST', headers, body: prefillBody(batch) });
      if (!response.ok) throw new Error(`prefill: ${response.status} ${await response.text()}`);
    }
  };
  await Promise.all([send(), send()]);
  console.log(`prefill: ${PREFILL.toLocaleString('en-US')} events (admin key) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/** The flood's sender, in a thread of its own so that the probe's timings are not the sender's. Plain JavaScript. */
const SENDER = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { url, appId, key, ips, connections, durationMs, bodies } = workerData;
const counts = { accepted: 0, refusedEvents: 0, requests: 0, refused: 0, other: 0, errors: 0 };
const until = Date.now() + durationMs;
const headers = { 'content-type': 'application/json', 'x-algolia-application-id': appId, 'x-algolia-api-key': key };
const post = (agent, body) => new Promise((resolve) => {
  const request = http.request(url + '/1/events', { method: 'POST', agent, headers }, (response) => {
    response.resume();
    response.on('end', () => resolve(response.statusCode));
  });
  request.on('error', () => resolve(0));
  request.end(body);
});
async function loop(ip, connection) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1, localAddress: ip });
  for (let i = connection; Date.now() < until; i++) {
    const status = await post(agent, bodies[i % bodies.length]);
    counts.requests++;
    if (status === 200) counts.accepted += 1000;
    else if (status === 429) { counts.refused++; counts.refusedEvents += 1000; }
    else if (status === 0) counts.errors++;
    else counts.other++;
  }
  agent.destroy();
}
const timer = setInterval(() => parentPort.postMessage(counts), 1000);
Promise.all(ips.flatMap((ip) => Array.from({ length: connections }, (_, c) => loop(ip, c)))).then(() => {
  clearInterval(timer);
  parentPort.postMessage({ ...counts, done: true });
});
`;

function floodBodies(): string[] {
  return Array.from({ length: 8 }, (_, b) => JSON.stringify({
    events: Array.from({ length: 1000 }, (_, i) => ({
      eventType: 'view', eventName: 'Flood', index: 'products', userToken: `flood-${b}-${i % 100}`,
      objectIDs: [String(1 + ((b * 1000 + i) * 31) % SIZE), String(1 + ((b * 1000 + i) * 17) % SIZE)],
    })),
  }));
}

function runFlood(url: string): Promise<void> {
  const worker = new Worker(SENDER, {
    eval: true,
    workerData: { url, appId: APP_ID, key: SEARCH_KEY, ips: IPS, connections: CONNECTIONS, durationMs: DURATION_MS, bodies: floodBodies() },
  });
  return new Promise((resolve, reject) => {
    worker.on('message', (counts: typeof flood & { done?: boolean }) => {
      Object.assign(flood, counts);
      if (counts.done) resolve();
    });
    worker.once('error', reject);
  });
}

/** `count` model builds asked in a row (`full`: from scratch), each with the probe's p99 while it ran. */
async function rebuilds(url: string, count: number, full = false): Promise<void> {
  const headers = { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': ADMIN_KEY, 'content-type': 'application/json' };
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const from = Date.now();
    const response = await fetch(`${url}/1/vitrine/recommend/build`, { method: 'POST', headers, body: JSON.stringify({ full }) });
    const summary = (await response.json()) as { full?: boolean; buildMs?: number; eventsScanned?: number; eventsRead?: number; relatedItems?: number; trendingItems?: number };
    const during = probes.filter((p) => p.at >= from).map((p) => p.ms).sort((a, b) => a - b);
    console.log(`${full ? 'full build' : `rebuild ${i + 1}`}: ${response.status}, ${summary.full ? 'from scratch' : 'incremental'}, ` +
      `${((summary.buildMs ?? NaN) / 1000).toFixed(1)} s in the model thread (${((performance.now() - started) / 1000).toFixed(1)} s asked), ` +
      `${summary.eventsScanned?.toLocaleString('en-US')} events read, ${summary.eventsRead?.toLocaleString('en-US')} counted, ` +
      `${summary.relatedItems} items with related, ${summary.trendingItems} trending; probe p99 ${percentile(during, 99).toFixed(1)} ms over ${during.length}`);
  }
}

/** Every 5 s: sizes, events stored, RSS, the probe's p99 over those seconds. */
function timeline(dataDir: string, child: ChildProcess): { stop: () => void; peakBytes: () => number } {
  const started = Date.now();
  let peak = 0;
  let stored: Database.Database | undefined;
  const storedEvents = () => {
    try {
      stored ??= new Database(join(dataDir, 'insights.sqlite'), { readonly: true, fileMustExist: true });
      return (stored.prepare('SELECT coalesce(SUM(n), 0) AS n FROM event_counts').get() as { n: number }).n;
    } catch {
      return NaN;
    }
  };
  const line = () => {
    const folder = folderBytes(dataDir);
    peak = Math.max(peak, folder);
    const recent = probes.filter((p) => p.at > Date.now() - 5000).map((p) => p.ms).sort((a, b) => a - b);
    console.log(
      `${String(Math.round((Date.now() - started) / 1000)).padStart(4)} s  ${phase.padEnd(8)} folder ${mb(folder).padStart(5)} MB ` +
        `(insights ${mb(fileBytes(join(dataDir, 'insights.sqlite')))} MB + log ${mb(fileBytes(join(dataDir, 'insights.sqlite-wal')))} MB, ` +
        `models ${mb(fileBytes(join(dataDir, 'insights-models.sqlite')) + fileBytes(join(dataDir, 'insights-models.sqlite-wal')))} MB)  ` +
        `stored ${storedEvents().toLocaleString('en-US').padStart(10)}  RSS ${processRssMb(serverPid(child)).toFixed(0)} MB  ` +
        `flood accepted ${flood.accepted.toLocaleString('en-US')} refused ${flood.refusedEvents.toLocaleString('en-US')}  ` +
        `probe p99 ${percentile(recent, 99).toFixed(1)} ms (max ${(recent.at(-1) ?? NaN).toFixed(1)})`,
    );
  };
  line();
  const timer = setInterval(line, 5000);
  return { stop: () => (clearInterval(timer), line(), stored?.close()), peakBytes: () => peak };
}

function summary(startBytes: number, peakBytes: number, endBytes: number): void {
  console.log('\nphase     probes   p50 ms   p99 ms   max ms  >100 ms  isalive max ms');
  for (const name of ['full build', 'prefill', 'flood', 'rebuilds', 'after'] as Phase[]) {
    const times = probes.filter((p) => p.phase === name).map((p) => p.ms).sort((a, b) => a - b);
    const aliveMax = Math.max(...alive.filter((a) => a.phase === name).map((a) => a.ms));
    console.log(`${name.padEnd(9)} ${String(times.length).padStart(6)} ${percentile(times, 50).toFixed(1).padStart(8)} ${percentile(times, 99).toFixed(1).padStart(8)} ` +
      `${(times.at(-1) ?? NaN).toFixed(1).padStart(8)} ${String(times.filter((ms) => ms > 100).length).padStart(8)} ${aliveMax.toFixed(1).padStart(15)}`);
  }
  console.log(`\nflood: ${flood.requests.toLocaleString('en-US')} requests from ${IPS.length} addresses × ${CONNECTIONS} connections in ${DURATION_MS / 1000} s: ` +
    `${flood.accepted.toLocaleString('en-US')} events accepted, ${flood.refusedEvents.toLocaleString('en-US')} refused (${flood.refused.toLocaleString('en-US')} requests answered 429), ` +
    `${flood.other} other answers, ${flood.errors} connection errors`);
  console.log(`data folder: ${mb(startBytes)} MB before the prefill, peak ${mb(peakBytes)} MB, ${mb(endBytes)} MB at the end`);
}

async function stopProduct(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

const dataDir = tempDir('vitrine-events-flood-');
if (PRELOAD > 0) {
  // Started once to create its folder (a folder holding only insights would be refused), stopped, preloaded.
  await stopProduct((await startProduct(dataDir)).child);
  preload(dataDir);
}
const { child, url } = await startProduct(dataDir);
const startBytes = folderBytes(dataDir);
const stopProbe = probe(url);
const line = timeline(dataDir, child);
try {
  if (PRELOAD > 0) {
    phase = 'full build';
    await rebuilds(url, 1, true);
  }
  phase = 'prefill';
  if (PREFILL > 0) await prefill(url);
  phase = 'flood';
  await runFlood(url);
  phase = 'rebuilds';
  await rebuilds(url, REBUILDS);
  phase = 'after';
  await sleep(3000);
} finally {
  await stopProbe();
  line.stop();
  const endBytes = folderBytes(dataDir);
  summary(startBytes, line.peakBytes(), endBytes);
  await stopProduct(child);
  if (values.keep !== undefined) cpSync(dataDir, values.keep, { recursive: true });
  removeDir(dataDir);
}
