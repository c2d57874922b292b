import { createHash } from 'node:crypto';
import { stringify } from 'safe-stable-stringify';
import type { ApiClient } from '../importer/client.ts';
import { browsePage } from '../importer/index-content.ts';
import type { StoredRecord } from '../importer/index-content.ts';

/** What the final comparison measures on each side: how many records, and a hash of all of them. */
export interface IndexFingerprint {
  records: number;
  /** Hex; equal fingerprints mean the same records with the same contents, in whatever order they are stored. */
  checksum: string;
}

const MODULUS = 1n << 256n;

/**
 * Order-independent: each record hashes alone (objectID, then its JSON with keys sorted, so attribute order does
 * not count) and the hashes are added modulo 2^256. A sum rather than XOR, so two identical hashes never cancel.
 */
export class ChecksumAccumulator {
  private sum = 0n;
  private count = 0;

  add(record: StoredRecord): void {
    const digest = createHash('sha256').update(record.objectID).update('\n').update(stringify(record)).digest('hex');
    this.sum = (this.sum + BigInt(`0x${digest}`)) % MODULUS;
    this.count++;
  }

  result(): IndexFingerprint {
    return { records: this.count, checksum: this.sum.toString(16).padStart(64, '0') };
  }
}

/** Browses a whole index, page by page (never all of it in memory), into its fingerprint. */
export async function fingerprint(client: ApiClient, indexName: string, hitsPerPage: number): Promise<IndexFingerprint> {
  const accumulator = new ChecksumAccumulator();
  let cursor: string | undefined;
  do {
    const page = await browsePage(client, indexName, cursor, hitsPerPage);
    for (const record of page.records) accumulator.add(record);
    cursor = page.cursor;
  } while (cursor);
  return accumulator.result();
}

export interface Comparison {
  indexName: string;
  source: IndexFingerprint;
  destination: IndexFingerprint;
}

export const identical = (comparison: Comparison): boolean =>
  comparison.source.records === comparison.destination.records && comparison.source.checksum === comparison.destination.checksum;

const number = new Intl.NumberFormat('en-US');

/** The comparison as a text table; checksums are shortened to 16 hex digits, enough to tell them apart by eye. */
export function comparisonTable(comparisons: Comparison[]): string {
  const header = ['Index', 'Source records', 'Destination records', 'Source checksum', 'Destination checksum', 'Result'];
  const rows = comparisons.map((c) => [
    c.indexName,
    number.format(c.source.records),
    number.format(c.destination.records),
    c.source.checksum.slice(0, 16),
    c.destination.checksum.slice(0, 16),
    identical(c) ? 'identical' : 'DIFFERENT',
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column])).join('  ').trimEnd();
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n') + '\n';
}
