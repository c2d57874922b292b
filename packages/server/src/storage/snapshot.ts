/**
 * Snapshots: the whole in-memory state at one log position, in `snapshots/<seq>/` — a `manifest.json` (every
 * index's settings, synonyms, timestamps, replica relations) and one engine snapshot (`saveSnapshot()`) per index
 * owning records. Written to a temporary folder, fsync'ed file by file, then renamed into place: a crash leaves
 * either the previous snapshot or the new one, never a torn one.
 */
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { EngineError, loadSnapshot, SearchIndex } from '@vitrine/engine';
import type { IndexRecord, IndexSettings, SynonymHit } from '@vitrine/protocol';
import { engineSettings, IndexRegistry } from './registry.ts';

export const SNAPSHOTS_DIR = 'snapshots';

interface ManifestIndex {
  name: string;
  createdAt: string;
  updatedAt: string;
  settings: IndexSettings;
  synonyms: SynonymHit[];
  virtual: boolean;
  /** File of the engine snapshot, absent for replicas. */
  engineFile?: string;
  /**
   * `engine`: the engine's binary snapshot (fast to load); `records`: the records as JSON lines and the index
   * rebuilt on load, used when the engine cannot snapshot (slower to load, same content).
   */
  engineFormat?: 'engine' | 'records';
}
interface Manifest {
  format: 1;
  seq: number;
  indexes: ManifestIndex[];
}

/** A snapshot's content, taken synchronously (a consistent view), written to disk afterwards. */
export interface CapturedSnapshot {
  seq: number;
  manifest: string;
  files: Array<{ name: string; data: Uint8Array | string }>;
}

/**
 * Copies what a snapshot needs out of the live state, synchronously, so that operations applied while the
 * files are being written do not leak into it.
 */
export function captureSnapshot(registry: IndexRegistry, seq: number): CapturedSnapshot {
  const manifest: Manifest = { format: 1, seq, indexes: [] };
  const files: CapturedSnapshot['files'] = [];
  let fileNo = 0;
  for (const entry of registry.all()) {
    const item: ManifestIndex = {
      name: entry.name,
      createdAt: entry.createdAt,
      updatedAt: entry.updatedAt,
      settings: entry.settings,
      synonyms: [...entry.synonyms.values()],
      virtual: entry.virtual,
    };
    if (entry.engine) {
      const n = fileNo++;
      let bytes: Uint8Array | undefined;
      try {
        bytes = entry.engine.saveSnapshot();
      } catch (error) {
        if (!(error instanceof EngineError)) throw error;
      }
      if (bytes) {
        item.engineFile = `index-${n}.bin`;
        item.engineFormat = 'engine';
        files.push({ name: item.engineFile, data: bytes });
      } else {
        item.engineFile = `index-${n}.ndjson`;
        item.engineFormat = 'records';
        const lines: string[] = [];
        for (const record of entry.engine.records()) lines.push(JSON.stringify(record));
        files.push({ name: item.engineFile, data: lines.join('\n') });
      }
    }
    manifest.indexes.push(item);
  }
  return { seq, manifest: JSON.stringify(manifest), files };
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

/**
 * Writes a captured snapshot to `snapshots/<seq>/`: into a temporary folder, every file fsync'ed, then renamed
 * into place. Asynchronous: searches and writes go on meanwhile.
 */
export async function writeSnapshot(dataDir: string, snapshot: CapturedSnapshot): Promise<void> {
  const root = join(dataDir, SNAPSHOTS_DIR);
  await mkdir(root, { recursive: true });
  const tmp = join(root, `${snapshot.seq}.tmp`);
  await rm(tmp, { recursive: true, force: true });
  await mkdir(tmp);
  for (const file of snapshot.files) await writeDurably(join(tmp, file.name), file.data);
  await writeDurably(join(tmp, 'manifest.json'), snapshot.manifest);
  await fsyncDir(tmp);
  const final = join(root, String(snapshot.seq));
  await rm(final, { recursive: true, force: true });
  await rename(tmp, final);
  await fsyncDir(root);
}

export function readSnapshot(dataDir: string, seq: number): IndexRegistry {
  const dir = join(dataDir, SNAPSHOTS_DIR, String(seq));
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
  if (manifest.format !== 1 || manifest.seq !== seq) throw new Error(`snapshot ${seq}: unexpected manifest`);
  const registry = new IndexRegistry();
  for (const item of manifest.indexes) {
    registry.set({
      name: item.name,
      createdAt: item.createdAt,
      updatedAt: item.updatedAt,
      settings: item.settings,
      synonyms: new Map(item.synonyms.map((hit) => [hit.objectID, hit])),
      engine: item.engineFile ? loadEngine(join(dir, item.engineFile), item) : undefined,
      virtual: item.virtual,
    });
  }
  return registry;
}

function loadEngine(path: string, item: ManifestIndex): SearchIndex {
  if (item.engineFormat !== 'records') return loadSnapshot(new Uint8Array(readFileSync(path)));
  const engine = new SearchIndex(engineSettings(item.settings));
  const text = readFileSync(path, 'utf8');
  if (text !== '') engine.saveObjects(text.split('\n').map((line) => JSON.parse(line) as IndexRecord));
  engine.setSynonyms(item.synonyms);
  return engine;
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
