/**
 * Records read back from snapshot files instead of held in memory. Once an engine file is written and fsync'ed,
 * every copy of that index (the thread that wrote it, the main thread, another search thread) points each record
 * unchanged since the snapshot's position at the file's records section and frees the memory it took
 * (`SearchIndex.readRecordsFrom`): in memory stay only the records written since the last snapshot. A page of
 * hits then reads its 20 records from the page cache (a `pread` each); a snapshot copies the records it did not
 * write from the previous file.
 *
 * Why: during a 100 MB import the server held the imported records twice (100 MB in the main thread's engine,
 * as much in the search thread's), both growing with the catalogue, for records read 20 at a time
 * (docs/PERFORMANCE.md, import through the console). Rejected: a records table in SQLite (a second write of
 * every record, and a lookup per hit through the database's cache); memory-mapped files (Node has no `mmap`, and
 * the pages read would count in the process's memory anyway).
 *
 * The file stays open while any record is read from it: a file pruned with its snapshot folder stays readable
 * (and its disk space taken) until the next snapshot takes over, or the engine is dropped.
 */
import { closeSync, fstatSync, openSync, read, readSync } from 'node:fs';
import { promisify } from 'node:util';
import { snapshotLayout } from '@vitrine/engine';
import type { RecordSource, RecordsStamp, SearchIndex } from '@vitrine/engine';

const readAsync = promisify(read);

/**
 * A snapshot file's records section, read with synchronous `pread`s (the engine's reads are synchronous). Opened
 * at once: the file may be renamed (its folder committed) or pruned right after, and stays readable through it.
 */
export class SnapshotRecordFile implements RecordSource {
  private fd: number | null;
  /** Where the records section starts in the file (`readRecordsFromFile` finds it). */
  sectionStart = 0;

  constructor(readonly path: string) {
    this.fd = openSync(path, 'r');
  }

  /** `length` bytes from `from` in the file, in a buffer of its own, 8-byte aligned (u32 sections are viewed in place). */
  async readAt(from: number, length: number): Promise<Uint8Array> {
    const bytes = new Uint8Array(new ArrayBuffer((length + 7) & ~7), 0, length);
    for (let at = 0; at < length; ) {
      if (this.fd === null) throw new Error('snapshot file closed');
      const { bytesRead } = await readAsync(this.fd, bytes, at, length - at, from + at);
      if (bytesRead === 0) throw new Error(`${this.path}: ended at byte ${from + at}`);
      at += bytesRead;
    }
    return bytes;
  }

  get size(): number {
    return this.fd === null ? 0 : fstatSync(this.fd).size;
  }

  read(start: number, length: number, into?: Uint8Array): Uint8Array {
    if (this.fd === null) throw new Error('records read from a closed snapshot file');
    const bytes = into === undefined ? new Uint8Array(length) : into.subarray(0, length);
    for (let at = 0; at < length; ) {
      const read = readSync(this.fd, bytes, at, length - at, this.sectionStart + start + at);
      if (read === 0) throw new Error(`snapshot file ended before record bytes ${start}–${start + length}`);
      at += read;
    }
    return bytes;
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}

/** The sections of a snapshot file that `readRecordsFromFile` needs: where they are, read whole where small. */
async function readRecordSections(file: SnapshotRecordFile, withIds: boolean): Promise<{ blobStart: number; offsets: Uint32Array; ids?: { offsets: Uint32Array; bytes: Uint8Array } } | null> {
  let layout = snapshotLayout(await file.readAt(0, Math.min(file.size, 1 << 16)));
  // A header longer than the first read: read once more, whole.
  if ('needBytes' in layout) layout = snapshotLayout(await file.readAt(0, layout.needBytes));
  if ('needBytes' in layout) return null;
  const { sections } = layout;
  const section = (name: string) => sections.find((placement) => placement.name === name);
  const u32 = async (from: number, to: number) => new Uint32Array((await file.readAt(from, to - from)).buffer, 0, (to - from) / 4);
  const blob = section('records.blob');
  const offsetsAt = section('records.offsets');
  if (blob === undefined || offsetsAt === undefined) return null;
  const offsets = await u32(offsetsAt.from, offsetsAt.to);
  if (offsets.length === 0 || offsets[offsets.length - 1] > blob.to - blob.from) return null;
  if (!withIds) return { blobStart: blob.from, offsets };
  const idOffsetsAt = section('records.idOffsets');
  const idBytesAt = section('records.idBytes');
  if (idOffsetsAt === undefined || idBytesAt === undefined) return null;
  const idOffsets = await u32(idOffsetsAt.from, idOffsetsAt.to);
  const idBytes = await file.readAt(idBytesAt.from, idBytesAt.to - idBytesAt.from);
  if (idOffsets.length === 0 || idOffsets[idOffsets.length - 1] > idBytes.length) return null;
  return { blobStart: blob.from, offsets, ids: { offsets: idOffsets, bytes: idBytes } };
}

/**
 * Has `engine` read from the snapshot `file` (of this index, written at `stamp`) every record unchanged since.
 * `writtenHere`: the file was written from this very engine (its internal ids are the file's); otherwise
 * (the file of another copy, or linked from an earlier snapshot) only records with the same objectID under the
 * same internal id are read from it. Returns how many records are; none, and nothing changed, when the file is
 * not one it can read.
 */
export async function readRecordsFromFile(engine: SearchIndex, stamp: RecordsStamp, file: SnapshotRecordFile, { writtenHere }: { writtenHere: boolean }): Promise<number> {
  let sections;
  try {
    sections = await readRecordSections(file, !writtenHere);
  } catch (error) {
    file.close();
    throw error;
  }
  if (sections === null) {
    file.close();
    return 0;
  }
  file.sectionStart = sections.blobStart;
  return engine.readRecordsFrom(stamp, { offsets: sections.offsets, source: file, ids: sections.ids });
}
