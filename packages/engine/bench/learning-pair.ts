/**
 * What learning costs one mix of `npm run bench`, in process: the mix's queries run on one index with learning
 * (`vitrine+learning`'s inputs, `engines/learning.ts`) and on its twin without, alternately first and second,
 * after a first round that warms both up. Prints p50 and p99 of each side and their ratios; with `--worst`, the slowest
 * searches with learning beside the same query's time without. Seconds, not the minutes of the whole
 * benchmark: for telling two versions of learning's code apart (the benchmark's paired rows are the figures).
 *
 *   node --conditions=source --v8-pool-size=0 --import tsx packages/engine/bench/learning-pair.ts \
 *     [--size 100000] [--queries 2000] [--rounds 2] [--mix c] [--worst]
 */
import { generateProducts } from '@vitrine/demo';
import { vitrineEngine } from './engines/vitrine.ts';
import { buildWorkload, numberOption, percentile, type Workload } from './workload.ts';

type Mix = 'a' | 'b' | 'c' | 'd';

const size = numberOption('size', 100_000);
const queries = numberOption('queries', 2000);
const rounds = Math.max(2, numberOption('rounds', 2));
const mixAt = process.argv.indexOf('--mix');
const mix = (mixAt === -1 ? 'c' : process.argv[mixAt + 1]) as Mix;
if (!['a', 'b', 'c', 'd'].includes(mix)) throw new Error(`--mix: one of a, b, c, d (not ${mix})`);

// The queries come from one pass of the generator and the index from a second, as in `npm run bench`: a million
// products kept as objects would be ~800 MB of JS heap the server never has, and every young collection walks
// the old generation's pages (2–4 ms more a scavenge at that size).
const workload: Workload = buildWorkload([...generateProducts(size)], queries);
const engine = vitrineEngine({ learning: true });
engine.build(generateProducts(size));
engine.buildTwin?.(generateProducts(size));
engine.prepare?.([workload]);
const list = workload[mix] as unknown[];
const withLearning = (q: unknown) => engine[mix](q as never);
const withoutLearning = (q: unknown) => engine.withoutLearning![mix](q as never);

const timed = (search: (q: unknown) => unknown, q: unknown): number => {
  const started = performance.now();
  search(q);
  return performance.now() - started;
};
const on: number[] = [];
const off: number[] = [];
for (let round = 0; round < rounds; round++) {
  for (let i = 0; i < list.length; i++) {
    const learningFirst = (i + round) % 2 === 0;
    const first = timed(learningFirst ? withLearning : withoutLearning, list[i]);
    const second = timed(learningFirst ? withoutLearning : withLearning, list[i]);
    if (round === 0) continue;
    on.push(learningFirst ? first : second);
    off.push(learningFirst ? second : first);
  }
}

const [onP50, onP99, offP50, offP99] = [percentile(on, 0.5), percentile(on, 0.99), percentile(off, 0.5), percentile(off, 0.99)];
console.log(
  `(${mix}) at ${size.toLocaleString('en-US')} products, ${on.length} searches a side (ms): learning on p50 ${onP50.toFixed(3)} p99 ${onP99.toFixed(3)}; ` +
    `off p50 ${offP50.toFixed(3)} p99 ${offP99.toFixed(3)}; on / off p50 ${(onP50 / offP50).toFixed(2)} p99 ${(onP99 / offP99).toFixed(2)}`,
);
if (process.argv.includes('--worst')) {
  const slowest = on.map((_, i) => i).sort((x, y) => on[y] - on[x]).slice(0, 20);
  for (const i of slowest) console.log(`  ${on[i].toFixed(3)} on, ${off[i].toFixed(3)} off  ${JSON.stringify(list[i % list.length])}`);
}
