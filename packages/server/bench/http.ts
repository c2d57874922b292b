/**
 * HTTP benchmark (`npm run bench:http`): the server in its own process with a generated catalogue, loaded by
 * autocannon with InstantSearch-shaped multi-queries (a hits query plus one query per refined disjunctive
 * facet) mixed with a share of small write batches; then the same load against a bare Node HTTP server that
 * answers a fixed body of the same size. Prints throughput, latencies and the ratio.
 *
 * Each target first gets the same load for `--warmup` seconds, measured apart and printed as well: a server just
 * started and seeded runs its first seconds at half speed (the JIT compiling, the word and result caches
 * filling; `bench:latency` prints them second by second), and a two-minute window starting cold counts those
 * seconds in its tail. `--warmup 0` measures from cold.
 *
 *   node --import tsx packages/server/bench/http.ts [--size 100000] [--duration 120] [--warmup 10]
 *     [--connections 50] [--writes 0.1]
 *     [--apply-interval 0]   (the server's applyIntervalMs)
 *     [--cpu-prof <dir>]     (write a V8 CPU profile of the server process into <dir>)
 *     [--threads 1]          (the server's searchThreads: 1 is what `vitrine start` runs on 2 cores or more)
 *     [--accept-encoding 'gzip, deflate, br']   (sent with every request, as a browser does: search answers of
 *                            1 KB or more then come compressed; autocannon sends none by default)
 *
 * Do not run it while tests run: the machine's cores are shared.
 */
import autocannon from 'autocannon';
import type { Result } from 'autocannon';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { processRssMb, removeDir, spawnServer, tempDir } from '../src/test-support.ts';
import { SEARCH_PATH, WRITE_PATH, headers, seedCatalogue } from './workload.ts';

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '100000' },
    duration: { type: 'string', default: '120' },
    warmup: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    writes: { type: 'string', default: '0.1' },
    'apply-interval': { type: 'string', default: '0' },
    'cpu-prof': { type: 'string' },
    threads: { type: 'string', default: '1' },
    'accept-encoding': { type: 'string' },
  },
});
const SIZE = Number(values.size);
const DURATION = Number(values.duration);
const WARMUP = Number(values.warmup);
const CONNECTIONS = Number(values.connections);
const WRITE_SHARE = Number(values.writes);

function summarize(name: string, result: Result): Record<string, string | number> {
  return {
    target: name,
    'req/s': Math.round(result.requests.average),
    'p50 ms': result.latency.p50,
    'p90 ms': result.latency.p90,
    'p99 ms': result.latency.p99,
    'max ms': result.latency.max,
    // Response bytes per request, headers included: what compression saves.
    'bytes/req': Math.round(result.throughput.average / result.requests.average),
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
  const { searchBody, writeBody } = await seedCatalogue(server.url, SIZE);
  console.log(`seeded in ${((performance.now() - started) / 1000).toFixed(1)} s, server RSS ${processRssMb(server.child.pid).toFixed(1)} MB`);

  // The bare server answers the median size of a sample of responses (one response alone may have no hits).
  const sizes: number[] = [];
  for (let i = 0; i < 101; i++) {
    const sample = await fetch(`${server.url}${SEARCH_PATH}`, { method: 'POST', headers, body: searchBody() });
    sizes.push((await sample.arrayBuffer()).byteLength);
  }
  const responseBytes = sizes.sort((a, b) => a - b)[sizes.length >> 1];
  console.log(`median multi-query response: ${responseBytes} bytes (of ${sizes.length} sampled)`);

  const load = (url: string) =>
    autocannon({
      url,
      connections: CONNECTIONS,
      duration: DURATION,
      ...(WARMUP > 0 ? { warmup: { connections: CONNECTIONS, duration: WARMUP } } : {}),
      headers: values['accept-encoding'] === undefined ? headers : { ...headers, 'accept-encoding': values['accept-encoding'] },
      requests: [
        {
          method: 'POST',
          setupRequest: (request) =>
            Math.random() < WRITE_SHARE
              ? { ...request, path: WRITE_PATH, body: writeBody() }
              : { ...request, path: SEARCH_PATH, body: searchBody() },
        },
      ],
    });
  // The load generator shares the machine's cores with the server: say how much of them it took.
  const loadCpuBefore = process.cpuUsage();
  let peakRss = 0;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, processRssMb(server.child.pid))), 500);
  const vitrine = await load(server.url);
  clearInterval(sampler);
  const endRss = processRssMb(server.child.pid);
  const loadCpu = process.cpuUsage(loadCpuBefore);
  const loadCores = (loadCpu.user + loadCpu.system) / 1e6 / (DURATION + WARMUP);
  // A graceful stop, waited for, so that a CPU profile is written and the bare server gets the cores to itself.
  const stopped = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await stopped;
  const bare = await spawnServer({ BODY_BYTES: String(responseBytes) }, join(import.meta.dirname, 'bare-server.ts'));
  const baseline = await load(bare.url);
  bare.child.kill('SIGTERM');
  const rows = [summarize('vitrine', vitrine), summarize('bare node http', baseline)];
  if (vitrine.warmup !== undefined && baseline.warmup !== undefined) {
    rows.push(summarize(`vitrine, ${WARMUP} s warm-up`, vitrine.warmup), summarize(`bare, ${WARMUP} s warm-up`, baseline.warmup));
  }
  console.table(rows);
  console.log(`throughput ratio vitrine / bare: ${(vitrine.requests.average / baseline.requests.average).toFixed(3)}`);
  console.log(`server RSS under the load: peak ${peakRss.toFixed(1)} MB, at its end ${endRss.toFixed(1)} MB`);
  console.log(`the load generator used ${loadCores.toFixed(2)} of the machine's cores while loading vitrine`);
  console.log(
    `catalogue ${SIZE}, ${CONNECTIONS} connections, ${DURATION} s measured after a ${WARMUP} s warm-up, ${Math.round(WRITE_SHARE * 100)}% writes of 10 partial updates, applyIntervalMs ${values['apply-interval']}, searchThreads ${values.threads}, accept-encoding ${values['accept-encoding'] ?? 'none'}`,
  );
} finally {
  await server.kill();
  removeDir(dataDir);
}
