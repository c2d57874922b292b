/**
 * Writing one snapshot folder: its engine files come from a replica (a search thread writes them from its copy,
 * answering searches between slices of that work) when one can take it, else they are written here the same
 * way; then the manifest is written and the folder renamed into place. What the snapshot means for the log (the position
 * recorded, the log trimmed, old folders pruned) is the Store's.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { IndexRegistry } from './registry.ts';
import type { SnapshotCapture } from './replica.ts';
import { commitSnapshotFolder, createSnapshotFolder, engineFilesOf, readRecordsBack, SNAPSHOTS_DIR, writeSnapshotFiles } from './snapshot.ts';

/** A replica that writes snapshots, and a promise that resolves once it can take one (or none will). */
export interface SnapshotDelegate {
  capture: SnapshotCapture;
  available?: () => Promise<void>;
}

export interface SnapshotFolderSource {
  dataDir: string;
  registry: IndexRegistry;
  /** Asked at each step: a replica set or unset meanwhile is taken into account. */
  delegate(): SnapshotDelegate | null;
  /** The last operation applied here: the snapshot's position. */
  appliedSeq(): number;
  /** Holds back the publication of tasks after `seq` while a replica writes; returns the release (idempotent). */
  holdPublication(seq: number): () => void;
  /** The snapshot's position is fixed (called again if the replica failed and it is captured here instead). */
  started(): void;
  /** Holds the applying of operations here; returns the release (idempotent). */
  holdApplying(): () => void;
}

/** Writes and commits a snapshot folder; resolves with the position it holds. */
export async function writeSnapshotFolder(source: SnapshotFolderSource): Promise<number> {
  let dir = await createSnapshotFolder(source.dataDir);
  let written: { seq: number; manifest: string } | undefined;
  // A replica starting (a restart) loads as fast as this thread: waiting for it spares this thread the capture.
  await source.delegate()?.available?.();
  source.started();
  const delegate = source.delegate();
  // This thread's engines as of the snapshot's position, when a replica writes it: once it is in place, they read
  // their records from its files too.
  let stamps: ReturnType<IndexRegistry['recordStamps']> | undefined;
  if (delegate) {
    // The position is taken now, after the folder exists: the replica has received every operation up to it.
    const seq = source.appliedSeq();
    // (None without records here: the search threads hold them.)
    stamps = source.registry.recordsHere ? source.registry.recordStamps() : undefined;
    const release = source.holdPublication(seq);
    try {
      written = { seq, manifest: await delegate.capture(seq, dir, release) };
    } catch {
      // No replica could take it (none ready, or it died): take it here, at wherever the state is now, in a
      // clean folder (the replica may have left a file behind).
      await rm(dir, { recursive: true, force: true });
      dir = await createSnapshotFolder(source.dataDir);
      source.started();
      stamps = undefined;
    } finally {
      release();
    }
  }
  if (written === undefined) {
    // Written here from the live indexes, in slices between requests as a search thread does, rather than
    // captured whole in one synchronous step (seconds at a million records, nothing answered meanwhile):
    // operations wait until every byte is handed to the system. A batch applied in steps is finished first:
    // the snapshot holds whole operations, at the position it names.
    source.registry.finishPendingWrite();
    const seq = source.appliedSeq();
    const resume = source.holdApplying();
    try {
      written = { seq, manifest: await writeSnapshotFiles(source.registry, seq, dir, resume) };
    } finally {
      resume();
    }
  }
  await commitSnapshotFolder(source.dataDir, dir, written.seq, written.manifest);
  if (stamps !== undefined) {
    const folder = join(source.dataDir, SNAPSHOTS_DIR, String(written.seq));
    const files = [...engineFilesOf(written.manifest)].flatMap(([name, file]) => {
      const stamped = stamps!.get(name);
      return stamped === undefined ? [] : [{ ...stamped, path: join(folder, file), writtenHere: false }];
    });
    void readRecordsBack(files);
  }
  return written.seq;
}
