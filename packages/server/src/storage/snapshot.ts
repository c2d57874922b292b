/**
 * Snapshots: the whole in-memory state at one log position, in `snapshots/<seq>/` — a `manifest.json` (every
 * index's settings, synonyms, timestamps, replica relations; the Recommend rules) and one engine snapshot
 * (`saveSnapshot()`) per index owning records. Written to a temporary folder, fsync'ed file by file, then renamed into place: a crash leaves
 * either the previous snapshot or the new one, never a torn one.
 *
 * The folder is filled by `writeSnapshotFiles`, streaming from the indexes' own arrays in slices between
 * requests (on a search thread, or on the main thread when none can), the operations arriving meanwhile held.
 */
import { existsSync, readdirSync, rmSync, writeSync } from 'node:fs';
import { link, mkdir, mkdtemp, open, readFile, rename, rm } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { loadSnapshot, SearchIndex, snapshotLayout } from '@vitrine/engine';
import type { DictionaryState, RecordsStamp, SectionPlacement, SnapshotBytes, SnapshotOptions } from '@vitrine/engine';
import type { IndexRecord, IndexSettings, Rule, SynonymHit } from '@vitrine/protocol';
import type { ManifestRecommendRules } from './recommend-rules.ts';
import { engineSettings, IndexRegistry, type IndexEntry } from './registry.ts';
import { readRecordsFromFile, SnapshotRecordFile } from './snapshot-records.ts';

export const SNAPSHOTS_DIR = 'snapshots';

export interface ManifestIndex {
  name: string;
  createdAt: string;
  updatedAt: string;
  settings: IndexSettings;
  synonyms: SynonymHit[];
  /** Absent in snapshots written before rules existed. */
  rules?: Rule[];
  virtual: boolean;
  /** File of the engine snapshot, absent for replicas. */
  engineFile?: string;
  /**
   * `engine`: the engine's binary snapshot, what is written; `records`: the records as JSON lines and the index
   * rebuilt on load (slower, same content), which the first snapshots could hold and which still loads.
   */
  engineFormat?: 'engine' | 'records';
  /** Records the engine held at the snapshot's position (what a backup reports); absent in earlier snapshots. */
  records?: number;
}
export interface Manifest {
  format: 1;
  seq: number;
  indexes: ManifestIndex[];
  /** The application's dictionaries; absent in snapshots written before they existed. */
  dictionaries?: DictionaryState;
  /** Recommend rules by index name and model; absent in snapshots written before they existed. */
  recommendRules?: ManifestRecommendRules[];
}

/**
 * Where each engine's file was last written (its path once its snapshot is in place), the engine's
 * `contentVersion` then and the replicas' customRanking orders it holds (`snapshotOptions`, as JSON). An index
 * unchanged since, with the same replicas' orders, is linked into the next snapshot, not written again: an import
 * into one index no longer rewrites every other index at each snapshot. Per thread: each writes its own.
 */
const lastWritten = new WeakMap<SearchIndex, { path: string; version: number; orders: string }>();

/** The file of an earlier snapshot that holds this engine as it is now, if it still exists. */
function reusableFile(engine: SearchIndex, options: SnapshotOptions): string | undefined {
  const last = lastWritten.get(engine);
  return last !== undefined && last.version === engine.contentVersion && last.orders === JSON.stringify(options) && existsSync(last.path) ? last.path : undefined;
}

/**
 * What the engine snapshot of `entry` (an index owning records) holds besides the index: the customRanking order
 * of each replica searching its records with a customRanking of its own (virtual replicas sort by it; standard
 * ones break ties by it), so that a restart does not sort them again (7 s for one at a million products).
 */
function snapshotOptions(registry: IndexRegistry, entry: IndexEntry): SnapshotOptions {
  const customRankings: unknown[] = [];
  for (const other of registry.all()) {
    if (other.engine !== undefined || registry.primaryOf(other) !== entry) continue;
    const customRanking = registry.searchSettingsOf(other)?.customRanking;
    if (customRanking !== undefined && !customRankings.some((list) => JSON.stringify(list) === JSON.stringify(customRanking))) customRankings.push(customRanking);
  }
  return { customRankings };
}

/** `name` in the folder `dir` once it is renamed to `snapshots/<seq>/` (`commitSnapshotFolder`). */
function finalPath(dir: string, seq: number, name: string): string {
  return join(dirname(dir), String(seq), name);
}

/** Links an earlier snapshot's file into `dir`; false if it is gone (pruned meanwhile, or never committed). */
async function linkInto(from: string, to: string): Promise<boolean> {
  try {
    await link(from, to);
    return true;
  } catch {
    return false;
  }
}

/** The manifest of a snapshot of `registry`, and the engine of each index owning records with its file's name. */
function describeSnapshot(registry: IndexRegistry, seq: number): { manifest: Manifest; engines: Array<{ item: ManifestIndex; engine: SearchIndex; options: SnapshotOptions }> } {
  const manifest: Manifest = { format: 1, seq, indexes: [], dictionaries: registry.dictionaries.state, recommendRules: registry.recommendRules.toManifest() };
  const engines: Array<{ item: ManifestIndex; engine: SearchIndex; options: SnapshotOptions }> = [];
  for (const entry of registry.all()) {
    const item: ManifestIndex = {
      name: entry.name,
      createdAt: entry.createdAt,
      updatedAt: entry.updatedAt,
      settings: entry.settings,
      synonyms: [...entry.synonyms.values()],
      rules: [...entry.rules.values()],
      virtual: entry.virtual,
    };
    if (entry.engine) {
      item.engineFile = `index-${engines.length}.bin`;
      item.engineFormat = 'engine';
      item.records = entry.engine.size;
      engines.push({ item, engine: entry.engine, options: snapshotOptions(registry, entry) });
    }
    manifest.indexes.push(item);
  }
  return { manifest, engines };
}

/**
 * Work done per turn of the event loop while a search thread writes a snapshot or catches up after one: a search
 * arriving meanwhile waits at most about this long behind it.
 */
export const SNAPSHOT_SLICE_MS = 8;
/**
 * The longest a snapshot waits for searches between two slices. Searches answered between every slice of a
 * snapshot were slowed by each (the first searches after a crash, 50–110 ms for a 10 ms search at a million
 * products); giving way entirely would let a busy shop's snapshot never end.
 */
export const SNAPSHOT_GIVE_WAY_MS = 50;

const nextTurn = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));

/** When a snapshot lets searches go first: while `searchesWaiting()`, for up to `giveWayMs` before a slice. */
export interface GiveWay {
  searchesWaiting?: () => boolean;
  giveWayMs?: number;
}

/**
 * Writes the engine files of a snapshot of `registry` (after operation `seq`) into `dir` straight from the
 * indexes' arrays (`saveSnapshotInPieces`): no copy of the whole state. The pieces are written synchronously
 * (a megabyte into the page cache is a fraction of a millisecond) in slices of `SNAPSHOT_SLICE_MS`, the event
 * loop turning between slices; one asynchronous write per piece would wait behind every search queued on a busy
 * thread, and take seconds. While `searchesWaiting()`, it gives way (up to `giveWayMs` before each slice).
 * Nothing may change `registry` until `copied` is called: once, as soon as it is no longer read (every byte
 * handed to the system, or the writing failed); the files are fsync'ed after that. Resolves with the manifest.
 */
export async function writeSnapshotFiles(registry: IndexRegistry, seq: number, dir: string, copied: () => void, giveWay: GiveWay = {}): Promise<string> {
  // A registry without its records (the main thread of a server with search threads) would write empty indexes.
  if (!registry.recordsHere) {
    copied();
    throw new Error('the records are held by the search threads: one of them writes the snapshot');
  }
  const { searchesWaiting = () => false, giveWayMs = SNAPSHOT_GIVE_WAY_MS } = giveWay;
  const { manifest, engines } = describeSnapshot(registry, seq);
  const handles: FileHandle[] = [];
  // Each engine's records are read back from its file once it is on disk, rather than kept in memory.
  const readBack: RecordsFile[] = [];
  let reading = true;
  const done = (): void => {
    if (reading) copied();
    reading = false;
  };
  try {
    for (const { item, engine, options } of engines) {
      const path = join(dir, item.engineFile!);
      const written = { path: finalPath(dir, seq, item.engineFile!), version: engine.contentVersion, orders: JSON.stringify(options) };
      const reuse = reusableFile(engine, options);
      if (reuse !== undefined && (await linkInto(reuse, path))) {
        lastWritten.set(engine, written);
        readBack.push({ engine, stamp: engine.recordsStamp(), path, writtenHere: false });
        continue;
      }
      readBack.push({ engine, stamp: engine.recordsStamp(), path, writtenHere: true });
      const handle = await open(path, 'w', 0o600);
      handles.push(handle);
      let sliceStart = performance.now();
      for (const piece of engine.saveSnapshotInPieces(options)) {
        for (let at = 0; at < piece.byteLength; ) at += writeSync(handle.fd, piece, at, piece.byteLength - at);
        if (performance.now() - sliceStart < SNAPSHOT_SLICE_MS) continue;
        await nextTurn();
        // Searches go first: the snapshot gives way while some wait, taking a slice at least every
        // `giveWayMs` all the same (it must end: past the log's cap, writes wait for it).
        const givingWay = performance.now();
        while (searchesWaiting() && performance.now() - givingWay < giveWayMs) await nextTurn();
        sliceStart = performance.now();
      }
      lastWritten.set(engine, written);
    }
    done();
    for (const handle of handles) await handle.sync();
  } finally {
    done();
    for (const handle of handles) await handle.close();
  }
  // Not awaited: the snapshot is complete; reading the records back only frees memory.
  void readRecordsBack(readBack);
  return JSON.stringify(manifest);
}

/** An engine, its records' stamp when its snapshot file was taken, the file, and whether this engine wrote it. */
interface RecordsFile {
  engine: SearchIndex;
  stamp: RecordsStamp;
  path: string;
  writtenHere: boolean;
}

/**
 * Has each engine read its records from its snapshot file; a file that cannot be read leaves them in memory. The
 * files are opened before it returns (their folder may be renamed or pruned right after), read after (once
 * `after` resolves, when given).
 */
export function readRecordsBack(files: RecordsFile[], after?: Promise<unknown>): Promise<void> {
  const opened: Array<Omit<RecordsFile, 'path'> & { file: SnapshotRecordFile }> = [];
  for (const { path, ...rest } of files) {
    try {
      opened.push({ ...rest, file: new SnapshotRecordFile(path) });
    } catch (error) {
      console.error(`records of ${path} kept in memory:`, error);
    }
  }
  return (async () => {
    await after;
    for (const { engine, stamp, file, writtenHere } of opened) {
      try {
        await readRecordsFromFile(engine, stamp, file, { writtenHere });
      } catch (error) {
        console.error(`records of ${file.path} kept in memory:`, error);
      }
    }
  })();
}

/** The engine file of each index of a snapshot's manifest (`writeSnapshotFiles`' answer), by index name. */
export function engineFilesOf(manifest: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const item of (JSON.parse(manifest) as Manifest).indexes) if (item.engineFile !== undefined) files.set(item.name, item.engineFile);
  return files;
}

async function writeDurably(path: string, data: Uint8Array | string): Promise<void> {
  const handle = await open(path, 'w', 0o600);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function fsyncDir(path: string): Promise<void> {
  // Makes renames durable; some platforms refuse fsync on directories, where rename is durable anyway.
  try {
    const handle = await open(path, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    /* not supported here */
  }
}

/** A new, empty temporary folder for a snapshot's files, under `snapshots/` (pruned with the old snapshots). */
export async function createSnapshotFolder(dataDir: string): Promise<string> {
  const root = join(dataDir, SNAPSHOTS_DIR);
  await mkdir(root, { recursive: true });
  return mkdtemp(join(root, 'tmp-'));
}

/**
 * Makes the snapshot whose files are in `dir` current: its manifest written and fsync'ed, the folder renamed
 * to `snapshots/<seq>/`. Asynchronous: searches and writes go on meanwhile.
 */
export async function commitSnapshotFolder(dataDir: string, dir: string, seq: number, manifest: string): Promise<void> {
  await writeDurably(join(dir, 'manifest.json'), manifest);
  await fsyncDir(dir);
  const root = join(dataDir, SNAPSHOTS_DIR);
  const final = join(root, String(seq));
  await rm(final, { recursive: true, force: true });
  await rename(dir, final);
  await fsyncDir(root);
}

/**
 * Loads snapshot `seq` into `registry` (empty). Files are read asynchronously, each engine restored in one
 * synchronous step: the event loop turns between files (a server loading answers `/1/isalive` meanwhile).
 */
export async function readSnapshot(dataDir: string, seq: number, registry = new IndexRegistry(), { recordsFromFilesAfter }: { recordsFromFilesAfter?: Promise<unknown> } = {}): Promise<IndexRegistry> {
  const dir = join(dataDir, SNAPSHOTS_DIR, String(seq));
  const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as Manifest;
  if (manifest.format !== 1 || manifest.seq !== seq) throw new Error(`snapshot ${seq}: unexpected manifest`);
  // Each engine as loaded (its stamp taken before the log's replay changes it) and its file: once the caller is
  // ready (`recordsFromFilesAfter`), the records unchanged since are read from the file rather than kept in
  // memory. Otherwise a restart held them until the next snapshot, which a shop with few writes may not take for
  // days.
  const loadedFiles: RecordsFile[] = [];
  // Before the indexes: each engine is given the dictionaries as it is added.
  if (manifest.dictionaries) registry.setDictionaryState(manifest.dictionaries);
  registry.recommendRules.load(manifest.recommendRules);
  for (const item of manifest.indexes) {
    const synonyms = new Map(item.synonyms.map((hit) => [hit.objectID, hit]));
    const rules = new Map((item.rules ?? []).map((rule) => [rule.objectID, rule]));
    let engine: SearchIndex | undefined;
    // Without records here (search threads hold them), only what checks writes: settings, synonyms, rules.
    if (item.engineFile) engine = registry.recordsHere ? await loadEngine(join(dir, item.engineFile), item, loadedFiles) : registry.emptyEngine({ settings: item.settings, synonyms, rules });
    registry.set({ name: item.name, createdAt: item.createdAt, updatedAt: item.updatedAt, settings: item.settings, synonyms, rules, engine, virtual: item.virtual });
  }
  if (recordsFromFilesAfter !== undefined) void readRecordsBack(loadedFiles, recordsFromFilesAfter);
  // The next snapshot links each file while its index stays as loaded, if the file holds what a snapshot written
  // now would: one without the customRanking orders (written before they were always kept, or before a replica
  // came) is written again, so that the start after it does not sort them.
  for (const item of manifest.indexes) {
    const entry = registry.peek(item.name);
    const engine = entry?.engine;
    const loaded = loadedFiles.find((file) => file.engine === engine);
    if (entry === undefined || engine === undefined || loaded === undefined) continue;
    const options = snapshotOptions(registry, entry);
    if (engine.restoredSnapshotHolds(options)) lastWritten.set(engine, { path: loaded.path, version: engine.contentVersion, orders: JSON.stringify(options) });
  }
  return registry;
}

async function loadEngine(path: string, item: ManifestIndex, loaded: RecordsFile[]): Promise<SearchIndex> {
  if (item.engineFormat !== 'records') {
    const engine = loadSnapshot(await readSnapshotFile(path));
    loaded.push({ engine, stamp: engine.recordsStamp(), path, writtenHere: true });
    return engine;
  }
  const engine = new SearchIndex(engineSettings(item.settings));
  const text = await readFile(path, 'utf8');
  if (text !== '') engine.saveObjects(text.split('\n').map((line) => JSON.parse(line) as IndexRecord));
  engine.setSynonyms(item.synonyms);
  engine.setRules(item.rules ?? []);
  return engine;
}

/** The engine snapshot's section of records' bytes. */
const RECORDS_SECTION = 'records.blob';

/** What one read of a snapshot file asks for: a request to the I/O thread per 64 MB rather than per 512 KB. */
const READ_PIECE_BYTES = 64 << 20;

/** The file a loaded engine reads its cold sections from, closed once the engine no longer can. */
const coldFiles = new FinalizationRegistry<SnapshotRecordFile>((file) => file.close());

/**
 * A snapshot file's bytes in a buffer of their own (the engine keeps views into it: it must not be a pool's
 * slice), read in large pieces; the cold sections (the float32 vectors, read a few at a time by searches) left
 * in the file, read at an offset when the engine asks (`readAt`); the sections that writes extend (the forward index, facet columns) each into a
 * buffer with room to grow, so the replay after a crash extends them in place rather than copying 320 MB at a
 * million products. Not `readFile`: it asks for 512 KB at a time, six times slower for a million products'
 * snapshot (docs/PERFORMANCE.md, *Figures behind the code*).
 */
export async function readSnapshotFile(path: string, { apartMinBytes, headBytes = 1 << 16 }: { apartMinBytes?: number; headBytes?: number } = {}): Promise<SnapshotBytes> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    // Left unread where a section is read apart: pages never touched are never mapped.
    const bytes = new Uint8Array(Buffer.allocUnsafeSlow(size).buffer, 0, size);
    // The file's bytes [from, to) into `into`, from `into[intoStart]` on (by default, at their own offsets).
    const readRange = async (from: number, to: number, into = bytes, intoStart = from): Promise<void> => {
      for (let at = from; at < to; ) {
        const { bytesRead } = await handle.read(into, intoStart + at - from, Math.min(READ_PIECE_BYTES, to - at), at);
        if (bytesRead === 0) throw new Error(`${path}: ended after ${at} of ${size} bytes`);
        at += bytesRead;
      }
    };
    let head = Math.min(size, headBytes);
    await readRange(0, head);
    let layout = snapshotLayout(bytes.subarray(0, head), { apartMinBytes });
    while ('needBytes' in layout && layout.needBytes > head && layout.needBytes <= size) {
      await readRange(head, layout.needBytes);
      head = layout.needBytes;
      layout = snapshotLayout(bytes.subarray(0, head), { apartMinBytes });
    }
    // A header the file cannot hold: the whole file is read and the engine says what is wrong with it.
    // The records too, without room: once a snapshot after this one is on disk they are read from it, and their
    // memory is freed only if no other section shares their buffer (`snapshot-records.ts`).
    const readApart = (section: SectionPlacement) => section.roomBytes !== undefined || section.name === RECORDS_SECTION;
    const apartSections = 'sections' in layout ? layout.sections.filter((section) => (readApart(section) || section.cold === true) && section.to <= size) : [];
    const apart = new Map<string, Uint8Array>();
    let readAt: SnapshotBytes['readAt'];
    let at = head;
    for (const section of apartSections.sort((a, b) => a.from - b.from)) {
      if (section.cold === true && !readApart(section)) {
        if (section.from > at) await readRange(at, section.from);
        at = Math.max(at, section.to);
        if (readAt === undefined) {
          const file = new SnapshotRecordFile(path);
          readAt = (from, into) => void file.read(from, into.byteLength, into);
          coldFiles.register(readAt, file);
        }
        continue;
      }
      const own = new Uint8Array(section.roomBytes ?? section.to - section.from);
      // What the first read holds of it (a small file, a large header) is copied; the rest is read into it.
      if (section.from < at) own.set(bytes.subarray(section.from, Math.min(section.to, at)));
      else await readRange(at, section.from);
      const rest = Math.max(at, section.from);
      if (section.to > rest) await readRange(rest, section.to, own, rest - section.from);
      apart.set(section.name, own);
      at = Math.max(at, section.to);
    }
    await readRange(at, size);
    return { bytes, apart, ...(readAt === undefined ? {} : { readAt }) };
  } finally {
    await handle.close();
  }
}

/** Removes every snapshot folder but `keep` (older snapshots and leftovers of interrupted writes). */
export function pruneSnapshots(dataDir: string, keep: number | undefined): void {
  const root = join(dataDir, SNAPSHOTS_DIR);
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return;
  }
  for (const name of names) if (name !== String(keep)) rmSync(join(root, name), { recursive: true, force: true });
}
