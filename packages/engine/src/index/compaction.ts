/**
 * Compaction a little at a time: the live records of a store full of tombstones are copied into a fresh one a
 * few at a time, while the old store keeps answering; once every record is across, the owner swaps them.
 *
 * Why: writes append (a replaced record gets a new id), so a catalogue whose stock or prices change all day
 * fills with tombstones, and the store is rebuilt once they outnumber the live records. Rebuilt in one go,
 * that froze every search for the whole rebuild — 2.4 s at 100,000 products, about 30 s at a million — and,
 * on the server, the main thread's copy froze HTTP too. Copied in steps, the same work is spread over the
 * writes and searches that follow (`SearchIndex` decides how many records each of them copies).
 *
 * Writes during the copy go to the old store as usual. A replaced record's new version is appended to the old
 * store after the cursor, so it is copied when the cursor gets there, replacing the earlier copy by objectID;
 * a deleted one must be forgotten (`forget`), or its copy would stay; one changed in place (same id) and
 * already copied is changed in place in the copy too (`replacedInPlace`). Copies themselves never replace in
 * place: an earlier copy is replaced by appending, as the old store did. Records keep their relative order,
 * so ties broken by id break the same way in both stores.
 */
import { GrowableUint32 } from '../structures/growable.ts';
import type { IndexRecord } from '@vitrine/protocol';
import type { IndexStore } from './store.ts';

export class Compaction {
  /** The next old id to copy. */
  private cursor = 0;
  /** New id + 1 of each old id copied (0: not copied). */
  private readonly newIds = new GrowableUint32(1024);

  constructor(
    readonly old: IndexStore,
    readonly next: IndexStore,
  ) {}

  /** `objectID` is being deleted from the old store: drop its copy, if made. */
  forget(objectID: string): void {
    this.next.remove(objectID);
  }

  /** `record` replaced old id `doc` in place: its copy, if made, changes in place too. */
  replacedInPlace(doc: number, record: IndexRecord): void {
    if (this.newIdOf(doc) >= 0) this.next.upsert(record);
  }

  /** Copies up to `records` live records; true once every record of the old store is across. */
  copy(records: number): boolean {
    const { old, next } = this;
    let copied = 0;
    while (this.cursor < old.capacity && copied < records) {
      const doc = this.cursor++;
      if (!old.isLive(doc)) continue;
      const record = old.records.get(doc);
      if (record === undefined) continue;
      const id = next.upsert(record, false);
      this.newIds.reserve(doc + 1);
      if (this.newIds.length <= doc) this.newIds.length = doc + 1;
      this.newIds.data[doc] = id + 1;
      copied++;
    }
    return this.cursor >= old.capacity;
  }

  /** The new id of an old one, or -1 when it was not copied. */
  newIdOf(oldDoc: number): number {
    return oldDoc < this.newIds.length ? this.newIds.data[oldDoc] - 1 : -1;
  }
}
