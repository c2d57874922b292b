/**
 * objectID ↔ internal id, kept outside the JavaScript heap: each id's objectID as UTF-8 bytes, and an
 * open-addressing hash table (typed array) from objectID to the live id holding it.
 *
 * Why: at a million records, a `Map<string, DocId>` and an array of objectID strings were 60 MB of the 86 MB
 * heap and two million objects that every full garbage collection traced (most of each collection's time at
 * 1M). As typed arrays the collector never looks into them.
 *
 * Deleted ids keep their bytes (ids never move); their slot in the table becomes a tombstone, reused by later
 * inserts; the table is rebuilt when tombstones and entries fill half of it. An id is live exactly when the
 * table holds it: no separate deletion mark (the record list and the live set already keep theirs).
 */
import { GrowableUint32 } from '../structures/growable.ts';
import { hashBytes, tableSizeFor } from '../structures/hash-table.ts';
import type { SnapshotWriter } from '../snapshot/format.ts';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const EMPTY = 0;
const TOMBSTONE = -1;
const MIN_TABLE = 1024;
/** A table is sized for a third full (tombstones added after fill it further: see `rehash`). */
const SLOTS_PER_ID = 3;

export class ObjectIds {
  /** UTF-8 bytes of every id's objectID, id after id. */
  private bytes = new Uint8Array(4096);
  private used = 0;
  /** Per id: where its bytes start; `ends[id]` where they end. */
  private starts = new GrowableUint32(1024);
  private ends = new GrowableUint32(1024);
  /** Slots: id + 1 of a live id, EMPTY or TOMBSTONE. Size a power of two. */
  private table = new Int32Array(MIN_TABLE);
  private live = 0;
  private tombstones = 0;
  /** Scratch for a looked-up objectID's bytes. */
  private key = new Uint8Array(256);

  /** Ids assigned so far, deleted ones included. */
  get length(): number {
    return this.starts.length;
  }

  /** Live ids. */
  get size(): number {
    return this.live;
  }

  /** The live id holding `objectID`, if any. */
  get(objectID: string): number | undefined {
    return this.find(this.key, this.encodeKey(objectID));
  }

  /** Appends the next id, holding `objectID` (the caller has deleted any live id holding it). */
  push(objectID: string): number {
    const id = this.starts.length;
    const length = this.encodeKey(objectID);
    this.reserveBytes(length);
    this.bytes.set(this.key.subarray(0, length), this.used);
    this.starts.push(this.used);
    this.used += length;
    this.ends.push(this.used);
    this.insert(id, hashBytes(this.key, length));
    return id;
  }

  /** Deletes `id` (its objectID no longer finds it); a deleted id is left as it is. */
  delete(id: number): void {
    if (id >= this.length) return;
    const start = this.starts.data[id];
    const mask = this.table.length - 1;
    for (let slot = hashBytes(this.bytes, this.ends.data[id], start) & mask; ; slot = (slot + 1) & mask) {
      const entry = this.table[slot];
      if (entry === EMPTY) return;
      if (entry === id + 1) {
        this.table[slot] = TOMBSTONE;
        this.live--;
        this.tombstones++;
        return;
      }
    }
  }

  isDeleted(id: number): boolean {
    return id >= this.length || this.get(this.objectIdOf(id)) !== id;
  }

  /** Whether `id`'s objectID is `bytes[from, to)` (UTF-8; a snapshot's `records.idBytes`). */
  holds(id: number, bytes: Uint8Array, from: number, to: number): boolean {
    if (id >= this.length) return false;
    const start = this.starts.data[id];
    if (this.ends.data[id] - start !== to - from) return false;
    const own = this.bytes;
    for (let i = 0; i < to - from; i++) if (own[start + i] !== bytes[from + i]) return false;
    return true;
  }

  /** The objectID of `id` (deleted ones included), decoded. */
  objectIdOf(id: number): string {
    return decoder.decode(this.bytes.subarray(this.starts.data[id], this.ends.data[id]));
  }

  /**
   * Into a snapshot: each id's end offset (`offsetsName`; a deleted id has an empty range) and the live ids'
   * bytes one after another (`bytesName`, zero-padded to whole 32-bit words).
   */
  save(w: SnapshotWriter, offsetsName: string, bytesName: string): void {
    const n = this.length;
    const live = new Uint8Array(n);
    // Indexed loops over locals: iterating the table with for...of and reading the offsets through their
    // holders is about three times slower, in a step the search thread writing the snapshot answers nothing
    // during.
    const table = this.table;
    for (let slot = 0; slot < table.length; slot++) if (table[slot] > 0) live[table[slot] - 1] = 1;
    const offsets = new Uint32Array(n + 1);
    const starts = this.starts.data;
    const ends = this.ends.data;
    let total = 0;
    for (let id = 0; id < n; id++) {
      if (live[id] === 1) total += ends[id] - starts[id];
      offsets[id + 1] = total;
    }
    w.u32(offsetsName, offsets);
    w.u32Pieces(bytesName, (total + 3) & ~3, () => this.liveBytes(offsets));
  }

  /** The live ids' bytes in order; runs of ids stored one after the other come as one piece. */
  private *liveBytes(offsets: Uint32Array): Generator<Uint8Array, void, void> {
    const n = offsets.length - 1;
    const { starts, ends } = this;
    let id = 0;
    while (id < n) {
      if (offsets[id + 1] === offsets[id]) {
        id++;
        continue;
      }
      let end = id + 1;
      while (end < n && starts.data[end] === ends.data[end - 1] && offsets[end + 1] - offsets[end] === ends.data[end] - starts.data[end]) end++;
      yield this.bytes.subarray(starts.data[id], ends.data[end - 1]);
      id = end;
    }
  }

  /**
   * Ids from a snapshot, `isDeleted(id)` true for deleted ones. Returns null when two live ids hold the same
   * objectID (a damaged snapshot).
   */
  static fromSnapshot(bytes: Uint8Array, offsets: Uint32Array, isDeleted: (id: number) => boolean): ObjectIds | null {
    const ids = new ObjectIds();
    const n = offsets.length - 1;
    ids.bytes = bytes.slice();
    ids.used = bytes.length;
    ids.starts = GrowableUint32.withRoom(offsets.subarray(0, n));
    ids.ends = GrowableUint32.withRoom(offsets.subarray(1));
    let live = 0;
    for (let id = 0; id < n; id++) if (!isDeleted(id)) live++;
    ids.table = new Int32Array(tableSizeFor(live, SLOTS_PER_ID, MIN_TABLE));
    for (let id = 0; id < n; id++) {
      if (isDeleted(id)) continue;
      const key = ids.bytes.subarray(offsets[id], offsets[id + 1]);
      if (ids.find(key, key.length) !== undefined) return null;
      ids.insert(id, hashBytes(key, key.length));
    }
    return ids;
  }

  /** The live id whose objectID is `key[0, length)`. */
  private find(key: Uint8Array, length: number): number | undefined {
    const mask = this.table.length - 1;
    for (let slot = hashBytes(key, length) & mask; ; slot = (slot + 1) & mask) {
      const entry = this.table[slot];
      if (entry === EMPTY) return undefined;
      if (entry !== TOMBSTONE && this.equals(entry - 1, key, length)) return entry - 1;
    }
  }

  private insert(id: number, hash: number): void {
    if ((this.live + this.tombstones + 1) * 2 > this.table.length) this.rehash(tableSizeFor(this.live + 1, SLOTS_PER_ID, MIN_TABLE));
    const mask = this.table.length - 1;
    let slot = hash & mask;
    while (this.table[slot] > 0) slot = (slot + 1) & mask;
    if (this.table[slot] === TOMBSTONE) this.tombstones--;
    this.table[slot] = id + 1;
    this.live++;
  }

  private rehash(size: number): void {
    const old = this.table;
    this.table = new Int32Array(size);
    const mask = size - 1;
    for (const entry of old) {
      if (entry <= 0) continue;
      const id = entry - 1;
      let slot = hashBytes(this.bytes, this.ends.data[id], this.starts.data[id]) & mask;
      while (this.table[slot] !== EMPTY) slot = (slot + 1) & mask;
      this.table[slot] = entry;
    }
    this.tombstones = 0;
  }

  /** Whether `id`'s bytes equal the first `length` bytes of `key`. */
  private equals(id: number, key: Uint8Array, length: number): boolean {
    const start = this.starts.data[id];
    if (this.ends.data[id] - start !== length) return false;
    const bytes = this.bytes;
    for (let i = 0; i < length; i++) if (bytes[start + i] !== key[i]) return false;
    return true;
  }

  /** UTF-8 of `objectID` into `key`; its length. */
  private encodeKey(objectID: string): number {
    // UTF-8 takes at most 3 bytes per UTF-16 code unit.
    if (this.key.length < objectID.length * 3) this.key = new Uint8Array(objectID.length * 3);
    return encoder.encodeInto(objectID, this.key).written;
  }

  private reserveBytes(length: number): void {
    if (this.used + length <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.used + length));
    grown.set(this.bytes.subarray(0, this.used));
    this.bytes = grown;
  }
}

