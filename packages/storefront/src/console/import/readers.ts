/**
 * Reading an import file as a stream of records, whatever its format, never holding the whole file: NDJSON and
 * CSV one line (or quoted multi-line row) at a time by the reader the CLI uses too (@vitrine/protocol: UTF-8,
 * line length, the server's record limits, CSV quotes left open), a JSON array one element at a time
 * (@streamparser/json). Each item carries its line (or element) number so an error can be shown where it is, and
 * so an import can resume after the last line the server acknowledged.
 */
import { JSONParser } from '@streamparser/json';
import { checkImportRecord, readLineRecords } from '@vitrine/protocol';
import { parse as parseCsv } from 'csv-parse/browser/esm/sync';

export type ImportFormat = 'ndjson' | 'json' | 'csv';

export type ImportItem = { line: number; record: Record<string, unknown> } | { line: number; error: string };

/** The format a file name suggests (`.csv`, `.json`; anything else is read as NDJSON). */
export function formatOf(fileName: string): ImportFormat {
  if (/\.csv$/i.test(fileName)) return 'csv';
  if (/\.json$/i.test(fileName)) return 'json';
  return 'ndjson';
}

/** The chunks of a byte stream (the DOM typing of ReadableStream has no async iterator). */
async function* byteChunks(bytes: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = bytes.getReader();
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

/** Text chunks of a byte stream, decoded as UTF-8 without splitting a character. */
async function* textChunks(bytes: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  for await (const chunk of byteChunks(bytes)) yield decoder.decode(chunk, { stream: true });
  const rest = decoder.decode();
  if (rest) yield rest;
}

function asItem(line: number, value: unknown): ImportItem {
  const checked = checkImportRecord(value);
  return 'record' in checked ? { line, record: checked.record } : { line, error: checked.error };
}

export interface ReadOptions {
  /** Decode invalid UTF-8 as U+FFFD instead of listing the line. */
  replaceInvalidUtf8?: boolean;
}

const parseCsvRows = (text: string) => parseCsv(text, { relax_quotes: true, relax_column_count: true }) as string[][];

/** NDJSON and CSV, read as the CLI reads them (@vitrine/protocol), so a file gives the same records and errors. */
export async function* lineItems(format: 'ndjson' | 'csv', bytes: ReadableStream<Uint8Array>, options: ReadOptions = {}): AsyncGenerator<ImportItem> {
  for await (const item of readLineRecords(format, byteChunks(bytes), { ...options, parseCsvRows })) {
    yield 'record' in item ? { line: item.line, record: item.record } : { line: item.line, error: item.error };
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

export function readItems(format: ImportFormat, bytes: ReadableStream<Uint8Array>, options: ReadOptions = {}): AsyncGenerator<ImportItem> {
  return format === 'json' ? jsonArrayItems(bytes) : lineItems(format, bytes, options);
}
