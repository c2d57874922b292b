/**
 * Partial updates (`POST …/{objectID}/partial` and the `partialUpdateObject*` batch actions): plain attributes
 * replace, built-in operations (`{ "_operation": "Increment", "value": 2 }`) compute from the current value.
 * Pure: `applyPartial(current, body)` returns the new record and never mutates its input.
 */
import type { BuiltInOperationType, IndexRecord } from '@vitrine/protocol';

const OPERATIONS = new Set<BuiltInOperationType>(['Increment', 'Decrement', 'Add', 'Remove', 'AddUnique', 'IncrementFrom', 'IncrementSet']);
const NUMERIC_OPERATIONS = new Set<BuiltInOperationType>(['Increment', 'Decrement', 'IncrementFrom', 'IncrementSet']);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `{ _operation, value }` with a known operation; other objects are plain nested values. */
export function asBuiltInOperation(value: unknown): { op: BuiltInOperationType; value: unknown } | undefined {
  if (!isPlainObject(value) || typeof value._operation !== 'string') return undefined;
  return { op: value._operation as BuiltInOperationType, value: value.value };
}

/** Why a partial-update body is invalid, or undefined when it is valid (checked before the write is logged). */
export function partialBodyError(body: Record<string, unknown>): string | undefined {
  for (const [attribute, raw] of Object.entries(body)) {
    const operation = asBuiltInOperation(raw);
    if (!operation) continue;
    if (!OPERATIONS.has(operation.op)) return `unknown _operation "${operation.op}" on "${attribute}"`;
    if (NUMERIC_OPERATIONS.has(operation.op) && (typeof operation.value !== 'number' || !Number.isFinite(operation.value))) {
      return `_operation ${operation.op} on "${attribute}" needs a numeric value`;
    }
  }
  return undefined;
}

function applyOperation(current: unknown, op: BuiltInOperationType, value: unknown): { set: boolean; value?: unknown } {
  const currentNumber = typeof current === 'number' ? current : undefined;
  const amount = value as number;
  switch (op) {
    case 'Increment':
      return { set: true, value: (currentNumber ?? 0) + amount };
    case 'Decrement':
      return { set: true, value: (currentNumber ?? 0) - amount };
    case 'IncrementFrom':
      // Optimistic concurrency: increment only when the caller saw the current value (a missing value counts as 0).
      return (currentNumber ?? 0) === amount ? { set: true, value: amount + 1 } : { set: false };
    case 'IncrementSet':
      // Monotonic: only ever moves the value up.
      return currentNumber === undefined || amount > currentNumber ? { set: true, value: amount } : { set: false };
    case 'Add': {
      const list = Array.isArray(current) ? current : current === undefined ? [] : [current];
      return { set: true, value: [...list, value] };
    }
    case 'AddUnique': {
      const list = Array.isArray(current) ? current : current === undefined ? [] : [current];
      return { set: true, value: list.some((item) => sameValue(item, value)) ? list : [...list, value] };
    }
    case 'Remove': {
      if (!Array.isArray(current)) return { set: false };
      return { set: true, value: current.filter((item) => !sameValue(item, value)) };
    }
  }
}

function sameValue(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/** The record after the partial update `body` (which includes the objectID) on `current` (undefined: new record). */
export function applyPartial(current: IndexRecord | undefined, body: Record<string, unknown>, objectID: string): IndexRecord {
  const next: IndexRecord = current ? { ...current } : { objectID };
  for (const [attribute, raw] of Object.entries(body)) {
    // JSON bodies are parsed with prototype-poisoning protection; this guard keeps the function safe on its own.
    if (attribute === 'objectID' || attribute === '__proto__') continue;
    const operation = asBuiltInOperation(raw);
    if (!operation) {
      next[attribute] = raw;
      continue;
    }
    const result = applyOperation(next[attribute], operation.op, operation.value);
    if (result.set) next[attribute] = result.value;
  }
  next.objectID = objectID;
  return next;
}
