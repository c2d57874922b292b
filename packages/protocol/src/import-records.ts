/**
 * Records of an import file, line by line, each checked against the server's limits where it is read: what the
 * server would refuse is reported at its own line with a reason a merchant can act on, and never reaches a batch
 * (where it would cost the batch a round trip, or — nested thousands of levels deep — the importer its stack).
 * Shared by the CLI and the console: no Node or DOM API. CSV rows are read by `import-csv.ts`.
 */
import type { ImportLine } from './import-lines.ts';
import { MAX_RECORD_BYTES, MAX_RECORD_NESTING } from './limits.ts';

/**
 * A record read at `line` (a CSV record's or a JSON array element's first line), or why that line gives none.
 * `element`: the element's number in a JSON array (several may start on one line). `fatal`: nothing more is read.
 */
export type ImportItem =
  | { line: number; element?: number; record: Record<string, unknown> }
  | { line: number; element?: number; error: string; objectID?: string; fatal?: boolean };

const count = new Intl.NumberFormat('en-US');
const encoder = new TextEncoder();
/** Stands for the objectID the server generates for a record without one (a UUID, 36 characters). */
const GENERATED_ID = 'x'.repeat(36);

function kindOf(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  return typeof value === 'string' ? 'a string' : `a ${typeof value}`;
}

/** Nesting of a value (a scalar is 0, `{}` is 1), counted without recursion: a line may nest 500,000 levels. */
function nestingOf(root: object): { depth: number; badKey?: string } {
  let deepest = 0;
  const stack: Array<{ value: object; depth: number }> = [{ value: root, depth: 1 }];
  while (stack.length > 0) {
    const { value, depth } = stack.pop()!;
    deepest = Math.max(deepest, depth);
    const children = Array.isArray(value) ? value : Object.values(value);
    if (!Array.isArray(value)) {
      // The server refuses keys that would reach an object's prototype when parsed by a careless reader.
      if (Object.hasOwn(value, '__proto__')) return { depth: deepest, badKey: '__proto__' };
      const ctor = (value as Record<string, unknown>).constructor;
      if (Object.hasOwn(value, 'constructor') && typeof ctor === 'object' && ctor !== null && Object.hasOwn(ctor, 'prototype')) {
        return { depth: deepest, badKey: 'constructor.prototype' };
      }
    }
    for (const child of children) if (typeof child === 'object' && child !== null) stack.push({ value: child, depth: depth + 1 });
  }
  return { depth: deepest };
}

/**
 * Checks a value as the server checks a record in a batch: an object, a non-empty string objectID if any,
 * nesting, forbidden keys, size with its objectID. Returns the record, or the reason it would be refused.
 * `jsonBytes`: the size of the JSON text the value was parsed from, when there is one. Re-encoding a value gives
 * at most 1.25 times its text (`1e21` becomes `1e+21`; everything else stays the same size or shrinks), so a
 * text well under the limit spares encoding the record again to measure it.
 */
export function checkImportRecord(value: unknown, jsonBytes?: number): { record: Record<string, unknown> } | { error: string; objectID?: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { error: `not a JSON object but ${kindOf(value)}: each record must be an object such as {"objectID": "1", "name": "…"}` };
  }
  const record = value as Record<string, unknown>;
  const objectID = typeof record.objectID === 'string' && record.objectID !== '' ? record.objectID : undefined;
  if ('objectID' in record && objectID === undefined) return { error: 'objectID must be a non-empty string' };
  const { depth, badKey } = nestingOf(record);
  if (depth > MAX_RECORD_NESTING) {
    return { error: `nested ${count.format(depth)} levels deep: a record may nest at most ${MAX_RECORD_NESTING} levels`, objectID };
  }
  if (badKey) return { error: `the attribute name "${badKey}" is not allowed`, objectID };
  if (jsonBytes !== undefined && jsonBytes * 1.25 + GENERATED_ID.length + 16 <= MAX_RECORD_BYTES) return { record };
  const bytes = encoder.encode(JSON.stringify(objectID === undefined ? { ...record, objectID: GENERATED_ID } : record)).length;
  if (bytes > MAX_RECORD_BYTES) {
    return { error: `the record takes ${count.format(bytes)} bytes as JSON: at most ${count.format(MAX_RECORD_BYTES)} (100 KB) are accepted`, objectID };
  }
  return { record };
}

export function checkedItem(line: number, value: unknown, jsonBytes?: number): ImportItem {
  const result = checkImportRecord(value, jsonBytes);
  return 'record' in result ? { line, record: result.record } : { line, ...result };
}

/** NDJSON: one JSON object per line; blank lines are skipped. */
export async function* ndjsonItems(lines: AsyncIterable<ImportLine>): AsyncGenerator<ImportItem> {
  for await (const unit of lines) {
    if ('error' in unit) {
      yield unit;
      continue;
    }
    if (unit.text.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(unit.text);
    } catch (error) {
      yield { line: unit.line, error: `malformed JSON (${error instanceof Error ? error.message : String(error)})` };
      continue;
    }
    yield checkedItem(unit.line, value, unit.bytes);
  }
}
