import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { CliError, messageOf } from '../errors.ts';

/**
 * Where the sync of one index stands. Steps run in this order; each is safe to run again after a crash, so a
 * resumed sync repeats at most the step (or the page of records) that was under way.
 */
export type SyncStep = 'content' | 'records' | 'move' | 'replicas' | 'done';

export interface IndexProgress {
  step: SyncStep;
  /** The destination's temporary index that receives everything before it is moved over the real one. */
  temporary: string;
  /** The source's browse cursor after the last page the destination acknowledged; absent at the start. */
  cursor?: string;
  /** Records the destination acknowledged so far. */
  copied: number;
  /** The highest write task answered on the temporary index, waited for before the move. */
  lastTaskID?: number;
}

interface StateFile {
  version: 1;
  /** Which application the state belongs to (app id and URL, never a key): another destination starts over. */
  destination: string;
  runId: string;
  indices: Array<[string, IndexProgress]>;
}

/**
 * The resumable state of a sync, kept in a JSON file rewritten (write then rename, so a crash leaves the old or
 * the new file, never half of one) after every step and every acknowledged page of records.
 */
export class SyncState {
  private constructor(
    readonly path: string,
    readonly destination: string,
    readonly runId: string,
    // A Map, not an object: index names such as "__proto__" are only keys here.
    private readonly indices: Map<string, IndexProgress>,
  ) {}

  /** The state left by an earlier run, or undefined when there is none. */
  static read(path: string): SyncState | undefined {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      return undefined;
    }
    try {
      const file = JSON.parse(text) as StateFile;
      if (file.version !== 1 || typeof file.destination !== 'string' || !Array.isArray(file.indices)) throw new Error('unknown format');
      return new SyncState(path, file.destination, String(file.runId), new Map(file.indices));
    } catch (error) {
      throw new CliError(`The sync state file ${path} cannot be read (${messageOf(error)}): start over with --restart`);
    }
  }

  static create(path: string, destination: string): SyncState {
    return new SyncState(path, destination, randomBytes(4).toString('hex'), new Map());
  }

  /** This index's progress, created at its first step when the sync has not reached it yet. */
  progress(indexName: string): IndexProgress {
    let progress = this.indices.get(indexName);
    if (!progress) {
      progress = { step: 'content', temporary: `${indexName}_sync_tmp_${this.runId}`, copied: 0 };
      this.indices.set(indexName, progress);
    }
    return progress;
  }

  /** Indices whose temporary copy may still exist on the destination (not moved over the real one yet). */
  unfinishedTemporaries(): string[] {
    return [...this.indices.values()].filter((p) => p.step === 'content' || p.step === 'records' || p.step === 'move').map((p) => p.temporary);
  }

  save(): void {
    const file: StateFile = { version: 1, destination: this.destination, runId: this.runId, indices: [...this.indices] };
    mkdirSync(dirname(this.path), { recursive: true });
    const temporary = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(file, null, 2) + '\n', { mode: 0o600 });
    renameSync(temporary, this.path);
  }

  remove(): void {
    rmSync(this.path, { force: true });
  }
}

/** Temporary index names of any sync run: never a source index to copy. */
export const SYNC_TEMPORARY = /_sync_tmp_[0-9a-f]{8}$/;
