/**
 * Reading an import file as a stream of records, whatever its format, never holding the whole file: NDJSON, CSV
 * and JSON arrays by the reader the CLI uses too (@vitrine/protocol: UTF-8, line length, the server's record
 * limits, CSV quotes left open, a JSON array's broken elements). Each item carries its line (and, in a JSON array,
 * its element's number) so an error can be shown where it is, and so an import can resume after the last record
 * the server acknowledged.
 */
import { readImportFile } from '@vitrine/protocol';
import { parse as parseCsv } from 'csv-parse/browser/esm/sync';

export type ImportFormat = 'ndjson' | 'json' | 'csv';

/** `element`: the number of a JSON array's element (several may start on one line). */
export type ImportItem = { line: number; element?: number; record: Record<string, unknown> } | { line: number; element?: number; error: string };

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

export interface ReadOptions {
  /** Decode invalid UTF-8 as U+FFFD instead of listing the line. */
  replaceInvalidUtf8?: boolean;
}

const parseCsvRows = (text: string) => parseCsv(text, { relax_quotes: true, relax_column_count: true }) as string[][];

/** Any format, read as the CLI reads it (@vitrine/protocol), so a file gives the same records, errors and counts. */
export async function* readItems(format: ImportFormat, bytes: ReadableStream<Uint8Array>, options: ReadOptions = {}): AsyncGenerator<ImportItem> {
  for await (const item of readImportFile(format, byteChunks(bytes), { ...options, parseCsvRows })) {
    const { line, element } = item;
    yield 'record' in item ? { line, element, record: item.record } : { line, element, error: item.error };
  }
}
