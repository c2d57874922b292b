/**
 * The records by internal id. Records restored from a snapshot stay as UTF-8 JSON in one byte blob and are
 * parsed one by one when first read (a page of hits reads 20 of a million): loading does not pay for parsing
 * every record, and unread records cost bytes, not heap objects for the garbage collector to trace.
 */
import type { IndexRecord } from '@vitrine/protocol';
import type { SnapshotReader, SnapshotWriter } from '../snapshot/format.ts';
import { createEngineError } from '../errors.ts';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
/** Marks a record still in the blob. */
const LAZY = 1;

export class RecordList {
  private items: Array<IndexRecord | undefined | typeof LAZY> = [];
  private blob: Uint8Array = new Uint8Array(0);
  private offsets: Uint32Array = new Uint32Array(1);

  get length(): number {
    return this.items.length;
  }

  get(doc: number): IndexRecord | undefined {
    const item = this.items[doc];
    if (item !== LAZY) return item;
    const record = JSON.parse(decoder.decode(this.blob.subarray(this.offsets[doc], this.offsets[doc + 1]))) as IndexRecord;
    this.items[doc] = record;
    return record;
  }

  push(record: IndexRecord): void {
    this.items.push(record);
  }

  delete(doc: number): void {
    this.items[doc] = undefined;
  }

  forEach(visit: (record: IndexRecord | undefined, doc: number) => void): void {
    for (let doc = 0; doc < this.items.length; doc++) visit(this.get(doc), doc);
  }

  *values(): IterableIterator<IndexRecord | undefined> {
    for (let doc = 0; doc < this.items.length; doc++) yield this.get(doc);
  }

  /** Every record as JSON bytes (deleted ones empty) with offsets, and the objectIDs (null when deleted). */
  save(w: SnapshotWriter): void {
    const n = this.items.length;
    const offsets = new Uint32Array(n + 1);
    let blob: Uint8Array = new Uint8Array(1 << 20);
    let used = 0;
    const ids: Array<string | null> = new Array(n);
    for (let doc = 0; doc < n; doc++) {
      const item = this.items[doc];
      if (item === LAZY) {
        // Still in the loaded blob: copy its bytes as they are.
        const bytes = this.blob.subarray(this.offsets[doc], this.offsets[doc + 1]);
        blob = ensure(blob, used + bytes.length);
        blob.set(bytes, used);
        used += bytes.length;
        ids[doc] = null;
      } else if (item !== undefined) {
        const json = JSON.stringify(item);
        blob = ensure(blob, used + json.length * 3);
        used += encoder.encodeInto(json, blob.subarray(used)).written;
        ids[doc] = item.objectID;
      } else ids[doc] = null;
      offsets[doc + 1] = used;
    }
    // Lazy records' ids are read from their bytes only here, at save time.
    for (let doc = 0; doc < n; doc++) if (this.items[doc] === LAZY) ids[doc] = this.get(doc)!.objectID;
    w.json('records.ids', ids);
    w.u32('records.offsets', offsets);
    w.u32('records.blob', padded(blob.subarray(0, used)));
    w.json('records.blobLength', used);
  }

  /** Restores records lazily; returns the list and the objectID of each id (null when deleted). */
  static load(r: SnapshotReader): { list: RecordList; ids: Array<string | null> } {
    const ids = r.json<Array<string | null>>('records.ids');
    const offsets = r.u32('records.offsets');
    const used = r.json<number>('records.blobLength');
    const words = r.u32('records.blob');
    if (!Array.isArray(ids) || offsets.length !== ids.length + 1 || !Number.isInteger(used) || used > words.byteLength || offsets[ids.length] !== used) {
      throw createEngineError('INVALID_SNAPSHOT', 'records');
    }
    const list = new RecordList();
    list.blob = new Uint8Array(words.buffer, words.byteOffset, used);
    list.offsets = offsets;
    list.items = ids.map((id) => (id === null ? undefined : LAZY));
    return { list, ids };
  }
}

function ensure(blob: Uint8Array, size: number): Uint8Array {
  if (size <= blob.length) return blob;
  const grown = new Uint8Array(Math.max(size, blob.length * 2));
  grown.set(blob);
  return grown;
}

/** Bytes viewed as 32-bit words (zero-padded to a multiple of 4), for the u32 section type. */
function padded(bytes: Uint8Array): Uint32Array {
  const out = new Uint8Array((bytes.length + 3) & ~3);
  out.set(bytes);
  return new Uint32Array(out.buffer);
}
