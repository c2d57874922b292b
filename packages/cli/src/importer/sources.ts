import { createReadStream, statSync } from 'node:fs';
import { extname } from 'node:path';
import { Transform } from 'node:stream';
import type { Readable } from 'node:stream';
import { checkImportRecord, readLineRecords } from '@vitrine/protocol';
import type { ImportItem } from '@vitrine/protocol';
import { parse as parseCsv } from 'csv-parse/sync';
import StreamArray from 'stream-json/streamers/StreamArray.js';
import { CliError, UsageError } from '../errors.ts';

export type RecordFormat = 'json' | 'ndjson' | 'csv';
export const FORMATS: readonly RecordFormat[] = ['json', 'ndjson', 'csv'];

/** Where a record sits in its file, as the error report shows it: `line 12` or `record 7` (JSON arrays). */
export type Position = string;

export type SourceItem =
  | { kind: 'record'; record: Record<string, unknown>; position: Position }
  /** A record that could not be read. `fatal`: the rest of the file is unreadable (a JSON syntax error, a bad CSV header). */
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
  /** Decode invalid UTF-8 as U+FFFD instead of reporting the line. */
  replaceInvalidUtf8?: boolean;
}

function fromItem(item: ImportItem, where: (line: number) => Position): SourceItem {
  if ('record' in item) return { kind: 'record', record: item.record, position: where(item.line) };
  return { kind: 'error', position: where(item.line), reason: item.error, objectID: item.objectID, fatal: item.fatal };
}

/** NDJSON and CSV: read by the reader shared with the console (@vitrine/protocol), line numbers as positions. */
async function* lineItems(format: 'ndjson' | 'csv', input: Readable, options: ReadOptions): AsyncGenerator<SourceItem> {
  const parseCsvRows = (text: string) => parseCsv(text, { relax_quotes: true, relax_column_count: true }) as string[][];
  for await (const item of readLineRecords(format, input, { ...options, parseCsvRows })) {
    yield fromItem(item, (line) => `line ${line}`);
  }
}

async function* jsonArrayItems(input: Readable, bytesRead: () => number): AsyncGenerator<SourceItem> {
  const elements = input.pipe(StreamArray.withParser());
  // `pipe` does not forward errors: a read error must still end the loop below.
  input.on('error', (error) => elements.destroy(error));
  let count = 0;
  try {
    for await (const { key, value } of elements as AsyncIterable<{ key: number; value: unknown }>) {
      count = key + 1;
      const result = checkImportRecord(value);
      const item: ImportItem = 'record' in result ? { line: key + 1, record: result.record } : { line: key + 1, ...result };
      yield fromItem(item, (element) => `record ${element}`);
    }
  } catch (error) {
    // A syntax error leaves the parser lost: nothing after it can be trusted, so reading stops here.
    yield {
      kind: 'error',
      position: `after record ${count} (near byte ${bytesRead()})`,
      reason: `malformed JSON, the rest of the file was not read: ${(error as Error).message}`,
      fatal: true,
    };
  }
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
  const bytesRead = () => read;
  const items = format === 'json' ? jsonArrayItems(input, bytesRead) : lineItems(format, input, options);
  return { items, bytesRead, totalBytes };
}
