/**
 * Reading an import file as a stream of records, whatever its format, never holding the whole file: NDJSON one
 * line at a time, a JSON array one element at a time (@streamparser/json), CSV one record at a time (csv-parse on
 * each record, with the header row's names). Each item carries its line (or element) number so an error can be
 * shown where it is, and so an import can resume after the last line the server acknowledged.
 */
import { JSONParser } from '@streamparser/json';
import { parse as parseCsv } from 'csv-parse/browser/esm/sync';
import { checkRecord } from '../record-json.ts';

export type ImportFormat = 'ndjson' | 'json' | 'csv';

export type ImportItem = { line: number; record: Record<string, unknown> } | { line: number; error: string };

/** The format a file name suggests (`.csv`, `.json`; anything else is read as NDJSON). */
export function formatOf(fileName: string): ImportFormat {
  if (/\.csv$/i.test(fileName)) return 'csv';
  if (/\.json$/i.test(fileName)) return 'json';
  return 'ndjson';
}

/** Text chunks of a byte stream, decoded as UTF-8 without splitting a character. */
async function* textChunks(bytes: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  // TypeScript's DOM types disagree on TextDecoderStream's input (BufferSource vs Uint8Array); bytes are bytes.
  const reader = bytes.pipeThrough(new TextDecoderStream() as unknown as TransformStream<Uint8Array, string>).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

/** Lines of a text stream with their 1-based numbers (`\n` or `\r\n`). */
async function* lines(bytes: ReadableStream<Uint8Array>): AsyncGenerator<{ line: number; text: string }> {
  let pending = '';
  let line = 0;
  for await (const chunk of textChunks(bytes)) {
    pending += chunk;
    let newline = pending.indexOf('\n');
    while (newline !== -1) {
      yield { line: ++line, text: pending.slice(0, newline).replace(/\r$/, '') };
      pending = pending.slice(newline + 1);
      newline = pending.indexOf('\n');
    }
  }
  if (pending !== '') yield { line: line + 1, text: pending.replace(/\r$/, '') };
}

function asItem(line: number, value: unknown): ImportItem {
  const checked = checkRecord(value);
  return checked.ok ? { line, record: checked.record } : { line, error: checked.reason };
}

export async function* ndjsonItems(bytes: ReadableStream<Uint8Array>): AsyncGenerator<ImportItem> {
  for await (const { line, text } of lines(bytes)) {
    if (text.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      yield { line, error: `Not valid JSON: ${error instanceof Error ? error.message : String(error)}` };
      continue;
    }
    yield asItem(line, value);
  }
}

/** Elements of a top-level JSON array, numbered from 1. A syntax error ends the file: nothing after it can be read. */
export async function* jsonArrayItems(bytes: ReadableStream<Uint8Array>): AsyncGenerator<ImportItem> {
  const parser = new JSONParser({ paths: ['$.*'], keepStack: false });
  let queue: unknown[] = [];
  parser.onValue = ({ value }) => void queue.push(value);
  let element = 0;
  try {
    for await (const chunk of textChunks(bytes)) {
      parser.write(chunk);
      const values = queue;
      queue = [];
      for (const value of values) yield asItem(++element, value);
    }
    if (!parser.isEnded) parser.end();
  } catch (error) {
    yield { line: element + 1, error: `Not a valid JSON array from element ${element + 1} on: ${error instanceof Error ? error.message : String(error)}` };
    return;
  }
  for (const value of queue) yield asItem(++element, value);
}

/**
 * Whole CSV records of a text stream with the line each starts on. A line break ends a record only outside a
 * quoted field, which is when the record so far holds an even number of quote characters (RFC 4180 escapes a
 * quote by doubling it).
 */
async function* csvRecords(bytes: ReadableStream<Uint8Array>): AsyncGenerator<{ line: number; text: string }> {
  let record = '';
  let start = 0;
  let quotes = 0;
  for await (const { line, text } of lines(bytes)) {
    if (record === '') start = line;
    record = record === '' && start === line ? text : `${record}\n${text}`;
    quotes += text.split('"').length - 1;
    if (quotes % 2 === 0) {
      yield { line: start, text: record };
      record = '';
      quotes = 0;
    }
  }
  if (record !== '') yield { line: start, text: record };
}

export async function* csvItems(bytes: ReadableStream<Uint8Array>): AsyncGenerator<ImportItem> {
  let columns: string[] | undefined;
  for await (const { line, text } of csvRecords(bytes)) {
    if (text.trim() === '') continue;
    let rows: string[][];
    try {
      rows = parseCsv(text, { cast: !columns ? false : true, relax_quotes: false }) as string[][];
    } catch (error) {
      yield { line, error: `Not valid CSV: ${error instanceof Error ? error.message : String(error)}` };
      continue;
    }
    const row = rows[0] ?? [];
    if (!columns) {
      columns = row.map(String);
      continue;
    }
    if (row.length !== columns.length) {
      yield { line, error: `Expected ${columns.length} fields (as the header), found ${row.length}` };
      continue;
    }
    const record: Record<string, unknown> = {};
    columns.forEach((column, index) => {
      const value = row[index];
      // An empty cell is an absent attribute, not an empty string.
      if (value !== '') record[column] = column === 'objectID' ? String(value) : value;
    });
    yield asItem(line, record);
  }
}

export function readItems(format: ImportFormat, bytes: ReadableStream<Uint8Array>): AsyncGenerator<ImportItem> {
  if (format === 'csv') return csvItems(bytes);
  if (format === 'json') return jsonArrayItems(bytes);
  return ndjsonItems(bytes);
}
