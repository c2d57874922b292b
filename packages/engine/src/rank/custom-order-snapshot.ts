/**
 * A customRanking order in a snapshot, under a prefix of section names: its ranks and order (merged: whole-number
 * ranks), and its sort keys by document, so that writes after a restore extend the order exactly as they would
 * have before it (`extendCustomOrder`). The index's own customRanking goes under `custom` (as it always has);
 * the orders of other lists a caller asks for (its virtual replicas') under `orders.<i>`.
 */
import type { SortSpec } from '../settings.ts';
import { createEngineError } from '../errors.ts';
import type { SnapshotReader, SnapshotWriter } from '../snapshot/format.ts';
import { setKey, type CustomOrder, type KeyColumn } from './custom-rank.ts';

/** Writes `order` (no pending document: see `mergePending`) under `prefix`. */
export function saveCustomOrder(w: SnapshotWriter, prefix: string, order: CustomOrder): void {
  w.u32(`${prefix}.rank`, Uint32Array.from(order.rank));
  w.u32(`${prefix}.order`, order.order);
  if (order.columns !== undefined) saveKeyColumns(w, prefix, order.columns);
}

/**
 * The order saved under `prefix` for `specs` over `documents` ids; undefined when the snapshot holds none.
 * Throws a snapshot error when it does not fit.
 */
export function loadCustomOrder(r: SnapshotReader, prefix: string, specs: SortSpec[], documents: number): CustomOrder | undefined {
  if (!r.has(`${prefix}.rank`)) return undefined;
  const rank = r.u32(`${prefix}.rank`);
  const order = r.u32(`${prefix}.order`);
  if (rank.length !== documents || order.length !== documents) throw createEngineError('INVALID_SNAPSHOT', 'custom ranking order');
  return { rank: Float64Array.from(rank), order, pending: [], columns: loadKeyColumns(r, prefix, specs, documents) };
}

/**
 * Each key column: one of numbers (and booleans) as its numeric keys, an f64 section read later as a view; one
 * holding strings as JSON. Rejected: every column as JSON (the earlier format, still read): at a million
 * documents stringifying two numeric columns held the search thread writing the snapshot for 80-200 ms.
 */
function saveKeyColumns(w: SnapshotWriter, prefix: string, columns: KeyColumn[]): void {
  columns.forEach((column, c) => {
    if (column.keys === undefined) w.f64(`${prefix}.numeric.${c}`, column.numeric.subarray(0, column.length));
    else w.json(`${prefix}.keys.${c}`, column.keys.slice(0, column.length).map((key) => key ?? null));
  });
}

/**
 * The key columns a snapshot holds (`saveKeyColumns`, or the earlier all-JSON `custom.keys`); undefined when it
 * holds none (snapshots written before keys were kept). Throws a snapshot error when they do not fit.
 */
function loadKeyColumns(r: SnapshotReader, prefix: string, specs: SortSpec[], documents: number): KeyColumn[] | undefined {
  if (r.has(`${prefix}.keys`)) return restoreKeyColumns(specs, r.json<unknown[][]>(`${prefix}.keys`), documents);
  if (!specs.every((_, c) => r.has(`${prefix}.numeric.${c}`) || r.has(`${prefix}.keys.${c}`))) return undefined;
  return specs.map((spec, c) => {
    if (r.has(`${prefix}.keys.${c}`)) return restoreKeyColumn(spec, r.json<unknown[]>(`${prefix}.keys.${c}`), documents);
    const numeric = r.f64(`${prefix}.numeric.${c}`).slice();
    if (numeric.length !== documents) throw createEngineError('INVALID_SNAPSHOT', 'custom ranking keys');
    return { spec, length: documents, numeric };
  });
}

/** Key columns saved as JSON (missing keys as null); throws a snapshot error when they do not fit. */
function restoreKeyColumns(specs: SortSpec[], saved: unknown[][], documents: number): KeyColumn[] {
  if (!Array.isArray(saved) || saved.length !== specs.length) throw createEngineError('INVALID_SNAPSHOT', 'custom ranking keys');
  return specs.map((spec, c) => restoreKeyColumn(spec, saved[c], documents));
}

function restoreKeyColumn(spec: SortSpec, raw: unknown, documents: number): KeyColumn {
  if (!Array.isArray(raw) || raw.length !== documents) throw createEngineError('INVALID_SNAPSHOT', 'custom ranking keys');
  const column: KeyColumn = { spec, length: 0, numeric: new Float64Array(documents) };
  for (let d = 0; d < documents; d++) {
    const value: unknown = raw[d];
    setKey(column, d, typeof value === 'number' || typeof value === 'string' ? value : undefined);
  }
  return column;
}
