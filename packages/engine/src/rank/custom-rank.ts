/**
 * customRanking (and asc/desc sort criteria) precomputed once, then extended on writes: every document gets one
 * integer rank, so ranking compares integers and an empty query can walk documents in rank order and stop at
 * the first page. Records missing an attribute sort after all records having it, whatever the direction.
 * Numbers and booleans compare numerically; strings alphabetically (after numbers).
 */
import type { IndexRecord } from '@vitrine/protocol';
import { leavesAt } from '../index/attributes.ts';
import type { SortSpec } from '../settings.ts';
import { createEngineError } from '../errors.ts';
import { roomyUint32, roomyFloat64 } from '../structures/growable.ts';
import type { RecordList } from '../index/record-list.ts';
import type { IndexStore } from '../index/store.ts';

export interface CustomOrder {
  /** rank[doc]: position of the document in the order. */
  rank: Uint32Array;
  /** order[i]: the document at position i (deleted documents included; callers check liveness). */
  order: Uint32Array;
  /** The arrays `order` and `rank` view, with room to grow in place (see `mergeAppended`). */
  spare?: { order: Uint32Array; rank: Uint32Array };
  /** The sort keys by document, kept so documents appended later can be placed without a full sort. */
  columns?: KeyColumn[];
}

export interface KeyColumn {
  spec: SortSpec;
  /** The key as a number, negated for desc, Infinity when missing (valid for comparing when allNumeric). */
  numeric: Float64Array;
  keys: Key[];
  allNumeric: boolean;
}

type Key = number | string | undefined;

function firstKey(record: IndexRecord | undefined, path: string[]): Key {
  if (record === undefined) return undefined;
  let key: Key;
  leavesAt(record, path, (leaf) => {
    if (key !== undefined) return;
    if (typeof leaf === 'number' && Number.isFinite(leaf)) key = leaf;
    else if (typeof leaf === 'boolean') key = leaf ? 1 : 0;
    else if (typeof leaf === 'string') key = leaf;
  });
  return key;
}

function compareKeys(a: Key, b: Key, ascending: boolean): number {
  if (a === b) return 0;
  if (a === undefined) return 1;
  if (b === undefined) return -1;
  let c: number;
  if (typeof a === 'number' && typeof b === 'number') c = a - b;
  else if (typeof a === 'number') c = -1;
  else if (typeof b === 'number') c = 1;
  else c = a < b ? -1 : 1;
  return ascending ? c : -c;
}

/** Cache key of the order for these criteria (shared by queries and snapshots). */
export function customOrderKey(specs: SortSpec[]): string {
  return `custom:${JSON.stringify(specs)}`;
}

function keyColumns(records: RecordList, specs: SortSpec[], previous: KeyColumn[] | null): KeyColumn[] {
  const n = records.length;
  return specs.map((spec, c) => {
    const before = previous?.[c];
    const from = before?.keys.length ?? 0;
    // Extending reuses the previous arrays (the previous order is dropped once replaced): keys grow in place,
    // numeric keys keep spare room so a run of small writes does not copy them every time.
    const numeric = before !== undefined ? roomyFloat64(before.numeric, n, from) : new Float64Array(n);
    const keys: Key[] = before !== undefined ? before.keys : new Array<Key>(n);
    let allNumeric = before?.allNumeric ?? true;
    for (let d = from; d < n; d++) {
      const key = firstKey(records.get(d), spec.path);
      keys[d] = key;
      if (typeof key === 'string') allNumeric = false;
      // Missing sorts last in both directions: +Infinity after negation for desc too.
      numeric[d] = typeof key === 'number' ? (spec.ascending ? key : -key) : Infinity;
    }
    return { spec, numeric, keys, allNumeric };
  });
}

/** Key columns saved in a snapshot (missing keys as null); throws a snapshot error when they do not fit. */
export function restoreKeyColumns(specs: SortSpec[], saved: unknown[][], documents: number): KeyColumn[] {
  if (!Array.isArray(saved) || saved.length !== specs.length) throw createEngineError('INVALID_SNAPSHOT', 'custom ranking keys');
  return specs.map((spec, c) => {
    const raw = saved[c];
    if (!Array.isArray(raw) || raw.length !== documents) throw createEngineError('INVALID_SNAPSHOT', 'custom ranking keys');
    const keys: Key[] = new Array<Key>(documents);
    const numeric = new Float64Array(documents);
    let allNumeric = true;
    for (let d = 0; d < documents; d++) {
      const value = raw[d];
      const key: Key = typeof value === 'number' || typeof value === 'string' ? value : undefined;
      keys[d] = key;
      if (typeof key === 'string') allNumeric = false;
      numeric[d] = typeof key === 'number' ? (spec.ascending ? key : -key) : Infinity;
    }
    return { spec, numeric, keys, allNumeric };
  });
}

function comparator(columns: KeyColumn[]): (a: number, b: number) => number {
  return (a, b) => {
    for (const column of columns) {
      const c = column.allNumeric ? column.numeric[a] - column.numeric[b] || 0 : compareKeys(column.keys[a], column.keys[b], column.spec.ascending);
      if (c !== 0 && !Number.isNaN(c)) return c;
    }
    return a - b;
  };
}

export function computeCustomOrder(records: RecordList, specs: SortSpec[]): CustomOrder {
  const n = records.length;
  const columns = keyColumns(records, specs, null);
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort(comparator(columns));
  const rank = new Uint32Array(n);
  for (let i = 0; i < n; i++) rank[order[i]] = i;
  return { rank, order, columns };
}

/**
 * The order after documents `from`.. were appended: the new documents are sorted among themselves and merged
 * in by binary search, O(new × log n) comparisons plus a linear copy, where a rebuild sorts everything. Old
 * documents keep the keys they were placed with (a tombstoned one stays where it was; queries skip it), so the
 * order of live documents is exactly the one a full sort would give. Without stored keys (an order restored from
 * a snapshot), it is rebuilt.
 */
export function extendCustomOrder(previous: CustomOrder, records: RecordList, specs: SortSpec[], from: number): CustomOrder {
  if (from === records.length) return previous;
  if (previous.columns === undefined || previous.order.length !== from) return computeCustomOrder(records, specs);
  const columns = keyColumns(records, specs, previous.columns);
  return { ...mergeAppended(previous, from, records.length, comparator(columns)), columns };
}

/**
 * Merges documents from..to-1 into an order of the documents below `from`, by `compare`, in place in the
 * previous arrays when they have room (see `roomyUint32`): each new document's position by binary search, the
 * blocks between them moved up with `copyWithin`, and ranks renumbered from the first insertion on.
 */
export function mergeAppended(previous: CustomOrder, from: number, to: number, compare: (a: number, b: number) => number): CustomOrder {
  const added = new Uint32Array(to - from);
  for (let i = 0; i < added.length; i++) added[i] = from + i;
  added.sort(compare);
  const oldOrder = previous.order;
  const positions = new Uint32Array(added.length);
  let lo = 0;
  for (let j = 0; j < added.length; j++) {
    // First old position ordered after the added document (ids differ, so never equal).
    let hi = oldOrder.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compare(oldOrder[mid], added[j]) < 0) lo = mid + 1;
      else hi = mid;
    }
    positions[j] = lo;
  }
  const orderBuffer = roomyUint32(previous.spare?.order ?? oldOrder, to, oldOrder.length);
  const rankBuffer = roomyUint32(previous.spare?.rank ?? previous.rank, to, previous.rank.length);
  let end = oldOrder.length;
  for (let j = added.length - 1; j >= 0; j--) {
    orderBuffer.copyWithin(positions[j] + j + 1, positions[j], end);
    orderBuffer[positions[j] + j] = added[j];
    end = positions[j];
  }
  for (let p = added.length === 0 ? to : positions[0]; p < to; p++) rankBuffer[orderBuffer[p]] = p;
  return { order: orderBuffer.subarray(0, to), rank: rankBuffer.subarray(0, to), spare: { order: orderBuffer, rank: rankBuffer } };
}

/** The store's order for these criteria, built once and then extended on writes. */
export function customOrderFor(store: IndexStore, specs: SortSpec[]): CustomOrder {
  return store.cached(
    customOrderKey(specs),
    () => computeCustomOrder(store.records, specs),
    (previous, from) => extendCustomOrder(previous, store.records, specs, from),
  );
}

/** Documents ordered by one numeric column (asc or desc), missing values (NaN) last; keys lower first. */
/** An order by one numeric column, with its keys (and the array they view, with room to grow). */
export type SortOrder = CustomOrder & { keys: Float64Array; keySpare?: Float64Array };

export function computeSortOrder(values: Float64Array, ascending: boolean): SortOrder {
  const n = values.length;
  const keys = new Float64Array(n);
  for (let d = 0; d < n; d++) keys[d] = Number.isNaN(values[d]) ? Infinity : ascending ? values[d] : -values[d];
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((a, b) => (keys[a] === keys[b] ? a - b : keys[a] < keys[b] ? -1 : 1));
  const rank = new Uint32Array(n);
  for (let i = 0; i < n; i++) rank[order[i]] = i;
  return { rank, order, keys };
}

/** `computeSortOrder` after documents were appended to `values` (see `extendCustomOrder`). */
export function extendSortOrder(previous: SortOrder, values: Float64Array, ascending: boolean): SortOrder {
  const from = previous.keys.length;
  const n = values.length;
  if (from === n) return previous;
  if (from > n) return computeSortOrder(values, ascending);
  const keyBuffer = roomyFloat64(previous.keySpare ?? previous.keys, n, from);
  const keys = keyBuffer.subarray(0, n);
  for (let d = from; d < n; d++) keys[d] = Number.isNaN(values[d]) ? Infinity : ascending ? values[d] : -values[d];
  return { ...mergeAppended(previous, from, n, (a, b) => (keys[a] === keys[b] ? a - b : keys[a] < keys[b] ? -1 : 1)), keys, keySpare: keyBuffer };
}
