/**
 * customRanking (and asc/desc sort criteria) precomputed once per index version: every document gets one
 * integer rank, so ranking compares integers and an empty query can walk documents in rank order and stop at
 * the first page. Records missing an attribute sort after all records having it, whatever the direction.
 * Numbers and booleans compare numerically; strings alphabetically (after numbers).
 */
import type { IndexRecord } from '@vitrine/protocol';
import { leavesAt } from '../index/attributes.ts';
import type { SortSpec } from '../settings.ts';
import type { RecordList } from '../index/record-list.ts';

export interface CustomOrder {
  /** rank[doc]: position of the document in the order. */
  rank: Uint32Array;
  /** order[i]: the document at position i (deleted documents included; callers check liveness). */
  order: Uint32Array;
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

export function computeCustomOrder(records: RecordList, specs: SortSpec[]): CustomOrder {
  const n = records.length;
  const columns = specs.map((spec) => {
    const numeric = new Float64Array(n);
    const keys: Key[] = new Array(n);
    let allNumeric = true;
    for (let d = 0; d < n; d++) {
      const key = firstKey(records.get(d), spec.path);
      keys[d] = key;
      if (typeof key === 'string') allNumeric = false;
      // Missing sorts last in both directions: +Infinity after negation for desc too.
      numeric[d] = typeof key === 'number' ? (spec.ascending ? key : -key) : Infinity;
    }
    return { spec, numeric, keys, allNumeric };
  });
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((a, b) => {
    for (const column of columns) {
      const c = column.allNumeric ? column.numeric[a] - column.numeric[b] || 0 : compareKeys(column.keys[a], column.keys[b], column.spec.ascending);
      if (c !== 0 && !Number.isNaN(c)) return c;
    }
    return a - b;
  });
  const rank = new Uint32Array(n);
  for (let i = 0; i < n; i++) rank[order[i]] = i;
  return { rank, order };
}

/** Documents ordered by one numeric column (asc or desc), missing values (NaN) last; keys lower first. */
export function computeSortOrder(values: Float64Array, ascending: boolean): CustomOrder & { keys: Float64Array } {
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
