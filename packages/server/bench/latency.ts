/**
 * Where the HTTP benchmark's latency goes (`npm run bench:latency`): the same server, catalogue and load as
 * `http.ts` (50 connections of InstantSearch-shaped multi-queries and 10% write batches), generated here on raw
 * keep-alive sockets so that every request's latency is kept with its kind and its second. Prints percentiles for
 * searches and writes apart, and each second's throughput, p99 and max: a stall (a snapshot, a compaction, a
 * long garbage collection) shows as a second, not as a shift of the whole distribution.
 *
 *   node --import tsx packages/server/bench/latency.ts [--size 100000] [--duration 30] [--connections 50]
 *     [--writes 0.1] [--threads 1]
 *
 * Do not run it while tests run: the machine's cores are shared.
 */
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { parseArgs } from 'node:util';
import { removeDir, spawnServer, tempDir } from '../src/test-support.ts';
import { SEARCH_PATH, WRITE_PATH, headers, seedCatalogue } from './workload.ts';

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '100000' },
    duration: { type: 'string', default: '30' },
    connections: { type: 'string', default: '50' },
    writes: { type: 'string', default: '0.1' },
    threads: { type: 'string', default: '1' },
  },
});
const DURATION_MS = Number(values.duration) * 1000;
const WRITE_SHARE = Number(values.writes);

/** One answered request: when it was sent (ms since the load started), how long it took, whether a write. */
interface Sample {
  sentAt: number;
  latency: number;
  write: boolean;
}

function percentile(sorted: number[], p: number): string {
  return sorted.length === 0 ? '-' : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))].toFixed(1);
}

function summary(name: string, samples: Sample[]): string {
  const sorted = samples.map((s) => s.latency).sort((a, b) => a - b);
  return `${name}: ${sorted.length} requests, p50 ${percentile(sorted, 0.5)} / p90 ${percentile(sorted, 0.9)} / p99 ${percentile(sorted, 0.99)} / max ${percentile(sorted, 1)} ms`;
}

/**
 * CPU time (ms) the process has used, all threads, from /proc (Linux); undefined elsewhere. Per request, it says
 * what a request costs whatever the share of the cores the load generator took.
 */
function processCpuMs(pid: number | undefined): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the command name, in clock ticks.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return undefined;
  }
}

const dataDir = tempDir('vitrine-bench-');
const server = await spawnServer({ VITRINE_DATA_DIR: dataDir, VITRINE_SEARCH_THREADS: String(values.threads) });
try {
  console.log(`seeding ${values.size} products…`);
  const { searchBody, writeBody } = await seedCatalogue(server.url, Number(values.size));
  // As http.ts does before its load: 101 searches one after the other.
  for (let i = 0; i < 101; i++) await (await fetch(`${server.url}${SEARCH_PATH}`, { method: 'POST', headers, body: searchBody() })).arrayBuffer();

  const { hostname, port } = new URL(server.url);
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  const samples: Sample[] = [];
  const errors: string[] = [];
  const cpuBefore = processCpuMs(server.child.pid);
  const start = performance.now();
  const connection = () =>
    new Promise<void>((done, fail) => {
      const socket = connect(Number(port), hostname);
      socket.setNoDelay(true);
      socket.setEncoding('latin1');
      let buffered = '';
      let sentAt = 0;
      let write = false;
      const send = (): void => {
        if (performance.now() - start >= DURATION_MS) {
          socket.end();
          done();
          return;
        }
        write = Math.random() < WRITE_SHARE;
        const body = write ? writeBody() : searchBody();
        sentAt = performance.now();
        socket.write(`POST ${write ? WRITE_PATH : SEARCH_PATH} HTTP/1.1\r\nhost: ${hostname}\r\n${head}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      };
      socket.on('data', (chunk: string) => {
        buffered += chunk;
        // One response at a time per connection: complete once its body (content-length) has arrived.
        const headEnd = buffered.indexOf('\r\n\r\n');
        if (headEnd < 0) return;
        const length = Number(/content-length: (\d+)/i.exec(buffered.slice(0, headEnd))?.[1] ?? NaN);
        if (!Number.isFinite(length) || buffered.length < headEnd + 4 + length) return;
        if (!buffered.startsWith('HTTP/1.1 200')) errors.push(buffered.slice(0, 120));
        buffered = buffered.slice(headEnd + 4 + length);
        samples.push({ sentAt: sentAt - start, latency: performance.now() - sentAt, write });
        send();
      });
      socket.on('error', fail);
      socket.on('connect', send);
    });
  await Promise.all(Array.from({ length: Number(values.connections) }, connection));

  const cpuUsed = (processCpuMs(server.child.pid) ?? NaN) - (cpuBefore ?? NaN);
  const seconds = DURATION_MS / 1000;
  console.log(`${samples.length} requests in ${seconds} s (${Math.round(samples.length / seconds)}/s), ${errors.length} errors${errors.length > 0 ? `: ${errors[0]}` : ''}`);
  if (Number.isFinite(cpuUsed)) {
    console.log(`server CPU: ${(cpuUsed / samples.length).toFixed(3)} ms per request, ${(cpuUsed / 1000 / seconds).toFixed(2)} cores`);
  }
  console.log(summary('all', samples));
  console.log(summary('searches', samples.filter((s) => !s.write)));
  console.log(summary('writes', samples.filter((s) => s.write)));
  const bySecond: string[] = [];
  for (let second = 0; second < seconds; second++) {
    const inSecond = samples.filter((s) => s.sentAt >= second * 1000 && s.sentAt < (second + 1) * 1000);
    const sorted = inSecond.map((s) => s.latency).sort((a, b) => a - b);
    bySecond.push(`${second}s ${sorted.length} ${percentile(sorted, 0.99)}/${percentile(sorted, 1)}`);
  }
  console.log(`per second (requests sent, p99/max ms): ${bySecond.join(' | ')}`);
} finally {
  await server.kill();
  removeDir(dataDir);
}
