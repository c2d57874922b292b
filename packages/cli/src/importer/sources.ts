import { createReadStream, statSync } from 'node:fs';
import { extname } from 'node:path';
import { Transform } from 'node:stream';
import type { Readable } from 'node:stream';
import { readImportFile } from '@vitrine/protocol';
import type { ImportItem } from '@vitrine/protocol';
import { parse as parseCsv } from 'csv-parse/sync';
import { CliError, UsageError } from '../errors.ts';

export type RecordFormat = 'json' | 'ndjson' | 'csv';
export const FORMATS: readonly RecordFormat[] = ['json', 'ndjson', 'csv'];

/** Where a record sits in its file, as the error report shows it: `line 12`, or `line 12 (record 7)` in a JSON array. */
export type Position = string;

export type SourceItem =
  | { kind: 'record'; record: Record<string, unknown>; position: Position }
  /** A record that could not be read. `fatal`: the rest of the file is unreadable (not a JSON array, a bad CSV header). */
  | { kind: 'error'; position: Position; reason: string; objectID?: string; fatal?: boolean };

export interface RecordSource {
  items: AsyncIterable<SourceItem>;
  /** Bytes of the file consumed so far (for the progress bar). */
  bytesRead(): number;
  totalBytes: number;
}

const EXTENSIONS: Record<string, RecordFormat> = { '.json': 'json', '.ndjson': 'ndjson', '.jsonl': 'ndjson', '.csv': 'csv' };

export function detectFormat(path: string, explicit?: string): RecordFormat {
  if (explicit !== undefined) {
    if (!FORMATS.includes(explicit as RecordFormat)) {
      throw new UsageError(`--format must be one of ${FORMATS.join(', ')}, got "${explicit}"`);
    }
    return explicit as RecordFormat;
  }
  const format = EXTENSIONS[extname(path).toLowerCase()];
  if (!format) {
    throw new UsageError(`Cannot tell the format of "${path}" from its extension: pass --format json, ndjson or csv`);
  }
  return format;
}

/** How a file's records are read: what the command line can change. */
export interface ReadOptions {
  /** Decode invalid UTF-8 as U+FFFD instead of reporting the line (or JSON array element). */
  replaceInvalidUtf8?: boolean;
}

function fromItem(item: ImportItem): SourceItem {
  const position = item.element === undefined ? `line ${item.line}` : `line ${item.line} (record ${item.element})`;
  if ('record' in item) return { kind: 'record', record: item.record, position };
  return { kind: 'error', position, reason: item.error, objectID: item.objectID, fatal: item.fatal };
}

/** Every format is read by the reader shared with the console (@vitrine/protocol): the same records, lines and reasons. */
async function* fileItems(format: RecordFormat, input: Readable, options: ReadOptions): AsyncGenerator<SourceItem> {
  const parseCsvRows = (text: string) => parseCsv(text, { relax_quotes: true, relax_column_count: true }) as string[][];
  for await (const item of readImportFile(format, input, { ...options, parseCsvRows })) yield fromItem(item);
}

/** Opens a file of records for streaming: memory stays bounded whatever its size. */
export function openRecordSource(path: string, format: RecordFormat, options: ReadOptions = {}): RecordSource {
  let totalBytes: number;
  try {
    const stats = statSync(path);
    if (!stats.isFile()) throw new Error('not a file');
    totalBytes = stats.size;
  } catch (error) {
    throw new CliError(`Cannot read ${path}: ${(error as Error).message}`);
  }
  let read = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      read += chunk.length;
      callback(null, chunk);
    },
  });
  const file = createReadStream(path);
  file.on('error', (error) => counter.destroy(error));
  const input = file.pipe(counter);
  return { items: fileItems(format, input, options), bytesRead: () => read, totalBytes };
}
