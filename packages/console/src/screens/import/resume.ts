/**
 * Where an interrupted import can pick up: per file (name and size), the last line (in a JSON array, element) the
 * server acknowledged, in this tab's sessionStorage. Acknowledged writes are durable on the server, so every line
 * up to it is in.
 */
export interface ResumePoint {
  indexName: string;
  mode: ImportMode;
  /** The index written to: the target itself (upsert) or the temporary index of a replace-all. */
  writeIndex: string;
  /** The last line read, or in a JSON array the last element (several may share a line). */
  lastLine: number;
  imported: number;
  errors: ImportError[];
  /** The counts as of `lastLine` (absent in points written before counts were kept). */
  counts?: ImportCounts;
}

/** What became of a file's lines: `read` = `accepted` + `rejected` once the import has finished. */
export interface ImportCounts {
  /** Records and unreadable lines (or JSON array elements) met in the file. */
  read: number;
  /** Records that passed the reader's checks and were sent to the server. */
  sent: number;
  /** Records the server acknowledged. */
  accepted: number;
  /** Lines that could not be read plus records the server refused. */
  rejected: number;
}

export type ImportMode = 'upsert' | 'replace';

/** A rejected record: the line where it starts and, in a JSON array, its element's number. */
export interface ImportError {
  line: number;
  element?: number;
  reason: string;
}

const prefix = 'vitrine.console.import:';

export function resumeKey(file: { name: string; size: number }): string {
  return `${prefix}${file.size}:${file.name}`;
}

export function readResumePoint(file: { name: string; size: number }): ResumePoint | undefined {
  try {
    const raw = sessionStorage.getItem(resumeKey(file));
    return raw ? (JSON.parse(raw) as ResumePoint) : undefined;
  } catch {
    return undefined;
  }
}

export function writeResumePoint(file: { name: string; size: number }, point: ResumePoint | undefined): void {
  try {
    if (point) sessionStorage.setItem(resumeKey(file), JSON.stringify(point));
    else sessionStorage.removeItem(resumeKey(file));
  } catch {
    // Without sessionStorage an import can't be resumed, only restarted.
  }
}
