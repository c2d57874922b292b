/**
 * The native libraries `bench:vectors` compares with our index, loaded from a folder of their own (`--libs`):
 * usearch (HNSW over 8-bit codes, as ours) and hnswlib-node (HNSW over float32, with a filter callback). Each
 * builds from the same vectors, answers the same queries (a filtered one through the library's filter when it
 * has one, else by asking for more neighbours and keeping the allowed ones), saves to a file and loads it back.
 * Memory is the process's resident size grown by the build (native memory is outside the JavaScript heap).
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { statSync } from 'node:fs';

export interface LibraryQuery {
  vector: Float32Array;
  brand: number | null;
}

export interface LibraryRun {
  run(
    size: number,
    vectorOf: (i: number, out: Float32Array) => void,
    report: (label: string, search: (q: LibraryQuery) => number[]) => void,
    folder: string,
    brandOf: (doc: number) => number,
  ): void;
}

const K = 10;
const M = 16;
const EF_CONSTRUCTION = 100;
const EF_SEARCH = 64;

const resident = (): number => {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().rss;
};

/** The resident size grown by a build, per vector; memory freed meanwhile (the truth's column) can hide it. */
function residentGrowth(before: number, size: number): string {
  const bytes = (resident() - before) / size;
  return bytes > 0 ? `resident memory ${bytes.toFixed(0)} bytes a vector` : 'resident memory not measured (memory was freed during the build)';
}

function timed<T>(work: () => T): { value: T; ms: number } {
  const started = performance.now();
  const value = work();
  return { value, ms: performance.now() - started };
}

interface UsearchIndex {
  add(keys: bigint, vectors: Float32Array): void;
  search(vectors: Float32Array, k: number, threads?: number): { keys: BigUint64Array; distances: Float32Array; count?: number };
  save(path: string): void;
  load(path: string): void;
  size(): number;
}
type UsearchModule = { Index: new (options: Record<string, unknown>) => UsearchIndex };

function usearchRun(usearch: UsearchModule, dims: number): LibraryRun {
  const make = () => new usearch.Index({ dimensions: dims, metric: 'cos', quantization: 'i8', connectivity: M, expansion_add: EF_CONSTRUCTION, expansion_search: EF_SEARCH, multi: false });
  return {
    run(size, vectorOf, report, folder, brandOf) {
      const before = resident();
      const v = new Float32Array(dims);
      const index = make();
      const built = timed(() => {
        for (let i = 0; i < size; i++) {
          vectorOf(i, v);
          index.add(BigInt(i), v);
        }
      });
      console.log(`  usearch (i8, connectivity ${M}, expansion ${EF_CONSTRUCTION}/${EF_SEARCH}, one thread): built in ${(built.ms / 1000).toFixed(1)} s (${((built.ms * 1000) / size).toFixed(0)} us a vector), ${residentGrowth(before, size)}`);
      const search = (target: UsearchIndex) => (q: LibraryQuery) => {
        // No filter callback in its JavaScript binding: ask for enough neighbours that ten are likely allowed.
        const wanted = q.brand === null ? K : K * 20;
        const found = target.search(q.vector, wanted, 1);
        const out: number[] = [];
        for (const key of found.keys) {
          const doc = Number(key);
          if (q.brand === null || brandOf(doc) === q.brand) out.push(doc);
          if (out.length === K) break;
        }
        return out;
      };
      report('usearch', search(index));
      const path = join(folder, 'usearch.index');
      const saved = timed(() => index.save(path));
      const restored = make();
      const loaded = timed(() => restored.load(path));
      console.log(`    usearch file: ${(statSync(path).size / 2 ** 20).toFixed(0)} MB saved in ${saved.ms.toFixed(0)} ms, loaded in ${loaded.ms.toFixed(0)} ms`);
      report('usearch after load', search(restored));
    },
  };
}

interface HnswlibIndex {
  initIndex(maxElements: number, m?: number, efConstruction?: number, randomSeed?: number): void;
  addPoint(point: number[] | Float32Array, label: number): void;
  setEf(ef: number): void;
  searchKnn(query: number[] | Float32Array, k: number, filter?: (label: number) => boolean): { neighbors: number[]; distances: number[] };
  writeIndexSync(path: string): void;
  readIndexSync(path: string, allowReplaceDeleted?: boolean): void;
}
type HnswlibModule = { HierarchicalNSW: new (space: string, dims: number) => HnswlibIndex };

function hnswlibRun(hnswlib: HnswlibModule, dims: number): LibraryRun {
  return {
    run(size, vectorOf, report, folder, brandOf) {
      const before = resident();
      const v = new Float32Array(dims);
      const index = new hnswlib.HierarchicalNSW('cosine', dims);
      index.initIndex(size, M, EF_CONSTRUCTION, 100);
      const built = timed(() => {
        for (let i = 0; i < size; i++) {
          vectorOf(i, v);
          index.addPoint(Array.from(v), i);
        }
      });
      index.setEf(EF_SEARCH);
      console.log(`  hnswlib-node (float32, M ${M}, ef ${EF_CONSTRUCTION}/${EF_SEARCH}): built in ${(built.ms / 1000).toFixed(1)} s (${((built.ms * 1000) / size).toFixed(0)} us a vector), ${residentGrowth(before, size)}`);
      const search = (target: HnswlibIndex) => (q: LibraryQuery) => {
        const query = Array.from(q.vector);
        const brand = q.brand;
        return (brand === null ? target.searchKnn(query, K) : target.searchKnn(query, K, (label) => brandOf(label) === brand)).neighbors;
      };
      report('hnswlib-node', search(index));
      const path = join(folder, 'hnswlib.index');
      const saved = timed(() => index.writeIndexSync(path));
      const restored = new hnswlib.HierarchicalNSW('cosine', dims);
      const loaded = timed(() => restored.readIndexSync(path));
      restored.setEf(EF_SEARCH);
      console.log(`    hnswlib-node file: ${(statSync(path).size / 2 ** 20).toFixed(0)} MB saved in ${saved.ms.toFixed(0)} ms, loaded in ${loaded.ms.toFixed(0)} ms`);
      report('hnswlib-node after load', search(restored));
    },
  };
}

/** The libraries installed in `folder`, of those named (all when `names` is empty); each missing one said and skipped. */
export function loadLibraries(folder: string, dims: number, names: readonly string[] = []): LibraryRun[] {
  const require = createRequire(join(folder, 'package.json'));
  const runs: LibraryRun[] = [];
  for (const [name, wrap] of [
    ['usearch', (m: unknown) => usearchRun(m as UsearchModule, dims)],
    ['hnswlib-node', (m: unknown) => hnswlibRun(m as HnswlibModule, dims)],
  ] as const) {
    if (names.length > 0 && !names.includes(name)) continue;
    try {
      runs.push(wrap(require(name)));
    } catch (error) {
      console.log(`${name}: not loaded from ${folder} (${(error as Error).message.split('\n')[0]})`);
    }
  }
  return runs;
}
