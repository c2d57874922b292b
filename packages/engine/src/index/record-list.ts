/**
 * The records by internal id, kept as UTF-8 JSON bytes and parsed when read.
 *
 * Why bytes: a million product records as objects are tens of millions of heap objects, and every full garbage
 * collection traces all of them — measured at 1M products, 1–1.6 s pauses every few seconds of querying, and a
 * large share of the CPU. As bytes they are a few large buffers the collector never looks into. A page of hits
 * reads 20 records, so parsing them is cheap. No parsed record is kept: a page asked again comes whole from the
 * result cache, and under the HTTP benchmark's searches an LRU of the last 4,096 records read answered 8% of
 * reads while costing its upkeep on every read and promoting every record it held to the old generation.
 * Records restored from a snapshot are adopted as the snapshot's bytes (no parse and no copy at load).
 *
 * A record changed in place (`replace`: same id, new bytes) leaves its old bytes behind. Once such dead bytes
 * outnumber the live ones, a sweep moves every live record out of the older chunks a few per write, then drops
 * those chunks: memory stays within about twice the live bytes without copying everything in one go.
 *
 * Records can also live outside memory: once a snapshot holding them is on disk, `readFrom` points every record
 * unchanged since then at the snapshot's records section (a `RecordSource`, read when a record is) and drops the
 * chunks nothing points into any more. In memory stay only the records written since the last snapshot, not
 * every record twice (the main thread's copy and a search thread's).
 */
import type { IndexRecord } from '@vitrine/protocol';
import type { SnapshotReader, SnapshotWriter } from '../snapshot/format.ts';
import { createEngineError } from '../errors.ts';
import { GrowableUint32, roomy } from '../structures/growable.ts';

const encoder = new TextEncoder();
const EMPTY = new Uint8Array(0);
const decoder = new TextDecoder();
/**
 * Storage chunk sizes: records are appended to the last chunk, and a full chunk is never copied or grown. Chunks
 * double from the smallest (an index of a few records stays small) up to the largest.
 */
const MIN_CHUNK_BYTES = 16 << 10;
const MAX_CHUNK_BYTES = 8 << 20;
/** Dead bytes (replaced versions, deleted records) tolerated before a sweep, at least. */
const MIN_SWEEP_GARBAGE = 4 << 20;
/** Live records moved by a sweep per record written (so it ends before the dead bytes double again). */
const SWEEP_MOVES_PER_WRITE = 4;
/** Ids looked at per sweep step at most (deleted and already moved records cost a look each). */
const SWEEP_SCAN_PER_STEP = 4096;

/** A record whose bytes are read from the list's `RecordSource` rather than a chunk (its `chunkOf`). */
const COLD = 0xffffffff;
/** The longest read of a source when records are copied into a snapshot. */
const SOURCE_PIECE_BYTES = 1 << 20;

/**
 * Where the records of a snapshot are read back from: its records section, `start` and `length` in bytes from
 * the section's first. Reads are synchronous (the engine is); a read answers a buffer of its own, or a view of
 * `into` (at least `length` long) when given.
 */
export interface RecordSource {
  read(start: number, length: number, into?: Uint8Array): Uint8Array;
  /** Called once no record is read from it any more. */
  close(): void;
}

/** A moment in a list's writes (`RecordList.stamp`): the records a snapshot taken then holds are those unchanged since. */
export interface RecordsStamp {
  readonly list: RecordList;
  readonly writes: number;
}

/** A snapshot's records section as `readFrom` needs it: each record's range (`records.offsets`, n + 1 entries). */
export interface SnapshotRecords {
  offsets: Uint32Array;
  source: RecordSource;
  /** Whether the snapshot's record `doc` is this list's `doc` (when the snapshot was written by another copy). */
  sameRecord?: (doc: number) => boolean;
}

/** A source no list reads from any more is closed, even when the list was dropped without a word (a cleared index). */
const sourcesToClose = new FinalizationRegistry<RecordSource>((source) => source.close());

/** A record from its JSON bytes (`RecordList.bytes`). */
export function parseRecord(bytes: Uint8Array): IndexRecord {
  return JSON.parse(decoder.decode(bytes)) as IndexRecord;
}

export class RecordList {
  /** Byte chunks; chunk 0 may be a snapshot's blob. */
  private chunks: Uint8Array[] = [];
  /** Bytes used in the last chunk. */
  private used = 0;
  /** Bytes written into each chunk (dropped chunks: 0). */
  private chunkBytes: number[] = [];
  /** Bytes of live records, and of everything held in chunks: the difference is dead. */
  private liveBytes = 0;
  private storedBytes = 0;
  /** A sweep under way: every live record in a chunk below `below` is moved to the end, from `cursor` on. */
  private sweep: { cursor: number; below: number } | null = null;
  /** Sweeps completed (tests). */
  sweeps = 0;
  /** Per document: its chunk, first byte and byte length. */
  private chunkOf = new GrowableUint32(1024);
  private startOf = new GrowableUint32(1024);
  private lengthOf = new GrowableUint32(1024);
  /** Per document: 1 once deleted (its bytes stay until the owner compacts the store). */
  private deleted = new Uint8Array(1024);
  /** Where the records marked `COLD` are read from. */
  private source: RecordSource | null = null;
  /** Records written (pushed, replaced, deleted) so far, and per document the count when it last changed. */
  private writes = 0;
  private changedAt = new Float64Array(1024);

  get length(): number {
    return this.lengthOf.length;
  }

  /** The record, parsed afresh (a new object each time: callers may keep or change it). */
  get(doc: number): IndexRecord | undefined {
    if (this.isDeleted(doc)) return undefined;
    return parseRecord(this.bytesOf(doc));
  }

  /**
   * The record's JSON bytes (undefined when deleted), as a view that later writes leave as it is: chunks are
   * only ever appended to, and a sweep drops its references to old chunks without changing them. A page of
   * hits chosen now can be built from them later, whatever was written meanwhile.
   */
  bytes(doc: number): Uint8Array | undefined {
    return this.isDeleted(doc) ? undefined : this.bytesOf(doc);
  }

  push(record: IndexRecord): void {
    const json = JSON.stringify(record);
    const { chunk, start, written } = this.write(json);
    this.chunkOf.push(chunk);
    this.startOf.push(start);
    this.lengthOf.push(written);
    const doc = this.lengthOf.length - 1;
    this.deleted = roomy(this.deleted, doc + 1, doc);
    this.changedAt = roomy(this.changedAt, doc + 1, doc);
    this.noteChange(doc);
    this.liveBytes += written;
    this.sweepStep();
  }

  /** Replaces the record of a live id (same id, new bytes); the old bytes are dead until a sweep. */
  replace(doc: number, record: IndexRecord): void {
    if (this.isDeleted(doc)) throw new Error(`record ${doc} is not live`);
    this.noteChange(doc);
    const { chunk, start, written } = this.write(JSON.stringify(record));
    this.liveBytes += written - this.bytesInMemory(doc);
    this.chunkOf.data[doc] = chunk;
    this.startOf.data[doc] = start;
    this.lengthOf.data[doc] = written;
    this.sweepStep();
  }

  /** Bytes held that no live record uses (replaced versions, deleted records). */
  get deadBytes(): number {
    return this.storedBytes - this.liveBytes;
  }

  /**
   * Writes a record at the end of the last chunk, opening a new one when it may not fit: JSON text encoded as
   * UTF-8, or a record's bytes as they are (a sweep moving it).
   */
  private write(data: string | Uint8Array): { chunk: number; start: number; written: number } {
    // UTF-8 takes at most 3 bytes per UTF-16 code unit.
    this.reserveRoom(typeof data === 'string' ? data.length * 3 : data.length);
    const chunk = this.chunks.length - 1;
    const start = this.used;
    let written = data.length;
    if (typeof data === 'string') written = encoder.encodeInto(data, this.chunks[chunk].subarray(start)).written;
    else this.chunks[chunk].set(data, start);
    this.used += written;
    this.chunkBytes[chunk] += written;
    this.storedBytes += written;
    return { chunk, start, written };
  }

  private reserveRoom(room: number): void {
    if (this.chunks.length === 0 || this.used + room > this.chunks[this.chunks.length - 1].length) {
      const previous = this.chunks.length === 0 ? 0 : this.chunks[this.chunks.length - 1].length;
      const size = Math.min(MAX_CHUNK_BYTES, Math.max(MIN_CHUNK_BYTES, previous * 2));
      this.chunks.push(new Uint8Array(Math.max(size, room)));
      this.chunkBytes.push(0);
      this.used = 0;
    }
  }

  /**
   * Starts a sweep when dead bytes outnumber live ones (and are worth it), and advances a running one: up to
   * `SWEEP_MOVES_PER_WRITE` live records from the older chunks are copied to the end (bytes only, no parse).
   */
  private sweepStep(): void {
    if (this.sweep === null) {
      const dead = this.deadBytes;
      if (dead < MIN_SWEEP_GARBAGE || dead <= this.liveBytes) return;
      // Records written from now on go to chunks at or above `below`: seal the last chunk.
      this.sweep = { cursor: 0, below: this.chunks.length };
      this.used = Number.MAX_SAFE_INTEGER;
    }
    const sweep = this.sweep;
    const n = this.length;
    let moved = 0;
    for (let looked = 0; sweep.cursor < n && moved < SWEEP_MOVES_PER_WRITE && looked < SWEEP_SCAN_PER_STEP; looked++) {
      const doc = sweep.cursor++;
      if (this.deleted[doc] === 1 || this.chunkOf.data[doc] >= sweep.below) continue;
      const { chunk, start } = this.write(this.bytesOf(doc));
      this.chunkOf.data[doc] = chunk;
      this.startOf.data[doc] = start;
      moved++;
    }
    if (sweep.cursor < n) return;
    // Every live record now lives at or above `below`: the chunks below hold only dead bytes.
    for (let chunk = 0; chunk < sweep.below; chunk++) {
      this.storedBytes -= this.chunkBytes[chunk];
      this.chunkBytes[chunk] = 0;
      this.chunks[chunk] = EMPTY;
    }
    this.sweep = null;
    this.sweeps++;
  }

  delete(doc: number): void {
    // The bytes stay until the owner compacts the store (it rebuilds once tombstones outnumber live records).
    if (doc < this.length && this.deleted[doc] === 0) {
      this.noteChange(doc);
      this.liveBytes -= this.bytesInMemory(doc);
      this.deleted[doc] = 1;
    }
  }

  private noteChange(doc: number): void {
    this.changedAt[doc] = ++this.writes;
  }

  /** The bytes a live record takes in the chunks (none when read from the source). */
  private bytesInMemory(doc: number): number {
    return this.chunkOf.data[doc] === COLD ? 0 : this.lengthOf.data[doc];
  }

  /** Records read from the source rather than memory (tests, stats). */
  get recordsOutOfMemory(): number {
    let count = 0;
    for (let doc = 0; doc < this.length; doc++) if (this.deleted[doc] === 0 && this.chunkOf.data[doc] === COLD) count++;
    return count;
  }

  /** This moment in the list's writes: see `readFrom`. */
  stamp(): RecordsStamp {
    return { list: this, writes: this.writes };
  }

  /**
   * Reads from now on every record unchanged since `stamp` from `snapshot`, a snapshot's records section taken
   * at that moment (by this list, or by another copy of it where `sameRecord` says so), and frees the memory
   * they took. A record still read from the previous source that this one does not serve is copied back into
   * memory first. Returns how many records are read from the snapshot; none when `stamp` is another list's (the
   * store was rebuilt since), and the source is then closed.
   */
  readFrom(stamp: RecordsStamp, { offsets, source, sameRecord = () => true }: SnapshotRecords): number {
    if (stamp.list !== this || stamp.writes > this.writes) {
      source.close();
      return 0;
    }
    const previous = this.source;
    const n = Math.min(this.length, offsets.length - 1);
    let adopted = 0;
    for (let doc = 0; doc < this.length; doc++) {
      if (this.deleted[doc] === 1) continue;
      const cold = this.chunkOf.data[doc] === COLD;
      if (doc < n && this.changedAt[doc] <= stamp.writes && offsets[doc + 1] - offsets[doc] === this.lengthOf.data[doc] && sameRecord(doc)) {
        if (!cold) this.liveBytes -= this.lengthOf.data[doc];
        this.chunkOf.data[doc] = COLD;
        this.startOf.data[doc] = offsets[doc];
        adopted++;
      } else if (cold) {
        // Still in the previous source, which is about to be closed.
        const { chunk, start, written } = this.write(this.bytesOf(doc));
        this.chunkOf.data[doc] = chunk;
        this.startOf.data[doc] = start;
        this.liveBytes += written;
      }
    }
    this.source = source;
    if (previous !== source) {
      sourcesToClose.unregister(this);
      sourcesToClose.register(this, source, this);
      previous?.close();
    }
    this.dropUnusedChunks();
    return adopted;
  }

  /** Chunks no live record is read from: emptied (a sweep under way finds nothing to move in them). */
  private dropUnusedChunks(): void {
    const used = new Uint8Array(this.chunks.length);
    for (let doc = 0; doc < this.length; doc++) {
      const chunk = this.chunkOf.data[doc];
      if (this.deleted[doc] === 0 && chunk !== COLD) used[chunk] = 1;
    }
    for (let chunk = 0; chunk < this.chunks.length; chunk++) {
      if (used[chunk] === 1 || this.chunks[chunk] === EMPTY) continue;
      this.storedBytes -= this.chunkBytes[chunk];
      this.chunkBytes[chunk] = 0;
      this.chunks[chunk] = EMPTY;
      // The next record starts a new chunk.
      if (chunk === this.chunks.length - 1) this.used = Number.MAX_SAFE_INTEGER;
    }
  }

  /** Every record in id order (deleted ones as undefined). */
  forEach(visit: (record: IndexRecord | undefined, doc: number) => void): void {
    for (let doc = 0; doc < this.length; doc++) visit(this.get(doc), doc);
  }

  *values(): IterableIterator<IndexRecord | undefined> {
    for (let doc = 0; doc < this.length; doc++) yield this.get(doc);
  }

  isDeleted(doc: number): boolean {
    return doc < 0 || doc >= this.length || this.deleted[doc] === 1;
  }

  /** Every record as JSON bytes with offsets; a deleted record is an empty range (a record is never empty). */
  save(w: SnapshotWriter): void {
    const n = this.length;
    const offsets = new Uint32Array(n + 1);
    let used = 0;
    for (let doc = 0; doc < n; doc++) {
      if (this.deleted[doc] === 0) used += this.lengthOf.data[doc];
      offsets[doc + 1] = used;
    }
    w.u32('records.offsets', offsets);
    // Zero-padded to whole 32-bit words, for the u32 section type.
    w.u32Pieces('records.blob', (used + 3) & ~3, () => this.liveRecordBytes(offsets));
    w.json('records.blobLength', used);
  }

  /**
   * Every live record's bytes in order. Live records stored one after the other in a chunk come as one run (all
   * of a chunk after an import): one piece per run rather than per record.
   */
  private *liveRecordBytes(offsets: Uint32Array): Generator<Uint8Array, void, void> {
    const n = offsets.length - 1;
    const { chunkOf, startOf } = this;
    // Records copied from the previous snapshot's file pass through one buffer, each piece written before the
    // next is read (`SnapshotWriter.pieces`): a buffer per piece was garbage until the thread's next collection,
    // the whole catalogue's records (tens of megabytes) at the peak of a snapshot during an import.
    let scratch: Uint8Array | undefined;
    let doc = 0;
    while (doc < n) {
      if (this.deleted[doc] === 1) {
        doc++;
        continue;
      }
      const chunk = chunkOf.data[doc];
      const start = startOf.data[doc];
      let end = doc + 1;
      while (end < n && this.deleted[end] === 0 && chunkOf.data[end] === chunk && startOf.data[end] === start + (offsets[end] - offsets[doc])) end++;
      const length = offsets[end] - offsets[doc];
      if (chunk !== COLD) yield this.chunks[chunk].subarray(start, start + length);
      else {
        scratch ??= new Uint8Array(SOURCE_PIECE_BYTES);
        for (let at = 0; at < length; at += SOURCE_PIECE_BYTES) yield this.source!.read(start + at, Math.min(SOURCE_PIECE_BYTES, length - at), scratch);
      }
      doc = end;
    }
  }

  /** Restores records, adopting the snapshot's bytes (an empty range: a deleted record). */
  static load(r: SnapshotReader): RecordList {
    const offsets = r.u32('records.offsets');
    const used = r.json<number>('records.blobLength');
    const words = r.u32('records.blob');
    if (offsets.length === 0 || !Number.isInteger(used) || used > words.byteLength || offsets[offsets.length - 1] !== used) {
      throw createEngineError('INVALID_SNAPSHOT', 'records');
    }
    const list = new RecordList();
    const n = offsets.length - 1;
    // With room to grow: the writes after a restart extend them without a copy.
    const chunkOf = GrowableUint32.zeroed(n);
    const startOf = GrowableUint32.zeroed(n);
    const lengthOf = GrowableUint32.zeroed(n);
    const starts = startOf.data;
    const lengths = lengthOf.data;
    list.deleted = new Uint8Array(Math.max(1024, n));
    list.changedAt = new Float64Array(Math.max(1024, n));
    for (let doc = 0; doc < n; doc++) {
      if (offsets[doc + 1] < offsets[doc]) throw createEngineError('INVALID_SNAPSHOT', 'records');
      starts[doc] = offsets[doc];
      lengths[doc] = offsets[doc + 1] - offsets[doc];
      if (lengths[doc] === 0) list.deleted[doc] = 1;
    }
    list.chunks = [new Uint8Array(words.buffer, words.byteOffset, used)];
    list.chunkBytes = [used];
    list.storedBytes = used;
    list.liveBytes = used;
    // The loaded chunk is full as far as appends go: the next record starts a new chunk.
    list.used = used;
    list.chunkOf = chunkOf;
    list.startOf = startOf;
    list.lengthOf = lengthOf;
    return list;
  }

  private bytesOf(doc: number): Uint8Array {
    const start = this.startOf.data[doc];
    const chunk = this.chunkOf.data[doc];
    if (chunk === COLD) return this.source!.read(start, this.lengthOf.data[doc]);
    return this.chunks[chunk].subarray(start, start + this.lengthOf.data[doc]);
  }
}
