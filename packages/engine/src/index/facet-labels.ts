/**
 * A facet's distinct values: each value id's display label (the spelling first seen), kept as UTF-8 bytes and
 * decoded when asked for, and the id of a normalised value found through an open-addressing table of ids.
 *
 * Why not a string per label and a `Map` from normalised value to id: a facet of product groups has a value per
 * two products. At a million products, loading its 535,000 labels from a snapshot took 0.6–0.9 s (parsing them,
 * then 430 ms of `Map` inserts), and the strings were most of the objects each major garbage collection traced
 * (40–60 ms pauses, met by the first searches after a restart). Here they are three typed arrays.
 */
import { GrowableUint32 } from '../structures/growable.ts';
import { hashBytes, hashText, tableSizeFor } from '../structures/hash-table.ts';
import { normalizeText } from '../tokenize/index.ts';
import type { SnapshotReader, SnapshotWriter } from '../snapshot/format.ts';
import { createEngineError } from '../errors.ts';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Slots per value: tables at most half full. */
const SLOTS_PER_VALUE = 2;
const MIN_TABLE = 16;

export class FacetLabels {
  private bytes: Uint8Array = new Uint8Array(1024);
  private used = 0;
  /** Label `id` is bytes[starts[id], starts[id + 1]). */
  private starts = new GrowableUint32(1024);
  /** Hash of each id's normalised value (to grow the table without normalising again). */
  private hashes = new GrowableUint32(1024);
  /** Slots of id + 1 (0: empty), at most half full. */
  private table = new Int32Array(MIN_TABLE);
  /** The normalised value of labels that are not lowercase ASCII (theirs is their own bytes otherwise). */
  private readonly normalised = new Map<number, string>();

  constructor() {
    this.starts.push(0);
  }

  get length(): number {
    return this.starts.length - 1;
  }

  /**
   * The display label of value `id`, decoded once and kept: the values a search returns are asked for again and
   * again (decoding each every time cost the facet-heavy searches 15-30% of their time), the others never are.
   */
  get(id: number): string {
    let label = this.shown[id];
    if (label === undefined) this.shown[id] = label = this.decode(id);
    return label;
  }

  /** Labels returned by `get`, by id. */
  private readonly shown: Array<string | undefined> = [];

  private decode(id: number): string {
    return decoder.decode(this.bytes.subarray(this.starts.data[id], this.starts.data[id + 1]));
  }

  /** Every label, in id order (decoded, not kept: a facet may hold half a million values). */
  *[Symbol.iterator](): Generator<string, void, void> {
    for (let id = 0; id < this.length; id++) yield this.shown[id] ?? this.decode(id);
  }

  /** The id whose normalised value is `key` (already normalised: `normalizeText`). */
  idOf(key: string): number | undefined {
    const mask = this.table.length - 1;
    for (let slot = hashText(key) & mask; ; slot = (slot + 1) & mask) {
      const entry = this.table[slot];
      if (entry === 0) return undefined;
      if (this.holds(entry - 1, key)) return entry - 1;
    }
  }

  /** Adds `label`, whose normalised value `key` no id has yet; returns its id. */
  add(label: string, key: string): number {
    const id = this.length;
    const room = this.used + label.length * 3;
    if (room > this.bytes.length) {
      const grown = new Uint8Array(Math.max(room, this.bytes.length * 2));
      grown.set(this.bytes.subarray(0, this.used));
      this.bytes = grown;
    }
    this.used += encoder.encodeInto(label, this.bytes.subarray(this.used)).written;
    this.starts.push(this.used);
    if (key !== label || !isLowerAsciiText(label)) this.normalised.set(id, key);
    this.place(id, hashText(key));
    return id;
  }

  /** Whether id's normalised value is `key`. */
  private holds(id: number, key: string): boolean {
    const own = this.normalised.get(id);
    if (own !== undefined) return own === key;
    const start = this.starts.data[id];
    if (this.starts.data[id + 1] - start !== key.length) return false;
    for (let i = 0; i < key.length; i++) if (this.bytes[start + i] !== key.charCodeAt(i)) return false;
    return true;
  }

  private place(id: number, hash: number): void {
    this.hashes.push(hash);
    if (this.length * SLOTS_PER_VALUE > this.table.length) this.rehash(this.table.length * 2);
    else this.insert(id, hash);
  }

  private insert(id: number, hash: number): void {
    const mask = this.table.length - 1;
    let slot = hash & mask;
    while (this.table[slot] !== 0) slot = (slot + 1) & mask;
    this.table[slot] = id + 1;
  }

  private rehash(size: number): void {
    this.table = new Int32Array(size);
    const hashes = this.hashes.data;
    for (let id = 0; id < this.hashes.length; id++) this.insert(id, hashes[id]);
  }

  save(w: SnapshotWriter, prefix: string): void {
    const padded = new Uint8Array((this.used + 3) & ~3);
    padded.set(this.bytes.subarray(0, this.used));
    w.u32(`${prefix}.labelBytes`, new Uint32Array(padded.buffer));
    w.u32(`${prefix}.labelStarts`, this.starts.view());
  }

  /** Labels from a snapshot: their bytes adopted as they are, or the JSON list snapshots held before. */
  static load(r: SnapshotReader, prefix: string): FacetLabels {
    const labels = new FacetLabels();
    if (r.has(`${prefix}.labels`)) {
      const list = r.json<string[]>(`${prefix}.labels`);
      if (!Array.isArray(list)) throw createEngineError('INVALID_SNAPSHOT', `facet ${prefix} labels`);
      for (const label of list) labels.addLoaded(String(label));
      return labels;
    }
    const words = r.u32(`${prefix}.labelBytes`);
    const starts = r.u32(`${prefix}.labelStarts`);
    const count = starts.length - 1;
    if (count < 0 || starts[0] !== 0 || starts[count] > words.byteLength) throw createEngineError('INVALID_SNAPSHOT', `facet ${prefix} labels`);
    for (let id = 0; id < count; id++) if (starts[id + 1] < starts[id]) throw createEngineError('INVALID_SNAPSHOT', `facet ${prefix} labels`);
    labels.bytes = new Uint8Array(words.buffer, words.byteOffset, starts[count]);
    labels.used = starts[count];
    // Writes after the load start a new buffer (`add` grows by copying): the snapshot's bytes are never written.
    labels.starts = GrowableUint32.withRoom(starts);
    labels.hashes = GrowableUint32.zeroed(count);
    labels.table = new Int32Array(tableSizeFor(count + 1, SLOTS_PER_VALUE, MIN_TABLE));
    for (let id = 0; id < count; id++) {
      let hash: number;
      // A lowercase ASCII label is its own normalised value: hashed from its bytes, no string made.
      if (isLowerAsciiBytes(labels.bytes, starts[id], starts[id + 1])) hash = hashBytes(labels.bytes, starts[id + 1], starts[id]);
      else {
        const key = normalizeText(labels.decode(id));
        labels.normalised.set(id, key);
        hash = hashText(key);
      }
      labels.hashes.data[id] = hash;
      labels.insert(id, hash);
    }
    return labels;
  }

  /** A label of a snapshot, in id order: distinct normalised values, as they were saved. */
  private addLoaded(label: string): void {
    const key = normalizeText(label);
    if (this.idOf(key) !== undefined) throw createEngineError('INVALID_SNAPSHOT', 'duplicate facet value');
    this.add(label, key);
  }
}

/** Not ASCII, or an upper-case letter: a code whose text normalises to something else. */
function changedByNormalising(code: number): boolean {
  return code > 0x7f || (code >= 0x41 && code <= 0x5a);
}

function isLowerAsciiText(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (changedByNormalising(text.charCodeAt(i))) return false;
  return true;
}

function isLowerAsciiBytes(bytes: Uint8Array, from: number, end: number): boolean {
  for (let i = from; i < end; i++) if (changedByNormalising(bytes[i])) return false;
  return true;
}
