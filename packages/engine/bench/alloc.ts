/**
 * What a search allocates, per mix of `npm run bench` (in process, Vitrine only), and where: V8's sampling heap
 * profiler over every query of the mix, objects collected by either collector included.
 *
 *   node --conditions=source --import tsx packages/engine/bench/alloc.ts [--size 100000] [--queries 2000] [--top 12] [--learning]
 *
 * `--learning`: every search carries what a shop that learns hands the engine, as `vitrine+learning` in
 * `npm run bench` (`engines/learning.ts`).
 *
 * Why it matters: young-generation collections come at the rate searches allocate (one per 16 MB at the
 * default size), each a pause of a few milliseconds, and the searches they land in are the slowest 1%. The
 * figures are samples (one per KB allocated on average): repeated runs differ by a kilobyte or two a search.
 * Functions are those on the stack at the allocation, as optimised code inlines them (run with
 * `--no-turbo-inlining` for the callee that allocated); built-ins are shown with their caller.
 */
import { Session } from 'node:inspector/promises';
import { generateProducts } from '@vitrine/demo';
import { vitrineEngine } from './engines/vitrine.ts';
import { buildWorkload, numberOption } from './workload.ts';

interface ProfileNode {
  callFrame: { functionName: string; url: string };
  selfSize: number;
  children: ProfileNode[];
}

const size = numberOption('size', 100_000);
const queries = numberOption('queries', 2000);
const top = numberOption('top', 12);
const products = [...generateProducts(size, 1)];
const engine = vitrineEngine({ learning: process.argv.includes('--learning') });
engine.build(products);
const kinds = ['a', 'b', 'c', 'd'] as const;
const warm = buildWorkload(products, 200, 99);
const workload = buildWorkload(products, queries, 7);
engine.prepare?.([warm, workload]);
for (const kind of kinds) for (const q of warm[kind]) engine[kind](q as never);
const session = new Session();
session.connect();

const label = (node: ProfileNode): string => `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.split('/').slice(-2).join('/')}`;

console.log(`${size.toLocaleString('en-US')} products, ${queries} queries a mix; KB allocated per search (mix (d): its three searches)`);
for (const kind of kinds) {
  await session.post('HeapProfiler.startSampling', { samplingInterval: 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  for (const q of workload[kind]) engine[kind](q as never);
  const { profile } = await session.post('HeapProfiler.stopSampling');
  const bytes = new Map<string, number>();
  const walk = (node: ProfileNode, caller: string): void => {
    const builtin = node.callFrame.url === '' || node.callFrame.url.startsWith('node:');
    const key = builtin ? `${label(node)} <- ${caller}` : label(node);
    bytes.set(key, (bytes.get(key) ?? 0) + node.selfSize);
    for (const child of node.children) walk(child, builtin ? caller : label(node));
  };
  walk(profile.head as ProfileNode, '(root)');
  const total = [...bytes.values()].reduce((sum, b) => sum + b, 0);
  const perSearch = (b: number) => (b / workload[kind].length / 1000).toFixed(1);
  console.log(`(${kind}) ${perSearch(total)} KB`);
  for (const [key, b] of [...bytes].sort((x, y) => y[1] - x[1]).slice(0, top)) console.log(`  ${perSearch(b).padStart(6)}  ${key}`);
}
session.disconnect();
