import { createReadStream, statSync } from 'node:fs';
import { extname } from 'node:path';
import { createInterface } from 'node:readline';
import { Transform } from 'node:stream';
import type { Readable } from 'node:stream';
import { parse as parseCsv } from 'csv-parse';
import StreamArray from 'stream-json/streamers/StreamArray.js';
import { CliError, UsageError } from '../errors.ts';
import { buildRecord, parseColumn } from './csv-values.ts';
import type { Column } from './csv-values.ts';

export type RecordFormat = 'json' | 'ndjson' | 'csv';
export const FORMATS: readonly RecordFormat[] = ['json', 'ndjson', 'csv'];

/** Where a record sits in its file, as the error report shows it: `line 12` or `record 7` (JSON arrays). */
export type Position = string;

export type SourceItem =
  | { kind: 'record'; record: Record<string, unknown>; position: Position }
  /** A record that could not be read. `fatal`: the rest of the file is unreadable (a JSON syntax error). */
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

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The objectID a malformed record claims, when it has one, so the report can name it. */
function objectIdOf(value: unknown): string | undefined {
  return isPlainObject(value) && typeof value.objectID === 'string' ? value.objectID : undefined;
}

/**
 * Checks what the server would refuse anyway but the file can already tell: not an object, or an `objectID`
 * that is not a non-empty string. Returns the reason, or undefined when the record is acceptable.
 */
export function recordProblem(value: unknown): string | undefined {
  if (!isPlainObject(value)) return `not a JSON object (${Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value})`;
  if ('objectID' in value && (typeof value.objectID !== 'string' || value.objectID === '')) {
    return 'objectID must be a non-empty string';
  }
  return undefined;
}

async function* ndjsonItems(input: Readable): AsyncGenerator<SourceItem> {
  let line = 0;
  for await (const text of createInterface({ input, crlfDelay: Infinity })) {
    line++;
    if (text.trim() === '') continue;
    const position = `line ${line}`;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      yield { kind: 'error', position, reason: `malformed JSON: ${(error as Error).message}` };
      continue;
    }
    const problem = recordProblem(value);
    if (problem) yield { kind: 'error', position, reason: problem, objectID: objectIdOf(value) };
    else yield { kind: 'record', record: value as Record<string, unknown>, position };
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
      const position = `record ${key + 1}`;
      const problem = recordProblem(value);
      if (problem) yield { kind: 'error', position, reason: problem, objectID: objectIdOf(value) };
      else yield { kind: 'record', record: value as Record<string, unknown>, position };
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

async function* csvItems(input: Readable): AsyncGenerator<SourceItem> {
  const skipped: SourceItem[] = [];
  const parser = input.pipe(
    parseCsv({
      bom: true,
      info: true,
      skip_empty_lines: true,
      relax_column_count: true,
      // A quote inside an unquoted field is kept as text (`5" screen`) instead of failing the row.
      relax_quotes: true,
      skip_records_with_error: true,
      on_skip: (error) => {
        const line = typeof error?.lines === 'number' ? error.lines : '?';
        skipped.push({ kind: 'error', position: `line ${line}`, reason: `malformed CSV: ${error?.message ?? 'unreadable row'}` });
        return undefined;
      },
    }),
  );
  input.on('error', (error) => parser.destroy(error));
  let columns: Column[] | undefined;
  for await (const { record: cells, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
    yield* skipped.splice(0);
    if (!columns) {
      const parsed = cells.map(parseColumn);
      const bad = parsed.find((column) => typeof column === 'string');
      if (bad !== undefined) throw new CliError(`CSV header: ${bad as string}`);
      columns = parsed as Column[];
      continue;
    }
    const position = `line ${info.lines}`;
    if (cells.length !== columns.length) {
      yield { kind: 'error', position, reason: `${cells.length} cells where the header has ${columns.length}` };
      continue;
    }
    try {
      const record = buildRecord(columns, cells);
      const problem = recordProblem(record);
      if (problem) yield { kind: 'error', position, reason: problem };
      else yield { kind: 'record', record, position };
    } catch (error) {
      const objectID = cells[columns.findIndex((c) => c.path.join('.') === 'objectID')] || undefined;
      yield { kind: 'error', position, reason: (error as Error).message, objectID };
    }
  }
  yield* skipped.splice(0);
}

/** Opens a file of records for streaming: memory stays bounded whatever its size. */
export function openRecordSource(path: string, format: RecordFormat): RecordSource {
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
  const items =
    format === 'ndjson' ? ndjsonItems(input) : format === 'json' ? jsonArrayItems(input, bytesRead) : csvItems(input);
  return { items, bytesRead, totalBytes };
}
