/**
 * customRanking (and asc/desc sort criteria) precomputed once, then extended on writes: every document gets one
 * integer rank, so ranking compares integers and an empty query can walk documents in rank order and stop at
 * the first page. Records missing an attribute sort after all records having it, whatever the direction.
 * Numbers and booleans compare numerically; strings alphabetically (after numbers).
 */
import type { IndexRecord } from '@vitrine/protocol';
import { leavesAt, numericValues, parsePath, type AttributePath } from '../index/attributes.ts';
import type { SortSpec } from '../settings.ts';
import { roomyUint32, roomyFloat64 } from '../structures/growable.ts';
import type { RecordList } from '../index/record-list.ts';
import type { IndexStore, LazyDeps } from '../index/store.ts';
import { topLevel } from '../index/changes.ts';
import { partitionPoint } from '../structures/binary-search.ts';

export interface CustomOrder {
  /**
   * rank[doc]: the document's place in the order. Documents in `order` have integer ranks (their position);
   * documents appended since the last merge have fractional ranks between their neighbours' (see `appendToOrder`).
   */
  rank: Float64Array;
  /** order[i]: the document at position i (deleted documents included; callers check liveness). */
  order: Uint32Array;
  /** Documents appended (or moved) since the last merge, ascending by rank: not in `order` yet. */
  pending: number[];
  /**
   * Slots of `order` left by documents moved since the last merge (a record changed in place): a slot is
   * current when `rank[order[i]] === i`; stale ones are skipped by walks and dropped by the merge.
   */
  stale?: number;
  /** The arrays `order` and `rank` view, with room to grow in place. */
  spare?: { order: Uint32Array; rank: Float64Array };
  /** The sort keys by document, kept so documents appended later can be placed without a full sort. */
  columns?: KeyColumn[];
}

export interface KeyColumn {
  spec: SortSpec;
  /** Documents 0..length-1 have their key here. */
  length: number;
  /** The key as a number, negated for desc, Infinity when missing (all that is compared while no key is a string). */
  numeric: Float64Array;
  /**
   * The keys themselves, once some key is a string (until then the numbers say everything): a million numbers
   * held as a JS array were a million heap objects for the garbage collector to trace, 40-50 ms pauses.
   */
  keys?: Key[];
}

export type Key = number | string | undefined;

function firstKey(record: IndexRecord | undefined, path: AttributePath): Key {
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

/** The numeric form of a key (negated for desc); missing sorts last in both directions: +Infinity. */
function numericKey(key: Key, ascending: boolean): number {
  return typeof key === 'number' ? (ascending ? key : -key) : Infinity;
}

function keyColumns(records: RecordList, specs: SortSpec[], previous: KeyColumn[] | null): KeyColumn[] {
  const n = records.length;
  return specs.map((spec, c) => {
    const before = previous?.[c];
    const from = before?.length ?? 0;
    // Extending reuses the previous arrays (the previous order is dropped once replaced): keys grow in place,
    // numeric keys keep spare room so a run of small writes does not copy them every time.
    const column: KeyColumn = { spec, length: from, numeric: before !== undefined ? roomyFloat64(before.numeric, n, from) : new Float64Array(n), keys: before?.keys };
    for (let d = from; d < n; d++) setKey(column, d, firstKey(records.get(d), spec.path));
    return column;
  });
}

/** Sets `doc`'s key (`doc` at most the column's length, the numeric array long enough). */
export function setKey(column: KeyColumn, doc: number, key: Key): void {
  if (typeof key === 'string' && column.keys === undefined) column.keys = keysFromNumbers(column);
  if (column.keys !== undefined) column.keys[doc] = key;
  column.numeric[doc] = numericKey(key, column.spec.ascending);
  if (doc >= column.length) column.length = doc + 1;
}

/** The keys of a column that held numbers only, from their numeric form. */
function keysFromNumbers(column: KeyColumn): Key[] {
  const keys = new Array<Key>(column.length);
  for (let d = 0; d < column.length; d++) {
    const value = column.numeric[d];
    keys[d] = value === Infinity ? undefined : column.spec.ascending ? value : -value;
  }
  return keys;
}

function comparator(columns: KeyColumn[]): (a: number, b: number) => number {
  return (a, b) => {
    for (const column of columns) {
      const c = column.keys === undefined ? column.numeric[a] - column.numeric[b] || 0 : compareKeys(column.keys[a], column.keys[b], column.spec.ascending);
      if (c !== 0 && !Number.isNaN(c)) return c;
    }
    return a - b;
  };
}

export function computeCustomOrder(records: RecordList, specs: SortSpec[]): CustomOrder {
  const columns = keyColumns(records, specs, null);
  return { ...sortedOrder(records.length, comparator(columns)), columns };
}

/** How much work each step of `customOrdersInSteps` does (tests make them tiny). */
export interface OrderSteps {
  /** Records whose keys are read per step: a parse each, ~5 us for the demo's products. */
  keysPerStep: number;
  /** Documents sorted at once, in runs merged afterwards. */
  run: number;
  /** Documents placed per merge step (and ranks set per step at the end). */
  mergePerStep: number;
}

/**
 * Measured at a million demo products (docs/PERFORMANCE.md, restart): each step a few milliseconds to about
 * twenty, the search thread's snapshot writer answering searches between them.
 */
export const ORDER_STEPS: OrderSteps = { keysPerStep: 2048, run: 16384, mergePerStep: 1 << 17 };

/**
 * The orders `computeCustomOrder` gives for each of `lists`, built in steps (yielding between them) for a caller
 * answering searches meanwhile: a snapshot of an index whose searches never built them (an import, a restart
 * from a snapshot without them). Each record is parsed once for all the lists; each order is then sorted in runs
 * and the runs merged in slices. The records must not change until the last step (a snapshot's rule).
 */
export function* customOrdersInSteps(records: RecordList, lists: readonly SortSpec[][], steps: OrderSteps = ORDER_STEPS): Generator<void, CustomOrder[], void> {
  const n = records.length;
  const columns = lists.map((specs) => specs.map((spec): KeyColumn => ({ spec, length: 0, numeric: new Float64Array(n) })));
  for (let from = 0; from < n; from += steps.keysPerStep) {
    const to = Math.min(n, from + steps.keysPerStep);
    for (let doc = from; doc < to; doc++) {
      const record = records.get(doc);
      for (const list of columns) for (const column of list) setKey(column, doc, firstKey(record, column.spec.path));
    }
    yield;
  }
  const orders: CustomOrder[] = [];
  for (const list of columns) orders.push({ ...(yield* sortedOrderInSteps(n, comparator(list), steps)), columns: list });
  return orders;
}

/**
 * `sortedOrder` in steps: runs of `steps.run` documents sorted each in one step, then merged pairwise, level by
 * level, `steps.mergePerStep` documents placed per step. `compare` must be a total order (ties broken by id), so
 * the result is exactly the one sort's.
 */
function* sortedOrderInSteps(n: number, compare: (a: number, b: number) => number, steps: OrderSteps): Generator<void, CustomOrder, void> {
  let from = new Uint32Array(n);
  for (let i = 0; i < n; i++) from[i] = i;
  for (let start = 0; start < n; start += steps.run) {
    from.subarray(start, Math.min(n, start + steps.run)).sort(compare);
    yield;
  }
  let into = new Uint32Array(n);
  for (let width = steps.run; width < n; width *= 2) {
    let budget = steps.mergePerStep;
    for (let low = 0; low < n; low += 2 * width) {
      const middle = Math.min(n, low + width);
      const high = Math.min(n, low + 2 * width);
      let i = low;
      let j = middle;
      for (let k = low; k < high; ) {
        const stop = Math.min(high, k + budget);
        budget -= stop - k;
        for (; k < stop; k++) into[k] = j >= high || (i < middle && compare(from[i], from[j]) < 0) ? from[i++] : from[j++];
        if (budget === 0) {
          yield;
          budget = steps.mergePerStep;
        }
      }
    }
    [from, into] = [into, from];
    yield;
  }
  const rank = new Float64Array(n);
  for (let start = 0; start < n; start += steps.mergePerStep) {
    for (let i = start, end = Math.min(n, start + steps.mergePerStep); i < end; i++) rank[from[i]] = i;
    yield;
  }
  return { rank, order: from, pending: [] };
}

function sortedOrder(n: number, compare: (a: number, b: number) => number): CustomOrder {
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort(compare);
  const rank = new Float64Array(n);
  for (let i = 0; i < n; i++) rank[order[i]] = i;
  return { rank, order, pending: [] };
}

/**
 * The order after documents `from`.. were appended (see `appendToOrder`). Old documents keep the keys they were
 * placed with (a tombstoned one stays where it was; queries skip it), so the order of live documents is exactly
 * the one a full sort would give. Without stored keys (an order restored from a snapshot), it is rebuilt.
 */
export function extendCustomOrder(previous: CustomOrder, records: RecordList, specs: SortSpec[], from: number): CustomOrder {
  if (from === records.length) return previous;
  if (previous.columns === undefined || previous.rank.length !== from) return computeCustomOrder(records, specs);
  const columns = keyColumns(records, specs, previous.columns);
  return { ...appendToOrder(previous, from, records.length, comparator(columns)), columns };
}

/** Pending documents merged into `order` once they are this many, or 1/256 of the order if more. */
const MIN_PENDING_MERGE = 1024;

/**
 * Places documents from..to-1 into an order of the documents below `from`, by `compare`, without touching the
 * whole order: each new document's place among the ordered ones by binary search, then among the pending ones
 * in the same gap, whose fractional ranks are spread evenly between the two neighbours' integer ranks. Once
 * the pending documents are many, they are merged into `order` and every rank becomes an integer again: a
 * small write costs O(new × log n), and the O(n) merge comes once per many writes.
 */
export function appendToOrder(
  previous: CustomOrder,
  from: number,
  to: number,
  compare: (a: number, b: number) => number,
  maxPending = Math.max(MIN_PENDING_MERGE, previous.order.length >>> 8),
): CustomOrder {
  const rankBuffer = roomyFloat64(previous.spare?.rank ?? previous.rank, to, previous.rank.length);
  const rank = rankBuffer.subarray(0, to);
  const order = previous.order;
  const pending = previous.pending.slice();
  const added: number[] = [];
  for (let doc = from; doc < to; doc++) added.push(doc);
  added.sort(compare);
  const stale = previous.stale ?? 0;
  const spare = { order: previous.spare?.order ?? order, rank: rankBuffer };
  // Many at once (an import, which snapshots now extend the order by): one linear merge. Placed one by one, those
  // sharing a gap (keys beyond every earlier one: newer dates, say) would each renumber all the gap's before them.
  if (added.length > maxPending) return mergeSorted(mergePending({ rank, order, pending, spare, stale }), added, compare);
  for (const doc of added) placePending(order, rank, pending, stale, doc, compare);
  if (pending.length <= maxPending) return { rank, order, pending, spare, stale };
  return mergePending({ rank, order, pending, spare, stale });
}

/**
 * Places `doc` (not in `order`'s current slots, not in `pending`) among the pending documents: its gap in
 * `order` by binary search, then its place among the pending documents of that gap, whose fractional ranks are
 * spread evenly below the gap's integer rank. With stale slots, a slot compares as the current one before it
 * (the search stays monotonic), and the gap's pending documents are those above the previous current slot.
 */
function placePending(order: Uint32Array, rank: Float64Array, pending: number[], stale: number, doc: number, compare: (a: number, b: number) => number): void {
  const current = (i: number): number => {
    if (stale > 0) while (i >= 0 && rank[order[i]] !== i) i--;
    return i;
  };
  // The gap: after the current slot before it, at order[gap] (a current slot, or the end).
  const gap = partitionPoint(0, order.length, (i) => {
    const slot = current(i);
    return slot < 0 || compare(order[slot], doc) < 0;
  });
  const below = current(gap - 1);
  const first = partitionPoint(0, pending.length, (i) => rank[pending[i]] <= below);
  const end = partitionPoint(first, pending.length, (i) => rank[pending[i]] < gap);
  let at = first;
  while (at < end && compare(pending[at], doc) < 0) at++;
  pending.splice(at, 0, doc);
  const count = end - first + 1;
  for (let k = 0; k < count; k++) rank[pending[first + k]] = gap - 1 + (k + 1) / (count + 1);
}

/**
 * The order after `doc`'s keys changed (its record changed in place; `compare` reads the new keys): it leaves
 * its slot (which goes stale) or its place among the pending documents, and is placed again as pending.
 * O(log n + pending); the merge that follows many of these drops the stale slots.
 */
export function moveInOrder(
  previous: CustomOrder,
  doc: number,
  compare: (a: number, b: number) => number,
  maxPending = Math.max(MIN_PENDING_MERGE, previous.order.length >>> 8),
): CustomOrder {
  const { rank, order } = previous;
  const pending = previous.pending.slice();
  let stale = previous.stale ?? 0;
  const at = rank[doc];
  if (Number.isInteger(at) && at < order.length && order[at] === doc) stale++;
  else {
    let i = partitionPoint(0, pending.length, (k) => rank[pending[k]] < at);
    while (i < pending.length && pending[i] !== doc) i++;
    if (i < pending.length) pending.splice(i, 1);
  }
  // Its old slot reads as stale from now on (no slot has rank -1), and the search below skips it.
  rank[doc] = -1;
  placePending(order, rank, pending, stale, doc, compare);
  const next: CustomOrder = { ...previous, pending, stale };
  return pending.length <= maxPending ? next : mergePending(next);
}

/** The same order with every pending document merged into `order` (integer ranks again): O(n). */
export function mergePending(current: CustomOrder): CustomOrder {
  if (current.pending.length === 0) return current;
  const { rank, order, pending } = current;
  const stale = current.stale ?? 0;
  const total = order.length - stale + pending.length;
  let merged: Uint32Array;
  let orderSpare: Uint32Array;
  if (stale > 0) {
    // Stale slots shift everything after them: merged into a fresh array by walking the order.
    merged = new Uint32Array(total);
    orderSpare = merged;
    let k = 0;
    walkOrder(current, (doc) => {
      merged[k++] = doc;
      return true;
    });
  } else {
    orderSpare = roomyUint32(current.spare?.order ?? order, total, 0);
    // Merge from the back, so that the buffer may be the old order itself.
    let i = order.length - 1;
    let j = pending.length - 1;
    for (let k = total - 1; k >= 0; k--) {
      if (j >= 0 && (i < 0 || rank[pending[j]] > i)) orderSpare[k] = pending[j--];
      else orderSpare[k] = order[i--];
    }
    merged = orderSpare.subarray(0, total);
  }
  for (let k = 0; k < total; k++) rank[merged[k]] = k;
  return { ...current, order: merged, pending: [], stale: 0, spare: { order: orderSpare, rank: current.spare?.rank ?? rank } };
}

/**
 * `base` (no pending document, no stale slot, its ranks array long enough) with `added` (sorted by `compare`, not
 * in it) merged in: O(n + added), from the back so that the buffer may be the old order itself.
 */
function mergeSorted(base: CustomOrder, added: readonly number[], compare: (a: number, b: number) => number): CustomOrder {
  const { order, rank } = base;
  const total = order.length + added.length;
  const buffer = roomyUint32(base.spare?.order ?? order, total, 0);
  let i = order.length - 1;
  let j = added.length - 1;
  for (let k = total - 1; k >= 0; k--) buffer[k] = j >= 0 && (i < 0 || compare(added[j], order[i]) > 0) ? added[j--] : order[i--];
  const merged = buffer.subarray(0, total);
  for (let k = 0; k < total; k++) rank[merged[k]] = k;
  return { ...base, order: merged, pending: [], stale: 0, spare: { order: buffer, rank: base.spare?.rank ?? rank } };
}

/** Visits every document in order (the ordered ones and the pending ones between them) until `visit` returns false. */
export function walkOrder(current: CustomOrder, visit: (doc: number) => boolean): void {
  const { order, pending, rank } = current;
  // A stale slot (its document moved since the last merge) is skipped: the document is visited where it is now.
  // Telling costs a random read of `rank` per slot (8 MB at a million documents): only done when some are.
  const checkStale = (current.stale ?? 0) > 0;
  let j = 0;
  for (let i = 0; i < order.length; i++) {
    while (j < pending.length && rank[pending[j]] < i) if (!visit(pending[j++])) return;
    if ((!checkStale || rank[order[i]] === i) && !visit(order[i])) return;
  }
  while (j < pending.length) if (!visit(pending[j++])) return;
}

/**
 * The order carried over to a compacted store (see `index/compaction.ts`), whose ids are the old ones renumbered
 * in the same relative order (`newIdOf`, -1 for ids not carried over): the old order walked once, instead of a
 * sort that reads every record again. Null when some new id would be left without a place.
 */
export function remapCustomOrder(previous: CustomOrder, newIdOf: (oldDoc: number) => number, capacity: number): CustomOrder | null {
  if (previous.columns === undefined) return null;
  const order = new Uint32Array(capacity);
  const rank = new Float64Array(capacity);
  let placed = 0;
  walkOrder(previous, (oldDoc) => {
    const doc = newIdOf(oldDoc);
    if (doc >= 0 && placed < capacity) {
      order[placed] = doc;
      rank[doc] = placed++;
    }
    return true;
  });
  if (placed !== capacity) return null;
  const oldCount = previous.rank.length;
  const columns = previous.columns.map((column): KeyColumn => {
    const numeric = new Float64Array(capacity);
    const keys = column.keys === undefined ? undefined : new Array<Key>(capacity);
    for (let oldDoc = 0; oldDoc < oldCount; oldDoc++) {
      const doc = newIdOf(oldDoc);
      if (doc < 0) continue;
      numeric[doc] = column.numeric[oldDoc];
      if (keys !== undefined) keys[doc] = column.keys![oldDoc];
    }
    return { spec: column.spec, length: capacity, numeric, keys };
  });
  return { rank, order, pending: [], columns };
}

/** The store's order for these criteria, built once and then extended on writes. */
export function customOrderFor(store: IndexStore, specs: SortSpec[]): CustomOrder {
  return store.cached(
    customOrderKey(specs),
    () => computeCustomOrder(store.records, specs),
    (previous, from) => extendCustomOrder(previous, store.records, specs, from),
    customOrderDeps(store, specs),
  );
}

/** How a customRanking order follows a record changed in place: its keys read again, the document moved. */
export function customOrderDeps(store: IndexStore, specs: SortSpec[]): LazyDeps<CustomOrder> {
  return {
    reads: specs.map((spec) => topLevel(spec.attribute)),
    update: (previous, doc, after) => {
      // An order restored without its keys cannot compare: sorted again (snapshots have kept keys for long).
      if (previous.columns === undefined) return computeCustomOrder(store.records, specs);
      for (const column of previous.columns) setKey(column, doc, firstKey(after, column.spec.path));
      return moveInOrder(previous, doc, comparator(previous.columns));
    },
    // A document appended: its keys taken now, so that extending the order (`keyColumns`) need not parse its
    // record again. Only right after the keys already held (or over one noted already): keys stay a prefix.
    note: (previous, doc, record) => {
      for (const column of previous.columns ?? []) {
        if (doc > column.length) continue;
        column.numeric = roomyFloat64(column.numeric, doc + 1, column.length);
        setKey(column, doc, firstKey(record, column.spec.path));
      }
    },
  };
}

/** An order by one numeric column (asc or desc), missing values (NaN) last, with its keys (and the array they view). */
export type SortOrder = CustomOrder & { keys: Float64Array; keySpare?: Float64Array };

/** A sort key from a numeric column's first value (NaN: none, last in both directions). */
function sortKey(value: number, ascending: boolean): number {
  return Number.isNaN(value) ? Infinity : ascending ? value : -value;
}

function sortKeyCompare(keys: Float64Array): (a: number, b: number) => number {
  return (a, b) => (keys[a] === keys[b] ? a - b : keys[a] < keys[b] ? -1 : 1);
}

export function computeSortOrder(values: Float64Array, ascending: boolean): SortOrder {
  const n = values.length;
  const keys = new Float64Array(n);
  for (let d = 0; d < n; d++) keys[d] = sortKey(values[d], ascending);
  return { ...sortedOrder(n, sortKeyCompare(keys)), keys };
}

/** How a sort order follows a record changed in place: its key read from the record, the document moved. */
export function sortOrderDeps(attribute: string, ascending: boolean): LazyDeps<SortOrder> {
  return {
    reads: [topLevel(attribute)],
    update: (previous, doc, after) => {
      // As the numeric column's first value: the record's first number at the path.
      previous.keys[doc] = sortKey(numericValues(after, parsePath(attribute))[0] ?? NaN, ascending);
      return moveInOrder(previous, doc, sortKeyCompare(previous.keys)) as SortOrder;
    },
  };
}

/** `computeSortOrder` after documents were appended to `values` (see `appendToOrder`). */
export function extendSortOrder(previous: SortOrder, values: Float64Array, ascending: boolean): SortOrder {
  const from = previous.keys.length;
  const n = values.length;
  if (from === n) return previous;
  if (from > n) return computeSortOrder(values, ascending);
  const keyBuffer = roomyFloat64(previous.keySpare ?? previous.keys, n, from);
  const keys = keyBuffer.subarray(0, n);
  for (let d = from; d < n; d++) keys[d] = sortKey(values[d], ascending);
  return { ...appendToOrder(previous, from, n, sortKeyCompare(keys)), keys, keySpare: keyBuffer };
}

/**
 * Whether walking a rank order beats keying a bucket of `count` documents out of `capacity` to find `need`.
 * Walking costs about need × capacity / count steps, each a sequential read and a bit test (~5 ns measured at
 * a million documents); keying costs a random read per document (10–50 ns) and a selection over log(need).
 */
export function orderWalkPays(count: number, capacity: number, need: number): boolean {
  return (need * capacity) / Math.max(1, count) < count * 8;
}
