/**
 * `npm run bench:vectors`: the approximate vector index (HNSW over 8-bit codes, `src/vectors/hnsw-graph.ts`)
 * against the exact index (its oracle) and, in the same run, native libraries when they are installed: random
 * and clustered vectors (384 dimensions), 10% of queries filtered to a tenth of the documents (a brand).
 * Prints per size and data set: build time, recall@10 against the exact index (all queries, filtered ones),
 * search p50/p99, memory per vector, snapshot save and load (restart) time; then where filtered searches
 * should go to the exact index (`exactBalance`).
 *
 *   npm run bench:vectors -- [--sizes 100000,1000000] [--queries 300] [--dims 384] [--sets random,clustered]
 *                            [--libs <folder holding node_modules with usearch / hnswlib-node>] [--lib-names usearch]
 *
 * Libraries are compared only when `--libs` (or VITRINE_ANN_LIBS) names a folder where they were installed
 * (`npm install usearch hnswlib-node` there): the product does not depend on them.
 */
import { closeSync, fstatSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Bitset } from '../src/structures/bitset.ts';
import { SnapshotReader, SnapshotWriter, snapshotLayout } from '../src/snapshot/format.ts';
import { ApproximateVectorIndex, defaultEf } from '../src/vectors/approximate-index.ts';
import { ExactVectorIndex } from '../src/vectors/exact-index.ts';
import { VectorColumn } from '../src/vectors/vector-column.ts';
import { VectorStore } from '../src/vectors/vector-store.ts';
import { numberOption, percentile } from './workload.ts';
import { loadLibraries, type LibraryRun } from './vectors-libraries.ts';

const option = (name: string, fallback: string): string => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] !== undefined ? process.argv[at + 1] : fallback;
};
const sizes = option('sizes', '100000,1000000').split(',').map(Number);
const sets = option('sets', 'random,clustered').split(',');
const queryCount = numberOption('queries', 300);
const dims = numberOption('dims', 384);
const libsFolder = option('libs', process.env.VITRINE_ANN_LIBS ?? '');
const libNames = option('lib-names', '').split(',').filter((name) => name !== '');
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const K = 10;
const BRANDS = 10;

/** Vectors by number, the same on every run: uniform in [-1, 1], or near one of 1,000 centres. */
function generator(kind: string): (i: number, out: Float32Array) => void {
  const rng = (seed: number) => {
    let s = (seed * 2654435761) >>> 0 || 1;
    return () => {
      s ^= s << 13;
      s ^= s >>> 17;
      s ^= s << 5;
      return ((s >>> 0) / 4294967296) * 2 - 1;
    };
  };
  const centres = new Float32Array(1000 * dims);
  const c = rng(99);
  for (let i = 0; i < centres.length; i++) centres[i] = c();
  return (i, out) => {
    const r = rng(i + 1);
    if (kind === 'random') for (let j = 0; j < dims; j++) out[j] = r();
    else {
      const at = ((i * 7919) % 1000) * dims;
      for (let j = 0; j < dims; j++) out[j] = centres[at + j] + 0.45 * r();
    }
  };
}

const ms = (n: number) => n.toFixed(n < 10 ? 2 : 0);
const memory = () => {
  gc();
  const { arrayBuffers, heapUsed } = process.memoryUsage();
  return arrayBuffers + heapUsed;
};
const resident = () => {
  gc();
  return process.memoryUsage().rss;
};

interface Query {
  vector: Float32Array;
  brand: number | null;
  truth: number[];
}

/** `into.byteLength` bytes of an open file from `from` on. */
function readFully(fd: number, into: Uint8Array, from: number): void {
  for (let at = 0; at < into.byteLength; ) {
    const n = readSync(fd, into, at, into.byteLength - at, from + at);
    if (n === 0) throw new Error(`file ended at ${from + at}`);
    at += n;
  }
}

/**
 * The snapshot written to a file in pieces and read back as the server does (`readSnapshotFile`): growing
 * sections apart, cold ones (the float32 vectors) left in the file and read at an offset; the resident memory
 * the restored store holds (the process's, grown by the load, garbage collected before and after).
 */
function roundTrip(store: VectorStore, folder: string): { saveMs: number; loadMs: number; bytes: number; restored: VectorStore; residentBytes: number } {
  const path = join(folder, 'vectors.snapshot');
  let started = performance.now();
  const w = new SnapshotWriter();
  store.save(w);
  const fd = openSync(path, 'w');
  let bytes = 0;
  for (const piece of w.pieces()) {
    writeSync(fd, piece);
    bytes += piece.byteLength;
  }
  closeSync(fd);
  const saveMs = performance.now() - started;
  const before = resident();
  started = performance.now();
  const input = openSync(path, 'r');
  // Pages of the buffer never read are never resident (the cold and apart sections' ranges).
  const file = new Uint8Array(fstatSync(input).size);
  readFully(input, file.subarray(0, Math.min(file.byteLength, 1 << 16)), 0);
  const layout = snapshotLayout(file.subarray(0, 1 << 16));
  if (!('sections' in layout)) throw new Error('snapshot header longer than 64 KB');
  const apart = new Map<string, Uint8Array>();
  let at = 1 << 16;
  for (const section of [...layout.sections].sort((a, b) => a.from - b.from)) {
    if (section.roomBytes === undefined && section.cold !== true) continue;
    if (section.from > at) readFully(input, file.subarray(at, section.from), at);
    at = Math.max(at, section.to);
    if (section.cold === true) continue;
    const own = new Uint8Array(section.roomBytes!);
    readFully(input, own.subarray(0, section.to - section.from), section.from);
    apart.set(section.name, own);
  }
  if (at < file.byteLength) readFully(input, file.subarray(at), at);
  const readAt = (from: number, into: Uint8Array) => readFully(input, into, from);
  const restored = VectorStore.load(new SnapshotReader({ bytes: file, apart, readAt }), store.embedders, store.column('v')!.slots + 1);
  const loadMs = performance.now() - started;
  // What the loader read apart is the index's now (the graph's rows) or garbage (the codes, copied into the arena).
  apart.clear();
  return { saveMs, loadMs, bytes, restored, residentBytes: resident() - before };
}

function runOurs(size: number, kind: string, vectorOf: (i: number, out: Float32Array) => void, queries: Query[], folder: string): void {
  const before = memory();
  const store = new VectorStore([{ name: 'v', source: 'userProvided', dimensions: dims }]);
  const vector = new Float32Array(dims);
  const started = performance.now();
  const one = new Map([['v', vector]]);
  for (let i = 0; i < size; i++) {
    vectorOf(i, vector);
    store.assign(i, one);
    if (i > 0 && i % 100_000 === 0) process.stderr.write(`  built ${i} in ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
  }
  const buildS = (performance.now() - started) / 1000;
  // Rough: the garbage of the truth's column may be collected in between.
  const measured = (memory() - before) / size;
  const column = store.column('v')!;
  const graph = store.graphOf('v')!;
  const structural = VectorColumn.bytesPerVector(dims) - 4 * dims + graph.bytesPerNode();
  console.log(`  ours (HNSW m=${graph.m}, efConstruction ${graph.efConstruction}): built in ${buildS.toFixed(1)} s (${((buildS * 1e6) / size).toFixed(0)} us a vector)`);
  console.log(`    memory: ${structural.toFixed(0)} bytes a vector without the float32 vectors (codes and per-slot numbers ${VectorColumn.bytesPerVector(dims) - 4 * dims}, graph ${graph.bytesPerNode().toFixed(0)}); with them ${(structural + 4 * dims).toFixed(0)} (array buffers and heap grown by the build: ${measured.toFixed(0)})`);
  for (const [label, options] of [
    [`the default (ef ${defaultEf(size)}), re-scored from float32`, {}],
    ['ef 64, re-scored from float32', { efSearch: 64 }],
    ['ef 256, re-scored from float32', { efSearch: 256 }],
    ['ef 128, codes only (no float32 read)', { efSearch: 128, rescore: false }],
  ] as const) {
    const index = new ApproximateVectorIndex(column, graph, options);
    report(label, queries, (q) => nearestOf(index, q, size));
  }
  const trip = roundTrip(store, folder);
  console.log(`    snapshot: ${(trip.bytes / 2 ** 20).toFixed(0)} MB saved in ${ms(trip.saveMs)} ms, loaded in ${ms(trip.loadMs)} ms (no rebuild); resident memory of the restored index ${(trip.residentBytes / size).toFixed(0)} bytes a vector (float32 vectors left in the file)`);
  for (const [label, options] of [
    [`the default (ef ${defaultEf(size)}), re-scored from the file`, {}],
    // The same queries again: the first pass after a restart pays for code and pages touched for the first time.
    [`the default again (second pass)`, {}],
    ['ef 128, codes only (no float32 read)', { efSearch: 128, rescore: false }],
  ] as const) {
    const restored = new ApproximateVectorIndex(trip.restored.column('v')!, trip.restored.graphOf('v')!, options);
    report(`after the restart, ${label}`, queries, (q) => nearestOf(restored, q, size));
  }
  filterSweep(size, column, new ApproximateVectorIndex(column, graph, { exactBalance: 0 }), queries);
}

/**
 * A document's brand, or its share of a filter: a hash of its number, so each brand has products in every
 * cluster, as a catalogue's brands have products of many kinds. (Numbers taken in steps would follow the
 * generator's clusters, which are numbers modulo 1,000: a brand would then be a hundred whole clusters, and
 * nine filtered queries in ten would ask for the nearest products of a brand with none near them.)
 */
const bucket = (doc: number, buckets: number): number => (Math.imul(doc + 1, 2654435761) >>> 8) % buckets;

const filters = new Map<string, { set: Bitset; count: number }>();
/** A brand's filter and how many documents it allows, or null for an unfiltered query (no brand). */
function brandOf(brand: number | null, size: number): { set: Bitset; count: number } | null {
  if (brand === null) return null;
  const key = `${size}:${brand}`;
  let filter = filters.get(key);
  if (filter === undefined) {
    const set = new Bitset(size + 1);
    for (let doc = 0; doc < size; doc++) if (bucket(doc, BRANDS) === brand) set.add(doc);
    filter = { set, count: set.count() };
    filters.set(key, filter);
  }
  return filter;
}

/** The query's K nearest documents through `index`, within its brand's filter when it has one. */
function nearestOf(index: ApproximateVectorIndex, q: Query, size: number): number[] {
  const brand = brandOf(q.brand, size);
  return index.nearest(q.vector, K, brand?.set ?? null, brand?.count).map((h) => h.doc);
}

/** Recall@10 (all queries, filtered ones) and latency of one way of searching. */
function report(label: string, queries: Query[], search: (q: Query) => number[]): void {
  const times: number[] = [];
  const filteredTimes: number[] = [];
  const unfilteredTimes: number[] = [];
  let recall = 0;
  let filteredRecall = 0;
  let filtered = 0;
  for (const q of queries) {
    const started = performance.now();
    const got = search(q);
    times.push(performance.now() - started);
    (q.brand !== null ? filteredTimes : unfilteredTimes).push(times[times.length - 1]);
    const want = new Set(q.truth);
    const r = got.filter((doc) => want.has(doc)).length / Math.max(1, q.truth.length);
    recall += r;
    if (q.brand !== null) {
      filteredRecall += r;
      filtered++;
    }
  }
  // The slowest 1% again: slow again, they are slow queries; fast, the time was the machine's or a collection's.
  const slowest = times.map((time, i) => ({ time, i })).sort((a, b) => b.time - a.time).slice(0, Math.max(1, Math.ceil(queries.length / 100)));
  const again = slowest.map(({ i }) => {
    const started = performance.now();
    search(queries[i]);
    return performance.now() - started;
  });
  console.log(`    ${label}: recall@10 ${(recall / queries.length).toFixed(3)} (filtered ${(filteredRecall / Math.max(1, filtered)).toFixed(3)}), p50 ${ms(percentile(times, 0.5))} ms, p99 ${ms(percentile(times, 0.99))} ms (unfiltered ${((recall - filteredRecall) / Math.max(1, queries.length - filtered)).toFixed(3)}, p99 ${ms(percentile(unfilteredTimes, 0.99))} ms; filtered p50 ${ms(percentile(filteredTimes, 0.5))}, slowest ${ms(Math.max(...filteredTimes))} ms; the slowest 1% again: ${again.map(ms).join(', ')} ms)`);
}

/** Filters allowing a share of the documents: the graph against the exact index, to place `exactBalance`. */
function filterSweep(size: number, column: VectorColumn, graphOnly: ApproximateVectorIndex, queries: Query[]): void {
  const exact = new ExactVectorIndex(column);
  const parts: string[] = [];
  for (const share of [0.01, 0.05, 0.1, 0.2, 0.4]) {
    const step = Math.round(1 / share);
    const allowed = new Bitset(size + 1);
    for (let doc = 0; doc < size; doc++) if (bucket(doc, step) === 0) allowed.add(doc);
    const count = allowed.count();
    const sample = queries.slice(0, 30);
    const time = (index: { nearest: ExactVectorIndex['nearest'] }) => {
      const times: number[] = [];
      const found: number[][] = [];
      for (const q of sample) {
        const started = performance.now();
        found.push(index.nearest(q.vector, K, allowed, count).map((h) => h.doc));
        times.push(performance.now() - started);
      }
      return { p50: percentile(times, 0.5), found };
    };
    const e = time(exact);
    const recallOf = (found: number[][]) => {
      let recall = 0;
      found.forEach((docs, i) => {
        const want = new Set(e.found[i]);
        recall += docs.filter((d) => want.has(d)).length / Math.max(1, want.size);
      });
      return (recall / sample.length).toFixed(3);
    };
    const g = time(graphOnly);
    parts.push(`${share * 100}%: exact ${ms(e.p50)} / graph ${ms(g.p50)} ms (recall ${recallOf(g.found)})`);
  }
  console.log(`    filters keeping a share of the vectors, p50: ${parts.join('; ')}`);
}

/** Queries: new vectors of the same kind (10% filtered to a brand), their truth from the exact index. */
function queriesWithTruth(size: number, vectorOf: (i: number, out: Float32Array) => void): Query[] {
  // A column of its own, garbage once this returns: a million float32 vectors are 1.5 GB.
  const column = new VectorColumn(dims);
  const v = new Float32Array(dims);
  for (let i = 0; i < size; i++) {
    vectorOf(i, v);
    column.set(i, v);
  }
  const exact = new ExactVectorIndex(column);
  const queries: Query[] = [];
  const times: number[] = [];
  for (let i = 0; i < queryCount; i++) {
    const vector = new Float32Array(dims);
    vectorOf(size + 1_000_000 + i * 7, vector);
    const brand = i % 10 === 9 ? Math.floor(i / 10) % BRANDS : null;
    const filter = brandOf(brand, size);
    const started = performance.now();
    const truth = exact.nearest(vector, K, filter?.set ?? null, filter?.count).map((h) => h.doc);
    times.push(performance.now() - started);
    queries.push({ vector, brand, truth });
  }
  console.log(`  exact index: p50 ${ms(percentile(times, 0.5))} ms, p99 ${ms(percentile(times, 0.99))} ms`);
  return queries;
}

function main(): void {
  const libraries: LibraryRun[] = libsFolder === '' ? [] : loadLibraries(libsFolder, dims, libNames);
  if (libsFolder === '') console.log('(no --libs folder: native libraries not compared)');
  console.log(`bench:vectors, ${dims} dimensions, ${queryCount} queries (10% filtered to a tenth), recall@10 against the exact index, ${new Date().toISOString()}`);
  const folder = mkdtempSync(join(tmpdir(), 'vitrine-vectors-'));
  try {
    for (const size of sizes) {
      for (const kind of sets) {
        console.log(`${size.toLocaleString('en')} ${kind} vectors`);
        const vectorOf = generator(kind);
        const queries = queriesWithTruth(size, vectorOf);
        runOurs(size, kind, vectorOf, queries, folder);
        for (const library of libraries) library.run(size, vectorOf, (label, search) => report(label, queries, search), folder, (doc) => bucket(doc, BRANDS));
      }
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

main();
