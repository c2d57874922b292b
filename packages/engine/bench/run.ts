/**
 * Vitrine's engine against @orama/orama, minisearch and flexsearch on the same generated catalogue.
 *
 *   npm run bench -- --sizes 100000,1000000 [--queries 500] [--engines vitrine,orama,minisearch,flexsearch]
 *     (`vitrine+learning`: Vitrine with every search carrying re-ranking boosts and a shopper's affinities, each
 *     query also timed without learning on a twin index, in turn first and second: a paired on/off ratio, also
 *     over the searches no garbage collection paused, with how many it paused on each side: `pausedOnes`)
 *     [--timeout 900]   (seconds per engine and size; an engine past it is reported as timed out)
 *
 * Each engine runs in its own child process (same Node flags, and V8's background threads sized to the cores as
 * the `vitrine` command runs the server: `V8_POOL_FLAG` in server/src/process-memory.ts), so one engine's heap
 * and garbage never slow another. A child draws the query mixes from the generated catalogue, lets go of it,
 * builds its index from a second pass of the generator (timed until it can answer, minus the generator's own
 * time), measures the memory the engine then holds (heap and buffers, records included if it keeps them), warms
 * up on a separate query set, then times every query of the workload (see `workload.ts`) and prints one JSON
 * line. The parent prints one table per size with p50/p99 per query mix and
 * Vitrine's ratio to the fastest peer (below 1: Vitrine is faster).
 */
import { spawn } from 'node:child_process';
import { PerformanceObserver } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { generateProducts } from '@vitrine/demo';
import type { Product } from '@vitrine/protocol';
import { buildWorkload, percentile, type Workload } from './workload.ts';
import type { BenchEngine } from './engines/types.ts';

const KINDS = ['a', 'b', 'c', 'd'] as const;
/**
 * Time budgets, so that one run covers every engine at 100k and 1M within the hour: a slow engine measures at
 * least MIN_MEASURED queries per mix, then stops once the mix has taken MIX_BUDGET_MS; warming up stops after
 * WARM_BUDGET_MS per mix. The table says how many queries each such engine measured.
 */
const MIX_BUDGET_MS = 20_000;
const WARM_BUDGET_MS = 5_000;
const MIN_MEASURED = 5;
type Kind = (typeof KINDS)[number];
/** A mix's searches as timed: each one's time and when it started (`performance.now()`). */
interface Timings {
  times: number[];
  starts: number[];
}

interface Result {
  engine: string;
  size: number;
  buildMs: number;
  heapMB: number;
  latency: Record<Kind, { p50: number; p99: number; n: number }>;
  /** `vitrine+learning`: a twin index without learning, timed query by query beside it. */
  pairedOff?: Record<Kind, { p50: number; p99: number; n: number }>;
  /**
   * `vitrine+learning`: each side's searches that no garbage collection paused (`n`: how many; `paused`: how
   * many it paused). See `pausedOnes`.
   */
  unpaused?: Record<'on' | 'off', Record<Kind, { p50: number; p99: number; n: number; paused: number }>>;
  error?: string;
}

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] !== undefined ? process.argv[at + 1] : fallback;
}

async function engineNamed(name: string): Promise<BenchEngine> {
  switch (name) {
    case 'vitrine':
      return (await import('./engines/vitrine.ts')).vitrineEngine();
    case 'vitrine+learning':
      return (await import('./engines/vitrine.ts')).vitrineEngine({ learning: true });
    case 'orama':
      return (await import('./engines/orama.ts')).oramaEngine();
    case 'minisearch':
      return (await import('./engines/minisearch.ts')).minisearchEngine();
    case 'flexsearch':
      return (await import('./engines/flexsearch.ts')).flexsearchEngine();
    default:
      throw new Error(`unknown engine ${name}`);
  }
}

function settle(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) {
    gc();
    gc();
  }
  const memory = process.memoryUsage();
  return memory.heapUsed + memory.arrayBuffers;
}

/** The query mixes and the time one pass of the generator takes; the products are dropped on return. */
function drawWorkloads(size: number, queries: number): { warm: Workload; workload: Workload; generationMs: number } {
  const started = performance.now();
  const products: Product[] = [...generateProducts(size, 1)];
  const generationMs = performance.now() - started;
  return { warm: buildWorkload(products, Math.min(200, queries), 99), workload: buildWorkload(products, queries, 7), generationMs };
}

async function child(name: string, size: number, queries: number): Promise<Result> {
  // The query mixes come from one pass over the catalogue, timed: the build streams a second pass of the same
  // generator, and its time is taken off the build time. The harness then holds no product: what stays in
  // memory after the build is what the engine keeps (records included, if it keeps them).
  const { warm, workload, generationMs } = drawWorkloads(size, queries);
  const engine = await engineNamed(name);
  const before = settle();
  const started = performance.now();
  await engine.build(generateProducts(size, 1));
  const buildMs = performance.now() - started - generationMs;
  const heapMB = (settle() - before) / 1e6;
  // Untimed and after the memory is read: the index answering without learning (`BenchEngine.withoutLearning`).
  engine.buildTwin?.(generateProducts(size, 1));
  engine.prepare?.([warm, workload]);
  const off = engine.withoutLearning;
  // With a twin to pair with, the collections' spans, to tell apart the searches one paused (see `pausedOnes`).
  const pauses: Array<[number, number]> = [];
  const observer = off === undefined ? null : new PerformanceObserver((list) => list.getEntries().forEach((entry) => pauses.push([entry.startTime, entry.startTime + entry.duration])));
  observer?.observe({ entryTypes: ['gc'] });
  /** `timedOff`: with an engine that also answers without learning, each query both ways, in turn first. */
  const run = (workload: Workload, kind: Kind, timed: Timings | null, timedOff: Timings | null): void => {
    const started = performance.now();
    const time = (answer: BenchEngine['a'], query: unknown, into: Timings | null): void => {
      const t = performance.now();
      (answer as (q: unknown) => number)(query);
      into?.times.push(performance.now() - t);
      into?.starts.push(t);
    };
    workload[kind].every((query, i) => {
      if (off === undefined) time(engine[kind] as BenchEngine['a'], query, timed);
      else if (i % 2 === 0) {
        time(engine[kind] as BenchEngine['a'], query, timed);
        time(off[kind] as BenchEngine['a'], query, timedOff);
      } else {
        time(off[kind] as BenchEngine['a'], query, timedOff);
        time(engine[kind] as BenchEngine['a'], query, timed);
      }
      const elapsed = performance.now() - started;
      return timed === null ? elapsed <= WARM_BUDGET_MS : elapsed <= MIX_BUDGET_MS || timed.times.length < MIN_MEASURED;
    });
  };
  for (const kind of KINDS) run(warm, kind, null, null);
  const latency = {} as Result['latency'];
  const pairedOff = {} as NonNullable<Result['pairedOff']>;
  const unpaused = { on: {}, off: {} } as NonNullable<Result['unpaused']>;
  const summary = (times: number[]) => ({ p50: percentile(times, 0.5), p99: percentile(times, 0.99), n: times.length });
  for (const kind of KINDS) {
    const on: Timings = { times: [], starts: [] };
    const offSide: Timings = { times: [], starts: [] };
    run(workload, kind, on, offSide);
    latency[kind] = summary(on.times);
    if (off === undefined) continue;
    pairedOff[kind] = summary(offSide.times);
    // The collections' entries come after the task that ran them.
    await new Promise((resolve) => setTimeout(resolve, 20));
    for (const [side, timings] of [['on', on], ['off', offSide]] as const) {
      const paused = pausedOnes(timings, pauses);
      unpaused[side][kind] = { ...summary(timings.times.filter((_, i) => !paused.has(i))), paused: paused.size };
    }
  }
  observer?.disconnect();
  if (off !== undefined) return { engine: name, size, buildMs, heapMB, latency, pairedOff, unpaused };
  return { engine: name, size, buildMs, heapMB, latency };
}

/**
 * The searches (indexes into `times`) a garbage collection paused. Which of a pair's two searches a collection
 * lands in is chance (the allocations of both sides bring it), and at 100,000 products the ~1% it lands in are
 * the slowest 1% of a mix: the paired p99s then say which side drew more of them. Learning's own cost at the
 * tail is read without them; what it adds to the collections is what it allocates more (`bench/alloc.ts
 * --learning`: 1–5% a search, 2026-12-06).
 */
function pausedOnes({ times, starts }: Timings, pauses: ReadonlyArray<[number, number]>): Set<number> {
  const paused = new Set<number>();
  starts.forEach((start, i) => {
    if (pauses.some(([from, to]) => from < start + times[i] && to > start)) paused.add(i);
  });
  return paused;
}

function spawnChild(name: string, size: number, queries: number, timeoutSeconds: number): Promise<Result> {
  const script = fileURLToPath(import.meta.url);
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, [...process.execArgv, '--max-old-space-size=8192', '--v8-pool-size=0', script, '--child', name, '--size', String(size), '--queries', String(queries)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      proc.kill('SIGKILL');
    }, timeoutSeconds * 1000);
    let out = '';
    proc.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    proc.on('close', (code) => {
      clearTimeout(timer);
      const line = out.trim().split('\n').pop() ?? '';
      try {
        resolve(JSON.parse(line) as Result);
      } catch {
        const error = timedOut ? `timed out after ${timeoutSeconds} s` : `exited with ${code}`;
        resolve({ engine: name, size, buildMs: NaN, heapMB: NaN, latency: {} as Result['latency'], error });
      }
    });
  });
}

const fmt = (n: number | undefined, digits = 2): string => (n === undefined || Number.isNaN(n) ? 'n/a' : n.toFixed(digits));

function printTable(size: number, results: Result[], queries: number): void {
  console.log(`\n${size.toLocaleString('en')} products`);
  const header = ['engine', 'build s', 'heap MB', ...KINDS.flatMap((k) => [`${k} p50`, `${k} p99`])];
  const rows = results.map((r) => [
    r.engine + (r.error ? ` (${r.error})` : ''),
    fmt(r.buildMs / 1000, 1),
    fmt(r.heapMB, 0),
    ...KINDS.flatMap((k) => [fmt(r.latency[k]?.p50), fmt(r.latency[k]?.p99)]),
  ]);
  const vitrine = results.find((r) => r.engine === 'vitrine' && !r.error);
  const peers = results.filter((r) => !r.engine.startsWith('vitrine') && !r.error);
  if (vitrine && peers.length > 0) {
    const best = (pick: (r: Result) => number): number => Math.min(...peers.map(pick).filter((v) => !Number.isNaN(v)));
    rows.push([
      'vitrine / fastest peer',
      fmt(vitrine.buildMs / best((r) => r.buildMs)),
      fmt(vitrine.heapMB / best((r) => r.heapMB)),
      ...KINDS.flatMap((k) => [fmt(vitrine.latency[k].p50 / best((r) => r.latency[k]?.p50 ?? NaN)), fmt(vitrine.latency[k].p99 / best((r) => r.latency[k]?.p99 ?? NaN))]),
    ]);
  }
  // Learning's cost: the same engine, each search carrying re-ranking boosts and a shopper's affinities; read
  // against a twin index answering without learning in the same process, query by query (two processes differ
  // by more than learning does: heap layout, the machine's other work; `BenchEngine.withoutLearning`).
  const learning = results.find((r) => r.engine === 'vitrine+learning' && !r.error);
  let pausedNote = '';
  if (learning?.pairedOff) {
    const paired = learning.pairedOff;
    rows.push(['  twin index, learning off (paired)', '', '', ...KINDS.flatMap((k) => [fmt(paired[k].p50), fmt(paired[k].p99)])]);
    rows.push(['  learning on / off (paired)', '', '', ...KINDS.flatMap((k) => [fmt(learning.latency[k].p50 / paired[k].p50), fmt(learning.latency[k].p99 / paired[k].p99)])]);
    const unpaused = learning.unpaused;
    if (unpaused) {
      rows.push(['  on / off, searches no GC paused', '', '', ...KINDS.flatMap((k) => [fmt(unpaused.on[k].p50 / unpaused.off[k].p50), fmt(unpaused.on[k].p99 / unpaused.off[k].p99)])]);
      pausedNote = `  searches a collection paused, learning on / off: ${KINDS.map((k) => `${k} ${unpaused.on[k].paused} / ${unpaused.off[k].paused}`).join(', ')}`;
    }
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
  if (pausedNote !== '') console.log(pausedNote);
  const partial = results.filter((r) => !r.error && KINDS.some((k) => r.latency[k].n < queries));
  for (const r of partial) console.log(`  ${r.engine}: queries measured per mix ${KINDS.map((k) => `${k}=${r.latency[k].n}`).join(', ')} (time budget)`);
}

async function main(): Promise<void> {
  if (process.argv.includes('--child')) {
    const result = await child(option('child', 'vitrine'), Number(option('size', '100000')), Number(option('queries', '500')));
    console.log(JSON.stringify(result));
    return;
  }
  const sizes = option('sizes', '100000').split(',').map(Number);
  const queries = Number(option('queries', '500'));
  const engines = option('engines', 'vitrine,orama,minisearch,flexsearch').split(',');
  const timeoutSeconds = Number(option('timeout', '900'));
  console.log(`Catalogue: @vitrine/demo generateProducts(size, seed 1). Queries per mix: ${queries} (after ${Math.min(200, queries)} warm-up).`);
  console.log('Latencies in ms; (a) as-you-type, (b) + brand OR-filter, price range, 4 facets, (c) empty query on a category + facets, (d) InstantSearch multi-query for two refined disjunctive facets.');
  for (const size of sizes) {
    const results: Result[] = [];
    for (const name of engines) results.push(await spawnChild(name, size, queries, timeoutSeconds));
    printTable(size, results, queries);
  }
}

await main();
