import { closeSync, openSync, writeSync } from 'node:fs';
import type { Position } from './sources.ts';

export interface RecordError {
  position: Position;
  objectID?: string;
  reason: string;
}

/**
 * The per-record error report: one JSON object per line (`{"position":"line 12","objectID":"42","reason":…}`),
 * written as errors happen (an import of millions of bad rows must not hold them in memory). The file is only
 * created when there is something to report.
 */
export class ErrorReport {
  private fd: number | undefined;
  private count = 0;
  /** The first few, for the summary printed at the end. */
  readonly sample: RecordError[] = [];

  constructor(readonly path: string, private readonly sampleSize = 5) {}

  add(error: RecordError): void {
    this.count++;
    if (this.sample.length < this.sampleSize) this.sample.push(error);
    this.fd ??= openSync(this.path, 'w');
    writeSync(this.fd, JSON.stringify(error) + '\n');
  }

  get size(): number {
    return this.count;
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

export function formatRecordError(error: RecordError): string {
  return `${error.position}${error.objectID !== undefined ? ` (objectID ${JSON.stringify(error.objectID)})` : ''}: ${error.reason}`;
}

/** What became of a file's records: `read` = `accepted` + `rejected` once the import has finished. */
export interface ImportCounts {
  /** Records and unreadable lines (or JSON array elements) met in the file. */
  read: number;
  /** Records that passed the importer's checks and were sent to the server. */
  sent: number;
  /** Records the server acknowledged. */
  accepted: number;
  /** Lines the importer could not read plus records the server refused. */
  rejected: number;
}

export function formatCounts({ read, sent, accepted, rejected }: ImportCounts): string {
  const number = new Intl.NumberFormat('en-US');
  return `Records read: ${number.format(read)}, sent: ${number.format(sent)}, accepted: ${number.format(accepted)}, rejected: ${number.format(rejected)}.`;
}
