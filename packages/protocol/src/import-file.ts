/**
 * An import file's records from its bytes, for the formats read line by line (NDJSON, CSV): what the CLI and
 * the console's Import screen both call, so the same file gives the same records and the same reported lines.
 */
import { csvItems } from './import-csv.ts';
import type { CsvRowParser } from './import-csv.ts';
import { readImportLines } from './import-lines.ts';
import type { ImportLineOptions } from './import-lines.ts';
import { ndjsonItems } from './import-records.ts';
import type { ImportItem } from './import-records.ts';

export interface ImportFileOptions extends ImportLineOptions {
  /** Splits CSV text into rows of cells (csv-parse's `parse` from `csv-parse/sync` or its browser build). */
  parseCsvRows: CsvRowParser;
}

export function readLineRecords(format: 'ndjson' | 'csv', chunks: AsyncIterable<Uint8Array>, options: ImportFileOptions): AsyncGenerator<ImportItem> {
  const lines = readImportLines(chunks, options);
  return format === 'csv' ? csvItems(lines, options.parseCsvRows) : ndjsonItems(lines);
}
