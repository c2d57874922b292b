/**
 * An index's vectors: a column per embedder (`vector-column.ts`), keyed by the store's internal document ids.
 *
 * Records' `_vectors` are taken out before a record is stored (`embedders.ts`), given to the columns under the
 * record's id, and put back when the record is read whole (`attach`): the records' bytes never hold them (a
 * 384-dimension vector is ~7 KB of JSON, and would be tokenised as text when every attribute is searchable).
 * The owner (`SearchIndex`) keeps ids in step: a replaced record's vectors follow it to its new id, a
 * compaction or rebuild renumbers them (`remap`).
 */
import type { IndexRecord } from '@vitrine/protocol';
import type { SnapshotReader, SnapshotWriter } from '../snapshot/format.ts';
import { createEngineError } from '../errors.ts';
import { sameVectors, type EmbedderSpec } from './embedders.ts';
import { ApproximateVectorIndex } from './approximate-index.ts';
import { HnswGraph } from './hnsw-graph.ts';
import type { VectorIndex } from './vector-index.ts';
import { VectorColumn } from './vector-column.ts';

export class VectorStore {
  private readonly columns = new Map<string, VectorColumn>();
  /** Each column's approximate index (`hnsw-graph.ts`), kept in step with it by every write. */
  private readonly graphs = new Map<string, HnswGraph>();

  constructor(readonly embedders: readonly EmbedderSpec[]) {
    for (const embedder of embedders) this.keep(embedder.name, new VectorColumn(embedder.dimensions));
  }

  private keep(name: string, column: VectorColumn, graph = new HnswGraph(column)): void {
    this.columns.set(name, column);
    this.graphs.set(name, graph);
  }

  get empty(): boolean {
    return this.embedders.length === 0;
  }

  embedder(name: string): EmbedderSpec | undefined {
    return this.embedders.find((e) => e.name === name);
  }

  column(name: string): VectorColumn | undefined {
    return this.columns.get(name);
  }

  /** The index searches use for an embedder's vectors: the graph, or an exact scan where that is faster. */
  indexOf(name: string): VectorIndex | undefined {
    const column = this.columns.get(name);
    return column === undefined ? undefined : new ApproximateVectorIndex(column, this.graphs.get(name)!);
  }

  /** An embedder's graph (benchmarks, tests). */
  graphOf(name: string): HnswGraph | undefined {
    return this.graphs.get(name);
  }

  /** `doc` now holds a record with these vectors (null: none): any other vector it had is taken away. */
  assign(doc: number, vectors: ReadonlyMap<string, Float32Array | null> | null): void {
    for (const [name, column] of this.columns) {
      const vector = vectors?.get(name);
      if (vector) {
        column.set(doc, vector);
        this.graphs.get(name)!.insert(column.slotOfDoc(doc), vector);
      } else column.delete(doc);
    }
  }

  /** `doc` no longer holds a record (deleted, or replaced by a new id). */
  drop(doc: number): void {
    for (const column of this.columns.values()) column.delete(doc);
  }

  /** Whether `doc` has a vector of any embedder. */
  holds(doc: number): boolean {
    for (const column of this.columns.values()) if (column.has(doc)) return true;
    return false;
  }

  /** The record with its vectors put back (`_vectors`), or as it is when it has none. */
  attach(record: IndexRecord, doc: number): IndexRecord {
    const vectors = this.vectorsOf(doc);
    return vectors === undefined ? record : { ...record, _vectors: vectors };
  }

  /** `doc`'s vectors as JSON numbers by embedder, or undefined when it has none. */
  vectorsOf(doc: number): Record<string, number[]> | undefined {
    let out: Record<string, number[]> | undefined;
    for (const [name, column] of this.columns) {
      const vector = column.get(doc);
      if (vector !== undefined) (out ??= {})[name] = toNumbers(vector);
    }
    return out;
  }

  /** The same vectors under new ids (compaction, rebuild): `newId(old)` < 0 drops one. */
  remap(newId: (doc: number) => number): VectorStore {
    const next = new VectorStore(this.embedders);
    for (const [name, column] of this.columns) {
      const moved = column.remap(newId);
      next.keep(name, moved, this.graphs.get(name)!.renumbered(moved, column.slotMap((doc) => {
        const to = newId(doc);
        return to < 0 ? -1 : moved.slotOfDoc(to);
      })));
    }
    return next;
  }

  /** A store for new settings: the vectors of embedders unchanged (same source and dimensions) are kept. */
  withEmbedders(embedders: readonly EmbedderSpec[]): VectorStore {
    const next = new VectorStore(embedders);
    for (const embedder of embedders) {
      const kept = this.columns.get(embedder.name);
      if (kept !== undefined && sameVectors(embedder, this.embedder(embedder.name))) next.keep(embedder.name, kept, this.graphs.get(embedder.name));
    }
    return next;
  }

  /** Sections `vectors.meta` and `vectors.<i>.*` (none without embedders: older snapshots look the same). */
  save(w: SnapshotWriter): void {
    if (this.embedders.length === 0) return;
    w.json('vectors.meta', { embedders: this.embedders.map(({ name, dimensions }) => ({ name, dimensions })) });
    this.embedders.forEach((embedder, i) => {
      const column = this.columns.get(embedder.name)!;
      column.save(w, `vectors.${i}`);
      this.graphs.get(embedder.name)!.save(w, `vectors.${i}.graph`, column.slotMap(), column.count);
    });
  }

  /** The store of a snapshot, for these embedders (the snapshot's settings), over `documents` ids. */
  static load(r: SnapshotReader, embedders: readonly EmbedderSpec[], documents: number): VectorStore {
    const store = new VectorStore(embedders);
    if (!r.has('vectors.meta')) return store;
    const meta = r.json<{ embedders?: Array<{ name?: unknown; dimensions?: unknown }> }>('vectors.meta');
    if (!Array.isArray(meta?.embedders)) throw createEngineError('INVALID_SNAPSHOT', 'vectors metadata');
    meta.embedders.forEach((saved, i) => {
      const embedder = embedders.find((e) => e.name === saved.name);
      if (embedder === undefined || embedder.dimensions !== saved.dimensions) throw createEngineError('INVALID_SNAPSHOT', `vectors of ${String(saved.name)} do not match the settings`);
      const column = VectorColumn.load(r, `vectors.${i}`, embedder.dimensions, documents);
      // Snapshots from before the graph existed: built once here, from the restored vectors.
      store.keep(embedder.name, column, r.has(`vectors.${i}.graph.meta`) ? HnswGraph.load(r, `vectors.${i}.graph`, column) : HnswGraph.build(column));
    });
    return store;
  }
}

/**
 * A float32 vector as JSON numbers, each in the fewest digits that read back as the same float32 (7 when they
 * do, as for vectors sent with a few decimals; else 9, which always do): not the 17 digits of its float64 value.
 */
export function toNumbers(vector: Float32Array): number[] {
  const out = new Array<number>(vector.length);
  for (let i = 0; i < vector.length; i++) {
    const x = vector[i];
    const short = Number(x.toPrecision(7));
    out[i] = Math.fround(short) === x ? short : Number(x.toPrecision(9));
  }
  return out;
}
