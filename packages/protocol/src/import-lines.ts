/**
 * The lines of an import file, from its bytes: numbered from 1, checked as UTF-8, and cut off past
 * `MAX_IMPORT_LINE_BYTES`. Pure (no Node or DOM API beyond TextDecoder), so the CLI and the console's Import
 * screen read a file the same way and report the same lines.
 */
import { MAX_IMPORT_LINE_BYTES, MAX_RECORD_BYTES } from './limits.ts';

/** A line as read: its text (without `\n` or `\r\n`) and size, or why it could not be read. */
export type ImportLine = { line: number; text: string; bytes: number } | { line: number; error: string };

export interface ImportLineOptions {
  /** Decode invalid UTF-8 as U+FFFD and keep the line, instead of reporting it. */
  replaceInvalidUtf8?: boolean;
  /** Longest line read (default `MAX_IMPORT_LINE_BYTES`). */
  maxLineBytes?: number;
}

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenient = new TextDecoder('utf-8', { ignoreBOM: true });
const count = new Intl.NumberFormat('en-US');

/** Offset of the first byte that does not belong to a well-formed UTF-8 sequence, or -1. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; ) {
    const byte = bytes[i];
    if (byte < 0x80) {
      i++;
      continue;
    }
    // Lead byte: sequence length and the range its first continuation byte must fall in (no overlongs, no
    // surrogates, nothing past U+10FFFF).
    let length: number;
    let low = 0x80;
    let high = 0xbf;
    if (byte >= 0xc2 && byte <= 0xdf) length = 2;
    else if (byte >= 0xe0 && byte <= 0xef) {
      length = 3;
      if (byte === 0xe0) low = 0xa0;
      if (byte === 0xed) high = 0x9f;
    } else if (byte >= 0xf0 && byte <= 0xf4) {
      length = 4;
      if (byte === 0xf0) low = 0x90;
      if (byte === 0xf4) high = 0x8f;
    } else return i;
    if (i + length > bytes.length) return i;
    if (bytes[i + 1] < low || bytes[i + 1] > high) return i;
    for (let k = 2; k < length; k++) if (bytes[i + k] < 0x80 || bytes[i + k] > 0xbf) return i;
    i += length;
  }
  return -1;
}

export function concatBytes(parts: Uint8Array[], size: number): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

function decodeLine(line: number, raw: Uint8Array, options: ImportLineOptions): ImportLine {
  let bytes = raw;
  if (bytes.length > 0 && bytes[bytes.length - 1] === 0x0d) bytes = bytes.subarray(0, bytes.length - 1);
  // A byte-order mark opens some files saved by spreadsheets; it is not part of the first line's text.
  if (line === 1 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
  try {
    return { line, text: strict.decode(bytes), bytes: bytes.length };
  } catch {
    if (options.replaceInvalidUtf8) return { line, text: lenient.decode(bytes), bytes: bytes.length };
    const at = firstInvalidUtf8(bytes);
    return { line, error: invalidUtf8Reason(bytes[at], `at position ${count.format(at + 1)} of the line`) };
  }
}

/** Why text was not read for a byte that is not UTF-8; `where` places the byte ("at position 28 of the line"). */
export function invalidUtf8Reason(byte: number, where: string): string {
  const hex = byte.toString(16).toUpperCase().padStart(2, '0');
  return `not valid UTF-8 text (byte 0x${hex} ${where}): save the file as UTF-8, or ask for invalid bytes to be replaced`;
}

/** Why a line (or a JSON array's element) of `size` bytes was skipped unread. */
export function tooLongReason(what: 'line' | 'record', size: number): string {
  return `the ${what} is ${count.format(size)} bytes long, not read: a record may take at most ${count.format(MAX_RECORD_BYTES)} bytes (100 KB)`;
}

/**
 * Splits a byte stream into lines. `\n` never occurs inside a multi-byte UTF-8 character, so lines are cut on
 * bytes and each is decoded on its own: one bad byte costs its line only. A line past the limit is counted, not
 * kept, so memory stays within one line's limit however long it runs.
 */
export async function* readImportLines(chunks: AsyncIterable<Uint8Array>, options: ImportLineOptions = {}): AsyncGenerator<ImportLine> {
  const maxBytes = options.maxLineBytes ?? MAX_IMPORT_LINE_BYTES;
  let parts: Uint8Array[] = [];
  let size = 0;
  let overflow = false;
  let line = 0;
  const take = (part: Uint8Array) => {
    size += part.length;
    if (overflow) return;
    if (size > maxBytes) {
      overflow = true;
      parts = [];
    } else if (part.length > 0) parts.push(part);
  };
  const finish = (): ImportLine => {
    line++;
    const done = overflow ? { line, error: tooLongReason('line', size) } : decodeLine(line, concatBytes(parts, size), options);
    parts = [];
    size = 0;
    overflow = false;
    return done;
  };
  for await (const chunk of chunks) {
    let start = 0;
    for (let newline = chunk.indexOf(0x0a); newline !== -1; newline = chunk.indexOf(0x0a, start)) {
      take(chunk.subarray(start, newline));
      yield finish();
      start = newline + 1;
    }
    // The rest of the chunk is copied: a reader may reuse its buffer for the next chunk.
    if (start < chunk.length) take(chunk.slice(start));
  }
  if (size > 0 || overflow) yield finish();
}
