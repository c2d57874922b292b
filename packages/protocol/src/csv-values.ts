/**
 * CSV cells to JSON values. A CSV file has no types, so they are inferred, cell by cell:
 *
 * - empty cell → the attribute is left out;
 * - `true` / `false` → boolean;
 * - a plain decimal number (`12`, `-3.5`, `1e6`; not `007` or `+1`, which stay text) → number;
 * - text starting with `[` or `{` that parses as JSON → that JSON value;
 * - text containing `|` → a list of the trimmed parts (`red|blue` → `["red", "blue"]`);
 * - anything else → text.
 *
 * A header may force a type with a suffix: `zip:string`, `price:number`, `active:boolean`, `meta:json`,
 * `tags:list` (a `|` list even with a single item). `objectID` is always text. Dotted headers build nested
 * objects: `hierarchicalCategories.lvl0` → `{ hierarchicalCategories: { lvl0 } }`.
 */
export type ColumnType = 'auto' | 'string' | 'number' | 'boolean' | 'json' | 'list';

export interface Column {
  /** Path of the attribute: `["hierarchicalCategories", "lvl0"]`. */
  path: string[];
  type: ColumnType;
}

const TYPES = new Set<ColumnType>(['string', 'number', 'boolean', 'json', 'list']);
/** Keys that would reach an object's prototype instead of the object itself. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
const PLAIN_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/** Parses a header cell, or returns the reason it cannot be used. */
export function parseColumn(header: string): Column | string {
  let name = header.trim();
  let type: ColumnType = 'auto';
  const colon = name.lastIndexOf(':');
  if (colon > 0 && TYPES.has(name.slice(colon + 1) as ColumnType)) {
    type = name.slice(colon + 1) as ColumnType;
    name = name.slice(0, colon);
  }
  if (!name) return `empty column name "${header}"`;
  const path = name.split('.');
  if (path.some((key) => key === '' || FORBIDDEN_KEYS.has(key))) return `column name "${header}" is not allowed`;
  if (name === 'objectID') type = 'string';
  return { path, type };
}

/** Converts one cell; throws an Error with the reason when a forced type does not fit. */
export function convertCell(raw: string, type: ColumnType): unknown {
  switch (type) {
    case 'string':
      return raw;
    case 'number': {
      const value = Number(raw.trim());
      if (raw.trim() === '' || !Number.isFinite(value)) throw new Error(`"${raw}" is not a number`);
      return value;
    }
    case 'boolean':
      if (raw.trim() === 'true') return true;
      if (raw.trim() === 'false') return false;
      throw new Error(`"${raw}" is not a boolean (true or false)`);
    case 'json':
      try {
        return JSON.parse(raw);
      } catch {
        throw new Error(`"${raw.slice(0, 40)}" is not valid JSON`);
      }
    case 'list':
      return raw.split('|').map((part) => part.trim()).filter((part) => part !== '');
    case 'auto':
      return inferCell(raw);
  }
}

function inferCell(raw: string): unknown {
  const text = raw.trim();
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (PLAIN_NUMBER.test(text)) {
    const value = Number(text);
    // Beyond 2^53 a number loses digits (long ids, card-like codes): keep those as text.
    if (Number.isSafeInteger(value) || !Number.isInteger(value)) return value;
    return text;
  }
  if (text.startsWith('[') || text.startsWith('{')) {
    try {
      return JSON.parse(text);
    } catch {
      // Not JSON after all: plain text that happens to start with a bracket.
    }
  }
  if (text.includes('|')) return text.split('|').map((part) => part.trim()).filter((part) => part !== '');
  return raw;
}

/** Builds a record from one CSV row; empty cells leave their attribute out. */
export function buildRecord(columns: Column[], cells: string[]): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  columns.forEach((column, i) => {
    const raw = cells[i] ?? '';
    if (raw === '') return;
    let target = record;
    for (const key of column.path.slice(0, -1)) {
      const next = target[key];
      if (typeof next !== 'object' || next === null || Array.isArray(next)) target[key] = {};
      target = target[key] as Record<string, unknown>;
    }
    try {
      target[column.path[column.path.length - 1]] = convertCell(raw, column.type);
    } catch (error) {
      throw new Error(`column "${column.path.join('.')}": ${(error as Error).message}`, { cause: error });
    }
  });
  return record;
}
