/**
 * Import files for tests (the CLI's and the console's): good lines mixed with each kind of bad line an importer
 * must report at its own line, as NDJSON, CSV or a JSON array (pretty-printed, or one element per line). Not
 * exported from the package: tests import it by path.
 */
export type BadLineKind = 'deep' | 'oversize' | 'malformed' | 'notObject' | 'invalidUtf8' | 'hugeLine' | 'openQuote' | 'cellCount';

export const NDJSON_BAD_KINDS: readonly BadLineKind[] = ['deep', 'oversize', 'malformed', 'notObject', 'invalidUtf8', 'hugeLine'];
export const CSV_BAD_KINDS: readonly BadLineKind[] = ['deep', 'oversize', 'openQuote', 'cellCount', 'invalidUtf8', 'hugeLine'];
/** A JSON array's bad elements: NDJSON's, a malformed one being a record left open (the next one must still land). */
export const JSON_BAD_KINDS = NDJSON_BAD_KINDS;

export type SampleFormat = 'ndjson' | 'csv' | 'json';
/** How a JSON array is laid out: `JSON.stringify(records, null, 2)`, or `[`, one element per line, `]`. */
export type JsonLayout = 'pretty' | 'lines';

export const BAD_KINDS: Record<SampleFormat, readonly BadLineKind[]> = { ndjson: NDJSON_BAD_KINDS, csv: CSV_BAD_KINDS, json: JSON_BAD_KINDS };

/** What each kind's report must say (a word of it), for tests that check the reason a merchant reads. */
export const REASON_OF: Record<BadLineKind, RegExp> = {
  deep: /nested 20,00\d levels deep/,
  oversize: /bytes as JSON: at most 102,400/,
  malformed: /malformed JSON/,
  notObject: /not a JSON object but an array/,
  invalidUtf8: /not valid UTF-8/,
  hugeLine: /the (line|record) is 5,\d{3},\d{3} bytes long/,
  openQuote: /quote opened on this line is never closed/,
  cellCount: /2 cells where the header has 4/,
};

export const CSV_HEADER = 'objectID,name,price,meta:json';
const encoder = new TextEncoder();
const deep = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

function ndjsonLine(line: number, kind: BadLineKind | undefined): Array<string | Uint8Array> {
  switch (kind) {
    case undefined:
      return [JSON.stringify({ objectID: `g${line}`, name: `Item ${line}`, price: line })];
    case 'deep':
      return [`{"objectID":"d${line}","a":${deep(20_000)}}`];
    case 'oversize':
      return [JSON.stringify({ objectID: `o${line}`, text: 'x'.repeat(150_000) })];
    case 'malformed':
      return [`{"objectID":"m${line}","name":`];
    case 'notObject':
      return ['["an","array"]'];
    case 'invalidUtf8':
      // "café" saved as Latin-1: é is the lone byte 0xE9.
      return [`{"objectID":"u${line}","name":"caf`, Uint8Array.of(0xe9), '"}'];
    case 'hugeLine':
      return [`{"objectID":"h${line}","text":"${'y'.repeat(5 * 1024 * 1024)}"}`];
    default:
      throw new Error(`${kind} is not a kind of NDJSON line`);
  }
}

function csvLine(line: number, kind: BadLineKind | undefined): Array<string | Uint8Array> {
  switch (kind) {
    case undefined:
      return [`g${line},Item ${line},${line},`];
    case 'deep':
      return [`d${line},Deep,1,${deep(20_000)}`];
    case 'oversize':
      return [`o${line},${'x'.repeat(150_000)},1,`];
    case 'openQuote':
      return [`q${line},"Broken ${line},1,`];
    case 'cellCount':
      return [`c${line},Short`];
    case 'invalidUtf8':
      return [`u${line},caf`, Uint8Array.of(0xe9), ',1,'];
    case 'hugeLine':
      return [`h${line},${'y'.repeat(5 * 1024 * 1024)},1,`];
    default:
      throw new Error(`${kind} is not a kind of CSV line`);
  }
}

/** Element `n` (from 1) of a JSON array: a malformed one is a record left open, and good records span lines when pretty. */
function jsonElement(n: number, kind: BadLineKind | undefined, layout: JsonLayout): Array<string | Uint8Array> {
  const indent = layout === 'pretty' ? '  ' : '';
  if (kind === undefined && layout === 'pretty') return [indent + JSON.stringify({ objectID: `g${n}`, name: `Item ${n}`, price: n }, null, 2).replaceAll('\n', `\n${indent}`)];
  if (kind === 'malformed') return [layout === 'pretty' ? `${indent}{\n${indent}  "objectID": "m${n}",\n${indent}  "name":` : `{"objectID":"m${n}","name":`];
  return [indent, ...ndjsonLine(n, kind)];
}

export interface SampleFile {
  bytes: Uint8Array;
  /** objectIDs of the good lines, which must all land. */
  goodIds: string[];
  /** Line numbers of the bad lines (a JSON array's bad elements: where each starts), each of which must be reported. */
  badLines: number[];
  /** The numbers of the bad records (JSON array elements; the file's records, from 1, otherwise). */
  badRecords: number[];
  /** The kind of each bad line, by line number. */
  kinds: Map<number, BadLineKind>;
}

/** A file of `rows` records (after the header, for CSV); `bad` maps a row's index (0-based) to its kind. */
export function sampleFile(format: SampleFormat, rows: number, bad: Map<number, BadLineKind>, layout: JsonLayout = 'pretty'): SampleFile {
  const parts: Uint8Array[] = [];
  const goodIds: string[] = [];
  const badLines: number[] = [];
  const badRecords: number[] = [];
  const kinds = new Map<number, BadLineKind>();
  let line = 1;
  const add = (piece: string | Uint8Array) => {
    if (typeof piece === 'string') line += piece.split('\n').length - 1;
    parts.push(typeof piece === 'string' ? encoder.encode(piece) : piece);
  };
  if (format === 'csv') add(`${CSV_HEADER}\n`);
  if (format === 'json') add('[\n');
  for (let row = 0; row < rows; row++) {
    const kind = bad.get(row);
    const id = format === 'json' ? row + 1 : line;
    if (kind) {
      badLines.push(line);
      badRecords.push(row + 1);
      kinds.set(line, kind);
    } else goodIds.push(`g${id}`);
    const pieces = format === 'json' ? jsonElement(id, kind, layout) : (format === 'csv' ? csvLine : ndjsonLine)(id, kind);
    for (const piece of pieces) add(piece);
    add(format === 'json' && row < rows - 1 ? ',\n' : '\n');
  }
  if (format === 'json') add(']\n');
  const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return { bytes, goodIds, badLines, badRecords, kinds };
}

/** Where the CLI must report `sample`'s bad records: `line 12`, or `line 12 (record 5)` in a JSON array. */
export function reportedPositions(format: SampleFormat, sample: SampleFile): string[] {
  return sample.badLines.map((line, i) => (format === 'json' ? `line ${line} (record ${sample.badRecords[i]})` : `line ${line}`));
}

/** Each kind of bad line at the start, the middle and the end of a file of `rows` records. */
export function everyKindEverywhere(format: SampleFormat, rows: number, layout: JsonLayout = 'pretty'): SampleFile {
  const kinds = BAD_KINDS[format];
  const bad = new Map<number, BadLineKind>();
  kinds.forEach((kind, i) => {
    bad.set(i, kind);
    bad.set(Math.floor(rows / 2) + i, kind);
    bad.set(rows - kinds.length + i, kind);
  });
  return sampleFile(format, rows, bad, layout);
}
