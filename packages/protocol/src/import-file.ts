/**
 * An import file's records from its bytes, whatever its format (NDJSON, CSV, a JSON array): what the CLI and the
 * console's Import screen both call, so the same file gives the same records, reported lines and counts.
 */
import { csvItems } from './import-csv.ts';
import type { CsvRowParser } from './import-csv.ts';
import { jsonArrayItems } from './import-json-array.ts';
import { readImportLines } from './import-lines.ts';
import type { ImportLineOptions } from './import-lines.ts';
import { ndjsonItems } from './import-records.ts';
import type { ImportItem } from './import-records.ts';

export type ImportFileFormat = 'ndjson' | 'csv' | 'json';

export interface ImportFileOptions extends ImportLineOptions {
  /** Splits CSV text into rows of cells (csv-parse's `parse` from `csv-parse/sync` or its browser build). */
  parseCsvRows: CsvRowParser;
}

export function readImportFile(format: ImportFileFormat, chunks: AsyncIterable<Uint8Array>, options: ImportFileOptions): AsyncGenerator<ImportItem> {
  if (format === 'json') return jsonArrayItems(chunks, options);
  const lines = readImportLines(chunks, options);
  return format === 'csv' ? csvItems(lines, options.parseCsvRows) : ndjsonItems(lines);
}
