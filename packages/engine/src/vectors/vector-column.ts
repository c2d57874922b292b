/**
 * One embedder's vectors, by internal document id: each vector quantised to 8 bits with its own scale (what a
 * scan reads: a byte per dimension), beside the full float32 vector (what re-scoring reads, a few per search).
 *
 * Quantisation: `scale = max |x_i| / 127`, `code_i = round(x_i / scale)`. A vector is `scale · code + r`, and
 * for any query q, `|cos(q, x) − scale · (q · code) / (|q| |x|)| ≤ |r| / |x|`. That bound is kept per vector
 * (`bound`), so a scan of the codes knows, for each vector, an interval that surely holds its true cosine: the
 * exact search (`exact-index.ts`) re-scores only the vectors whose interval reaches the k-th best lower end, and
 * answers exactly what a scan of the float32 vectors would.
 *
 * Storage: vectors live in slots, slots in chunks. Every chunk's codes are in the column's WebAssembly memory
 * (`code-arena.ts`: its SIMD dot products read only that memory; a restored chunk's are copied there at load).
 * The rest of a chunk restored from a snapshot is a view of the snapshot's bytes and is never written (a loader
 * may hand the same bytes to another index), and its float32 vectors may stay in the snapshot file (a cold
 * section, read at an offset: `fullOf`); writes go to chunks of their own, which double from 64 slots up to
 * 8,192 (a small index stays small). A replaced or deleted record's slot is freed and reused by the next vector,
 * in owned chunks; freed slots of a restored chunk stay empty until the next snapshot, which saves live slots
 * only (in slot order) and so compacts them.
 *
 * Per vector: `dimensions` bytes of codes + 12 (scale over norm, bound, document), plus 4 per document for its
 * slot: 400 bytes at 384 dimensions; and `4 · dimensions` of floats unless they are left in the file.
 */
import { GrowableUint32 } from '../structures/growable.ts';
import type { ColdSection, SnapshotReader, SnapshotWriter } from '../snapshot/format.ts';
import { createEngineError } from '../errors.ts';
import { CodeArena, queryScale } from './code-arena.ts';

/** A free slot's document. */
const FREE = 0xffffffff;
const FIRST_CHUNK_SLOTS = 64;
const MAX_CHUNK_SLOTS = 8192;
/**
 * Added to every bound: the float32 rounding of the stored scale and norm, and float64 sums, move an estimate
 * by far less (relative 1e-7); the bound only has to stay on the safe side.
 */
const BOUND_SLACK = 1e-5;

export class VectorChunk {
  /** Slots used (free ones included). */
  used = 0;
  constructor(
    readonly start: number,
    readonly capacity: number,
    /** Where the chunk's codes start in its column's arena (`CodeArena.bytes`), a vector every `dimensions`. */
    readonly codesAt: number,
    /** The float32 vectors, or null where they are read from the snapshot file (`cold`). */
    readonly full: Float32Array | null,
    /** `scale / |x|`: the code dot product times this, over |q|, estimates the cosine. */
    readonly factor: Float32Array,
    /** `|r| / |x|` plus slack: how far the estimate may be from the cosine. */
    readonly bound: Float32Array,
    readonly docs: Uint32Array,
    /** A restored chunk (a view of snapshot bytes): never written. */
    readonly borrowed: boolean,
    /** A restored chunk's float32 vectors, left in the snapshot file by its loader. */
    readonly cold: ColdSection | null = null,
  ) {}

  static owned(start: number, capacity: number, dimensions: number, arena: CodeArena): VectorChunk {
    return new VectorChunk(start, capacity, arena.alloc(capacity * dimensions), new Float32Array(capacity * dimensions), new Float32Array(capacity), new Float32Array(capacity), new Uint32Array(capacity).fill(FREE), false);
  }

  docAt(local: number): number {
    return this.docs[local];
  }
}

/** Quantises `vector` into `codes` (at `at`); returns the factor and bound of its estimates. */
export function quantise(vector: Float32Array, codes: Int8Array, at: number): { factor: number; bound: number } {
  const n = vector.length;
  let max = 0;
  let norm2 = 0;
  for (let i = 0; i < n; i++) {
    const x = vector[i];
    norm2 += x * x;
    const a = Math.abs(x);
    if (a > max) max = a;
  }
  const scale = max / 127;
  let residual2 = 0;
  for (let i = 0; i < n; i++) {
    const code = Math.max(-127, Math.min(127, Math.round(vector[i] / scale)));
    codes[at + i] = code;
    const r = vector[i] - code * scale;
    residual2 += r * r;
  }
  const norm = Math.sqrt(norm2);
  return { factor: scale / norm, bound: Math.sqrt(residual2) / norm + BOUND_SLACK };
}

export class VectorColumn {
  private chunks: VectorChunk[] = [];
  /**
   * The chunk holding each 64th slot (`chunkOf` without a search: every chunk but a restored first one has at
   * least 64 slots, so a block of 64 slots starts in its chunk or the next).
   */
  private chunkOfBlock: number[] = [];
  /** Slot + 1 of each document (0: no vector). */
  private slotOf = new GrowableUint32(1024);
  /** Free slots of owned chunks. */
  private free: number[] = [];
  private slotCount = 0;
  /** Documents with a vector. */
  count = 0;
  /** Every chunk's codes, in WebAssembly memory (`code-arena.ts`). */
  readonly arena = new CodeArena();
  /** Where a vector read from the snapshot file goes (`fullOf`). */
  private readonly scratch: Float32Array;
  /** Where the query being searched is, as 16-bit numbers, in the arena (`prepareQuery`). */
  readonly queryAt: number;

  constructor(readonly dimensions: number) {
    this.scratch = new Float32Array(dimensions);
    this.queryAt = this.arena.alloc(2 * dimensions);
  }

  /**
   * Writes a unit query into the arena (`queryAt`) as 16-bit numbers, as fine as `dot16` can sum without
   * overflow: `dot16(queryAt, codes) · factor` estimates its dot product with the codes. `error` is the length
   * of the difference between the query and what was written (times `factor`): with codes of a vector x, the
   * estimate moves by at most `error · (1 + bound)` (the codes times the vector's factor are x − r, of length at
   * most |x| + |r|).
   */
  prepareQuery(unit: Float64Array): { factor: number; error: number } {
    let max = 0;
    for (let i = 0; i < unit.length; i++) max = Math.max(max, Math.abs(unit[i]));
    if (max === 0) return { factor: 0, error: 0 };
    const scale = queryScale(unit.length) / max;
    const words = this.arena.words;
    const at = this.queryAt >> 1;
    let error2 = 0;
    for (let i = 0; i < unit.length; i++) {
      const word = Math.round(unit[i] * scale);
      words[at + i] = word;
      const e = word / scale - unit[i];
      error2 += e * e;
    }
    return { factor: 1 / scale, error: Math.sqrt(error2) };
  }

  /** The chunks, for scans (`exact-index.ts`). */
  get allChunks(): readonly VectorChunk[] {
    return this.chunks;
  }

  has(doc: number): boolean {
    return doc < this.slotOf.length && this.slotOf.data[doc] !== 0;
  }

  /**
   * The document's vector as stored (float32), or undefined. A view of the column's memory, or of a buffer the
   * next read from the snapshot file reuses: copy it to keep it.
   */
  get(doc: number): Float32Array | undefined {
    if (!this.has(doc)) return undefined;
    const slot = this.slotOf.data[doc] - 1;
    const chunk = this.chunkOf(slot);
    return this.fullOf(chunk, slot - chunk.start);
  }

  /** A slot's float32 vector (a view, as `get`'s). */
  fullOf(chunk: VectorChunk, local: number): Float32Array {
    const d = this.dimensions;
    if (chunk.full !== null) return chunk.full.subarray(local * d, local * d + d);
    chunk.cold!.read(local * d * 4, new Uint8Array(this.scratch.buffer));
    return this.scratch;
  }

  /** Gives `doc` this vector (replacing any it had). */
  set(doc: number, vector: Float32Array): void {
    if (vector.length !== this.dimensions) throw createEngineError('INVALID_PARAMETER', 'vector', `expected ${this.dimensions} numbers`);
    this.delete(doc);
    const slot = this.free.pop() ?? this.newSlot();
    const chunk = this.chunkOf(slot);
    const local = slot - chunk.start;
    const at = local * this.dimensions;
    chunk.full!.set(vector, at);
    const { factor, bound } = quantise(vector, this.arena.bytes, chunk.codesAt + at);
    chunk.factor[local] = factor;
    chunk.bound[local] = bound;
    chunk.docs[local] = doc;
    this.slotOf.reserve(doc + 1);
    if (this.slotOf.length <= doc) {
      this.slotOf.data.fill(0, this.slotOf.length, doc + 1);
      this.slotOf.length = doc + 1;
    }
    this.slotOf.data[doc] = slot + 1;
    this.count++;
  }

  /** Takes `doc`'s vector away, if it has one. */
  delete(doc: number): void {
    if (!this.has(doc)) return;
    const slot = this.slotOf.data[doc] - 1;
    this.slotOf.data[doc] = 0;
    this.count--;
    const chunk = this.chunkOf(slot);
    // A restored chunk is never written: its freed slot stays empty (its document no longer points at it, which
    // `docOfSlot` checks) until the next snapshot leaves it out.
    if (chunk.borrowed) return;
    chunk.docs[slot - chunk.start] = FREE;
    this.free.push(slot);
  }

  /** The document a slot holds a vector for, or -1 (a free slot, or a restored one its document left). */
  docOfSlot(chunk: VectorChunk, local: number): number {
    const doc = chunk.docs[local];
    if (doc === FREE || doc >= this.slotOf.length || this.slotOf.data[doc] !== chunk.start + local + 1) return -1;
    return doc;
  }

  /** The slot holding `doc`'s vector, or -1. */
  slotOfDoc(doc: number): number {
    return this.has(doc) ? this.slotOf.data[doc] - 1 : -1;
  }

  /** The document a slot (numbered across chunks) holds a vector for, or -1 (freed slots keep their codes). */
  docAtSlot(slot: number): number {
    const chunk = this.chunkOf(slot);
    return this.docOfSlot(chunk, slot - chunk.start);
  }

  /** Slots numbered so far (free ones included). */
  get slots(): number {
    return this.slotCount;
  }

  /**
   * Each slot's number in another numbering of the live vectors (-1: none): `to(doc)` of its document, for a
   * live slot, -1 for others. With `to` omitted, the live slots' rank in slot order (the order `save` keeps).
   */
  slotMap(to?: (doc: number) => number): Int32Array {
    const map = new Int32Array(this.slotCount).fill(-1);
    let rank = 0;
    for (const chunk of this.chunks) {
      for (let local = 0; local < chunk.used; local++) {
        const doc = this.docOfSlot(chunk, local);
        if (doc >= 0) map[chunk.start + local] = to === undefined ? rank++ : to(doc);
      }
    }
    return map;
  }

  /** The slot's chunk and offset for a document's vector, or undefined. */
  locate(doc: number): { chunk: VectorChunk; local: number } | undefined {
    if (!this.has(doc)) return undefined;
    const slot = this.slotOf.data[doc] - 1;
    const chunk = this.chunkOf(slot);
    return { chunk, local: slot - chunk.start };
  }

  private newSlot(): number {
    const last = this.chunks[this.chunks.length - 1];
    if (last === undefined || last.borrowed || last.used === last.capacity) {
      const previous = last === undefined || last.borrowed ? 0 : last.capacity;
      const capacity = Math.min(MAX_CHUNK_SLOTS, Math.max(FIRST_CHUNK_SLOTS, previous * 2));
      this.addChunk(VectorChunk.owned(this.slotCount, capacity, this.dimensions, this.arena));
    }
    const chunk = this.chunks[this.chunks.length - 1];
    chunk.used++;
    return this.slotCount++;
  }

  private addChunk(chunk: VectorChunk): void {
    const index = this.chunks.length;
    this.chunks.push(chunk);
    for (let block = (chunk.start + 63) >> 6; block << 6 < chunk.start + chunk.capacity; block++) this.chunkOfBlock[block] = index;
  }

  /** The chunk holding a slot (slots are numbered across chunks, in order). */
  chunkOf(slot: number): VectorChunk {
    const index = this.chunkOfBlock[slot >> 6];
    const next = this.chunks[index + 1];
    return next !== undefined && next.start <= slot ? next : this.chunks[index];
  }

  /**
   * The same vectors under new document ids (a compaction or rebuild renumbered them): `newId(old)` < 0 drops
   * one. Restored chunks are copied into owned ones: their document ids change.
   */
  remap(newId: (doc: number) => number): VectorColumn {
    const next = new VectorColumn(this.dimensions);
    for (const chunk of this.chunks) {
      for (let local = 0; local < chunk.used; local++) {
        const doc = this.docOfSlot(chunk, local);
        if (doc < 0) continue;
        const moved = newId(doc);
        if (moved < 0) continue;
        next.set(moved, this.fullOf(chunk, local));
      }
    }
    return next;
  }

  /** Bytes held per vector (codes, floats, per-slot numbers and the document's slot), for the docs. */
  static bytesPerVector(dimensions: number): number {
    return dimensions + 4 * dimensions + 12 + 4;
  }

  /**
   * Saves the live slots in slot order, as sections `<prefix>.docs` (u32), `.codes` (bytes, padded to words),
   * `.full`, `.factor`, `.bound` (float32 as u32 words). Streams them: no buffer of the whole column.
   */
  save(w: SnapshotWriter, prefix: string): void {
    const live: Array<{ chunk: VectorChunk; local: number }> = [];
    for (const chunk of this.chunks) {
      for (let local = 0; local < chunk.used; local++) if (this.docOfSlot(chunk, local) >= 0) live.push({ chunk, local });
    }
    const d = this.dimensions;
    const n = live.length;
    const docs = new Uint32Array(n);
    live.forEach(({ chunk, local }, i) => (docs[i] = chunk.docs[local]));
    w.u32(`${prefix}.docs`, docs);
    const pieces = (array: (chunk: VectorChunk) => ArrayBufferView, width: number) =>
      function* (): Generator<Uint8Array, void, void> {
        for (const { chunk, local } of live) {
          const view = array(chunk);
          yield new Uint8Array(view.buffer, view.byteOffset + local * width, width);
        }
      };
    const arena = this.arena;
    // The arena's bytes are read at each piece: a write between two pieces may have grown (replaced) them.
    // Cold: a loader that reads files at an offset leaves it there, and the load reads it straight into the
    // arena (no copy of the codes in the snapshot's buffer, kept resident beside the arena's).
    w.u32Pieces(
      `${prefix}.codes`,
      align4(n * d),
      function* () {
        for (const { chunk, local } of live) yield new Uint8Array(arena.bytes.buffer, chunk.codesAt + local * d, d);
      },
      { cold: true },
    );
    // Cold: a loader that reads files at an offset leaves the float32 vectors there (a search reads a few).
    w.u32Pieces(`${prefix}.full`, n * d * 4, () => this.fullPieces(live), { cold: true });
    w.u32Pieces(`${prefix}.factor`, n * 4, pieces((c) => c.factor, 4));
    w.u32Pieces(`${prefix}.bound`, n * 4, pieces((c) => c.bound, 4));
  }

  /** The float32 vectors of `live` in order: views, or batches of consecutive slots read from the file. */
  private *fullPieces(live: Array<{ chunk: VectorChunk; local: number }>): Generator<Uint8Array, void, void> {
    const d = this.dimensions;
    const batch = new Uint8Array(64 * d * 4);
    for (let i = 0; i < live.length; ) {
      const { chunk, local } = live[i];
      if (chunk.full !== null) {
        yield new Uint8Array(chunk.full.buffer, chunk.full.byteOffset + local * d * 4, d * 4);
        i++;
        continue;
      }
      // Pieces are copied as soon as they are yielded (`SnapshotWriter`): one buffer serves every batch.
      let run = 1;
      while (run < 64 && i + run < live.length && live[i + run].chunk === chunk && live[i + run].local === local + run) run++;
      const bytes = batch.subarray(0, run * d * 4);
      chunk.cold!.read(local * d * 4, bytes);
      yield bytes;
      i += run;
    }
  }

  /** A column restored from `save`'s sections, over `documents` ids: one chunk viewing the snapshot's bytes. */
  static load(r: SnapshotReader, prefix: string, dimensions: number, documents: number): VectorColumn {
    const docs = r.u32(`${prefix}.docs`);
    const n = docs.length;
    const words = (name: string, length: number): Uint32Array => {
      const values = r.u32(`${prefix}.${name}`);
      if (values.length < length) throw createEngineError('INVALID_SNAPSHOT', `section ${prefix}.${name} is too short`);
      return values;
    };
    const coldCodes = r.cold(`${prefix}.codes`);
    if (coldCodes !== null && coldCodes.byteLength < n * dimensions) throw createEngineError('INVALID_SNAPSHOT', `section ${prefix}.codes is too short`);
    const codeWords = coldCodes === null ? words('codes', align4(n * dimensions) / 4) : null;
    const cold = r.cold(`${prefix}.full`);
    if (cold !== null && cold.byteLength < n * dimensions * 4) throw createEngineError('INVALID_SNAPSHOT', `section ${prefix}.full is too short`);
    const full = cold === null ? words('full', n * dimensions) : null;
    const factor = words('factor', n);
    const bound = words('bound', n);
    const f32 = (values: Uint32Array, length: number) => new Float32Array(values.buffer, values.byteOffset, length);
    const column = new VectorColumn(dimensions);
    // The codes are copied into the arena (its dot products read only its own memory); the rest stays a view.
    const codesAt = column.arena.alloc(n * dimensions);
    const into = new Uint8Array(column.arena.bytes.buffer, codesAt, n * dimensions);
    if (codeWords === null) coldCodes!.read(0, into);
    else into.set(new Uint8Array(codeWords.buffer, codeWords.byteOffset, n * dimensions));
    const chunk = new VectorChunk(0, n, codesAt, full === null ? null : f32(full, n * dimensions), f32(factor, n), f32(bound, n), docs, true, cold);
    chunk.used = n;
    column.addChunk(chunk);
    column.slotCount = n;
    column.slotOf.reserve(documents);
    column.slotOf.data.fill(0, 0, documents);
    column.slotOf.length = documents;
    for (let slot = 0; slot < n; slot++) {
      const doc = docs[slot];
      if (doc >= documents || column.slotOf.data[doc] !== 0) throw createEngineError('INVALID_SNAPSHOT', `${prefix}: document ${doc}`);
      column.slotOf.data[doc] = slot + 1;
    }
    column.count = n;
    return column;
  }
}

function align4(n: number): number {
  return (n + 3) & ~3;
}
