/**
 * What records' vectors cost in the engine (8-bit codes and scale, the float32 vector, and since the approximate
 * index its graph): memory per vector (array buffers and heap, before and after, garbage collected), and a
 * vector search's latency over them through `SearchIndex`, unfiltered and with a filter keeping a tenth (the
 * approximate index above 10⁶ codes, the exact scan below and for narrow filters). The approximate index against
 * the exact one and native libraries: `npm run bench:vectors` (`vectors.ts`).
 *
 *   node --conditions=source --import tsx --expose-gc packages/engine/bench/vector-memory.ts [--size 20000] [--dims 384] [--queries 50]
 */
import { SearchIndex } from '../src/index.ts';
import { numberOption } from './workload.ts';

const size = numberOption('size', 20_000);
const dims = numberOption('dims', 384);
const queries = numberOption('queries', 50);
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with --expose-gc');

let seed = 42;
const random = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
const vector = (): number[] => Array.from({ length: dims }, random);

const measure = (): { buffers: number; heap: number } => {
  gc();
  const { arrayBuffers, heapUsed } = process.memoryUsage();
  return { buffers: arrayBuffers, heap: heapUsed };
};

const settings = { attributesForFaceting: ['brand'], embedders: { bench: { source: 'userProvided' as const, dimensions: dims } } };
const plain = new SearchIndex(settings);
const withVectors = new SearchIndex(settings);
const records = (vectors: boolean) => Array.from({ length: 1000 }, (_, i) => ({ brand: `b${i % 10}`, ...(vectors ? { _vectors: { bench: vector() } } : {}) }));
// The same records with and without vectors: the difference is the vectors' cost.
const before = measure();
for (let start = 0; start < size; start += 1000) plain.saveObjects(records(false).map((r, i) => ({ ...r, objectID: String(start + i) })));
const middle = measure();
for (let start = 0; start < size; start += 1000) withVectors.saveObjects(records(true).map((r, i) => ({ ...r, objectID: String(start + i) })));
const after = measure();
const perVector = (key: 'buffers' | 'heap') => (after[key] - middle[key] - (middle[key] - before[key])) / size;
console.log(`${size} vectors of ${dims} dimensions: ${perVector('buffers').toFixed(0)} bytes of array buffers and ${perVector('heap').toFixed(0)} of heap per vector`);

const time = (params: Record<string, unknown>): string => {
  const times: number[] = [];
  for (let i = 0; i < queries; i++) {
    const started = performance.now();
    withVectors.search({ vector: vector(), hitsPerPage: 10, attributesToRetrieve: ['objectID'], ...params });
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return `p50 ${times[times.length >> 1].toFixed(1)} ms, p99 ${times[Math.min(times.length - 1, Math.floor(times.length * 0.99))].toFixed(1)} ms`;
};
withVectors.setResultCacheBytes(0);
console.log(`vector search, top 1,000 (paginationLimitedTo): ${time({})}; filtered to a tenth: ${time({ filters: 'brand:b3' })}`);
