/**
 * The approximate index against its oracle, the exact index (itself checked against a naive cosine in
 * `exact-index.test.ts`). Properties tested (fast-check), over random histories of a vector store: sets,
 * replacements (slots freed and reused: nodes inserted again), deletions, snapshot round trips (the graph saved
 * and restored beside the column, written to after) and compactions (ids renumbered, some dropped):
 * 1. a search never returns a document the filter refuses, a deleted one, or one twice; its scores are the
 *    documents' exact cosines, best first;
 * 2. recall@10 against the exact index, averaged over a history's queries (filtered or not), is at least 0.95,
 *    and the graph alone reaches as many allowed vectors as it is asked for (up to all there are) in at least
 *    95% of the searches.
 * And: two indexes restored from the same snapshot bytes do not see each other's writes; a snapshot from
 * before the graph existed builds it at load.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Bitset } from '../structures/bitset.ts';
import { snapshotLayout, SnapshotReader, SnapshotWriter } from '../snapshot/format.ts';
import { ApproximateVectorIndex, defaultEf } from './approximate-index.ts';
import { ExactVectorIndex } from './exact-index.ts';
import type { EmbedderSpec } from './embedders.ts';
import { unit } from './hnsw-graph.ts';
import { VectorStore } from './vector-store.ts';

const DIMS = 24;
const DOCS = 400;
const RECALL_BOUND = 0.95;
const embedders: EmbedderSpec[] = [{ name: 'e', source: 'userProvided', dimensions: DIMS }];

/** A deterministic vector near one of 12 centres (clustered, as embeddings of a catalogue are). */
function vectorOf(seed: number): Float32Array {
  let s = seed * 2654435761 + 1;
  const random = () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return (s / 2 ** 31) * 2 - 1;
  };
  const centre = seed % 12;
  return Float32Array.from({ length: DIMS }, (_, i) => (i % 12 === centre ? 3 : 0) + random());
}

type Op = { kind: 'set'; doc: number; seed: number } | { kind: 'delete'; doc: number } | { kind: 'snapshot' } | { kind: 'compact'; drop: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 12, arbitrary: fc.record({ kind: fc.constant('set' as const), doc: fc.nat(DOCS - 1), seed: fc.nat(1_000_000) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('delete' as const), doc: fc.nat(DOCS - 1) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('snapshot' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('compact' as const), drop: fc.integer({ min: 2, max: 9 }) }) },
);

function snapshot(store: VectorStore): VectorStore {
  const w = new SnapshotWriter();
  store.save(w);
  return VectorStore.load(new SnapshotReader(w.finish()), embedders, DOCS);
}

/** Plays `ops`; returns the store and each document's vector (as the store should hold them). */
function play(ops: readonly Op[]): { store: VectorStore; truth: Map<number, Float32Array> } {
  let store = new VectorStore(embedders);
  let truth = new Map<number, Float32Array>();
  for (const o of ops) {
    if (o.kind === 'set') {
      const vector = vectorOf(o.seed);
      store.assign(o.doc, new Map([['e', vector]]));
      truth.set(o.doc, vector);
    } else if (o.kind === 'delete') {
      store.drop(o.doc);
      truth.delete(o.doc);
    } else if (o.kind === 'snapshot') {
      store = snapshot(store);
    } else {
      // A compaction: ids reversed, every `drop`-th document dropped.
      const newId = (doc: number) => (doc % o.drop === 0 ? -1 : DOCS - 1 - doc);
      store = store.remap(newId);
      truth = new Map([...truth].filter(([doc]) => newId(doc) >= 0).map(([doc, v]) => [newId(doc), v]));
    }
  }
  return { store, truth };
}

/** Searches of the graph alone, and those that reached fewer allowed vectors than there are (up to 32). */
const reach = { asked: 0, short: 0 };

/** Checks property 1 for every query; returns the mean recall@10 against the exact index. */
function recall(store: VectorStore, truth: Map<number, Float32Array>, queries: ReadonlyArray<{ seed: number; allowed: number | null }>): number {
  const column = store.column('e')!;
  expect(column.count).toBe(truth.size);
  const approximate = new ApproximateVectorIndex(column, store.graphOf('e')!, { exactCodes: 0, exactBalance: 0, efSearch: 32 });
  const exact = new ExactVectorIndex(column);
  let sum = 0;
  for (const { seed, allowed } of queries) {
    const query = vectorOf(seed);
    // A filter keeping one document in `allowed` (a brand, say), or none.
    const filter = allowed === null ? null : Bitset.fromIds(DOCS, Array.from({ length: DOCS }, (_, d) => d).filter((d) => d % allowed === 0));
    const hits = approximate.nearest(query, 10, filter);
    // Whether the graph alone reaches as many allowed vectors as it is asked for (else the search fell back to
    // the exact index, which it does when it finds fewer than k).
    const allowedLive = [...truth.keys()].filter((doc) => filter === null || filter.has(doc)).length;
    const reached = store.graphOf('e')!.search(unit(query), 32, (slot) => {
      const doc = column.docAtSlot(slot);
      return doc >= 0 && (filter === null || filter.has(doc));
    });
    reach.asked++;
    if (reached.count < Math.min(32, allowedLive)) reach.short++;
    const seen = new Set<number>();
    hits.forEach((hit, i) => {
      expect(truth.has(hit.doc)).toBe(true);
      if (filter !== null) expect(filter.has(hit.doc)).toBe(true);
      expect(seen.has(hit.doc)).toBe(false);
      seen.add(hit.doc);
      expect(hit.score).toBe(exact.nearest(query, 1, Bitset.fromIds(DOCS, [hit.doc]))[0].score);
      if (i > 0) expect(hit.score).toBeLessThanOrEqual(hits[i - 1].score);
    });
    const expected = exact.nearest(query, 10, filter);
    expect(hits.length).toBe(expected.length);
    const want = new Set(expected.map((h) => h.doc));
    sum += expected.length === 0 ? 1 : hits.filter((h) => want.has(h.doc)).length / expected.length;
  }
  return sum / queries.length;
}

describe('approximate vector search (HNSW over the 8-bit codes)', () => {
  it('keeps recall@10 against the exact index through sets, deletions, snapshots and compactions', () => {
    const recalls: number[] = [];
    fc.assert(
      fc.property(
        fc.array(op, { minLength: 50, maxLength: 900 }),
        fc.array(fc.record({ seed: fc.nat(1_000_000), allowed: fc.option(fc.integer({ min: 2, max: 5 }), { freq: 3 }) }), { minLength: 8, maxLength: 16 }),
        (ops, queries) => {
          const { store, truth } = play(ops);
          const mean = recall(store, truth, queries);
          recalls.push(mean);
          expect(mean).toBeGreaterThanOrEqual(RECALL_BOUND);
        },
      ),
      { numRuns: 40 },
    );
    expect(recalls.length).toBe(40);
    // A reused slot's node is inserted again: links to it stay, its own are kept, but a node whose only way in
    // was through a replaced link can be left out (rare; the search then falls back to the exact index).
    expect(reach.short / reach.asked).toBeLessThanOrEqual(0.05);
  });

  it('restores the graph from a snapshot without rebuilding it; indexes restored from the same bytes stay apart', () => {
    const { store, truth } = play(Array.from({ length: 600 }, (_, i) => ({ kind: 'set' as const, doc: i % DOCS, seed: i })));
    const w = new SnapshotWriter();
    store.save(w);
    const bytes = w.finish();
    const index = (s: VectorStore) => new ApproximateVectorIndex(s.column('e')!, s.graphOf('e')!, { exactCodes: 0, exactBalance: 0 });
    const load = (apart?: boolean) => {
      if (apart !== true) return VectorStore.load(new SnapshotReader(bytes), embedders, DOCS);
      // As the server reads a snapshot: growing sections into buffers of their own, with room.
      const layout = snapshotLayout(bytes, { apartMinBytes: 0 });
      const own = new Map<string, Uint8Array>();
      for (const section of 'sections' in layout ? layout.sections : []) {
        if (section.roomBytes === undefined) continue;
        own.set(section.name, new Uint8Array(section.roomBytes));
        own.get(section.name)!.set(bytes.subarray(section.from, section.to));
      }
      expect(own.has('vectors.0.graph.links0')).toBe(true);
      return VectorStore.load(new SnapshotReader({ bytes, apart: own }), embedders, DOCS);
    };
    const reference = load();
    expect(reference.graphOf('e')!.nodes).toBe(truth.size);
    const queries = Array.from({ length: 12 }, (_, i) => ({ seed: 5_000 + i, allowed: i % 3 === 0 ? 3 : null }));
    expect(recall(reference, truth, queries)).toBeGreaterThanOrEqual(RECALL_BOUND);
    const answers = (s: VectorStore) => queries.map(({ seed }) => index(s).nearest(vectorOf(seed), 10, null));
    const before = answers(reference);
    // Writes to restored stores, one reading the snapshot's bytes in place, one with its sections apart: the
    // bytes are untouched (a store restored from them later answers as before), and each answers its writes.
    for (const apart of [false, true]) {
      const written = load(apart);
      for (let i = 0; i < 300; i++) written.assign(i, new Map([['e', vectorOf(90_000 + i)]]));
      const after = new Map(truth);
      for (let i = 0; i < 300; i++) after.set(i, vectorOf(90_000 + i));
      expect(recall(written, after, queries)).toBeGreaterThanOrEqual(RECALL_BOUND);
    }
    expect(answers(load())).toEqual(before);
    expect(answers(reference)).toEqual(before);
  });

  it('reads the float32 vectors from the snapshot file when its loader left them there', () => {
    const { store, truth } = play(Array.from({ length: 500 }, (_, i) => (i % 7 === 6 ? { kind: 'delete' as const, doc: (i * 13) % DOCS } : { kind: 'set' as const, doc: (i * 31) % DOCS, seed: i })));
    const cold = (s: VectorStore): { restored: VectorStore; reads: () => number } => {
      const w = new SnapshotWriter();
      s.save(w);
      const file = w.finish();
      // As a loader reading files at an offset: the cold sections never come into `bytes` (zeros there).
      const bytes = file.slice();
      const layout = snapshotLayout(file);
      const coldSections = ('sections' in layout ? layout.sections : []).filter((section) => section.cold === true);
      expect(coldSections.map((section) => section.name)).toEqual(['vectors.0.codes', 'vectors.0.full']);
      for (const section of coldSections) bytes.fill(0, section.from, section.to);
      let reads = 0;
      const readAt = (from: number, into: Uint8Array) => {
        reads++;
        into.set(file.subarray(from, from + into.byteLength));
      };
      return { restored: VectorStore.load(new SnapshotReader({ bytes, readAt }), embedders, DOCS), reads: () => reads };
    };
    const once = cold(store);
    const column = once.restored.column('e')!;
    for (const [doc, vector] of truth) expect(column.get(doc)).toEqual(vector);
    // The codes read once at load (into the arena), then one read per vector asked for.
    expect(once.reads()).toBe(1 + truth.size);
    // A search reads only the candidates whose interval reaches the k-th best lower end: k or a few more of 32.
    const graphOnly = new ApproximateVectorIndex(column, once.restored.graphOf('e')!, { exactCodes: 0, exactBalance: 0, efSearch: 32 });
    for (let seed = 0; seed < 5; seed++) {
      const before = once.reads();
      expect(graphOnly.nearest(vectorOf(8_000 + seed), 10, null)).toHaveLength(10);
      expect(once.reads() - before).toBeGreaterThanOrEqual(10);
      expect(once.reads() - before).toBeLessThan(32);
    }
    // Searches re-score from the file; writes after the restore go to memory beside it.
    const queries = Array.from({ length: 10 }, (_, i) => ({ seed: 7_000 + i, allowed: i % 2 === 0 ? 2 : null }));
    expect(recall(once.restored, truth, queries)).toBeGreaterThanOrEqual(RECALL_BOUND);
    const after = new Map(truth);
    for (let doc = 0; doc < 40; doc++) {
      once.restored.assign(doc, new Map([['e', vectorOf(50_000 + doc)]]));
      after.set(doc, vectorOf(50_000 + doc));
    }
    // A snapshot of a store reading the file holds the vectors it read (in batches) and those written since.
    const twice = cold(once.restored).restored;
    for (const [doc, vector] of after) expect(twice.column('e')!.get(doc)).toEqual(vector);
    expect(recall(twice, after, queries)).toBeGreaterThanOrEqual(RECALL_BOUND);
    const compacted = twice.remap((doc) => DOCS - 1 - doc);
    for (const [doc, vector] of after) expect(compacted.column('e')!.get(DOCS - 1 - doc)).toEqual(vector);
  });

  it('builds the graph at load from a snapshot saved before graphs existed', () => {
    const { store, truth } = play(Array.from({ length: 300 }, (_, i) => ({ kind: 'set' as const, doc: i, seed: i })));
    const w = new SnapshotWriter();
    w.json('vectors.meta', { embedders: [{ name: 'e', dimensions: DIMS }] });
    store.column('e')!.save(w, 'vectors.0');
    const restored = VectorStore.load(new SnapshotReader(w.finish()), embedders, DOCS);
    expect(restored.graphOf('e')!.nodes).toBe(300);
    expect(recall(restored, truth, [0, 1, 2, 3, 4, 5].map((seed) => ({ seed, allowed: seed % 2 === 0 ? null : 2 })))).toBeGreaterThanOrEqual(RECALL_BOUND);
  });

  it('keeps more candidates by default as the column grows (64 up to 250,000 vectors, 128 at a million, at most 256)', () => {
    expect([0, 100_000, 250_000, 1_000_000, 2_000_000, 50_000_000].map(defaultEf)).toEqual([64, 64, 64, 128, 181, 256]);
  });

  it('answers exactly for a small column or a filter allowing few documents', () => {
    const { store } = play(Array.from({ length: 300 }, (_, i) => ({ kind: 'set' as const, doc: i, seed: i })));
    const index = new ApproximateVectorIndex(store.column('e')!, store.graphOf('e')!, { exactCodes: 100 * DIMS, exactBalance: 12 });
    expect(index.answersExactly(null)).toBe(false);
    expect(index.answersExactly(59)).toBe(true);
    expect(index.answersExactly(60)).toBe(false);
    const small = play(Array.from({ length: 100 }, (_, i) => ({ kind: 'set' as const, doc: i, seed: i }))).store;
    const query = vectorOf(3);
    const exactly = new ApproximateVectorIndex(small.column('e')!, small.graphOf('e')!, { exactCodes: 100 * DIMS });
    expect(exactly.answersExactly(null)).toBe(true);
    expect(exactly.nearest(query, 1000, null)).toEqual(new ExactVectorIndex(small.column('e')!).nearest(query, 1000, null));
  });
});
