/**
 * Exact facet counts over a match set, and the selection of the values to return.
 *
 * Two ways to count, picked per facet by estimated cost: walk the matching documents and bump a counter per
 * value id (cost ∝ matches × values per document), or intersect each value's document bitset with the match set
 * by popcount (cost ∝ values × capacity / 32). Small match sets use the first, big sets over few values the
 * second.
 */
import type { FacetStats } from '@vitrine/protocol';
import { isSparse, nextSetWord, type Bitset } from '../structures/bitset.ts';
import { NONE, type FacetColumn } from '../index/facet-column.ts';
import { roomy } from '../structures/growable.ts';
import { kthSmallest } from '../structures/kth-smallest.ts';

/**
 * Measured costs, in nanoseconds: walking the matches costs a bit scan and a cache miss per document for the
 * first facet row, little for each further facet in the same row; a popcount intersection streams one bitset
 * word per value.
 */
const WALK_PER_DOC = 20;
const WALK_PER_DOC_PER_FACET = 5;
const POPCOUNT_PER_WORD = 2;

/** Row storage: the narrowest element that holds every walked column's value ids and its "no value" id. */
type RowArray = Uint8Array | Uint16Array | Uint32Array;

/** Values of several single-valued facets side by side, one row per document (see `countFacets`). */
export interface FacetRows {
  rows: RowArray;
  width: number;
  /** Per column, the id standing for "no value" (the column's value count when the rows were written). */
  none: number[];
  /** The array `rows` views, with room to grow (see `extendFacetRows`). */
  buffer?: RowArray;
}

/**
 * The narrowest row element for columns with up to `maxValues` values (plus "no value"). Rows are read at
 * random positions (the matching documents are spread over the whole id range), so their size decides how
 * many of those reads hit the cache: measured at 1M documents and 4 facets, one-byte rows count a 20k-document
 * match set 3–4× faster than four-byte rows.
 */
function rowArrayFor(maxValues: number, length: number): RowArray {
  if (maxValues <= 0xff) return new Uint8Array(length);
  if (maxValues <= 0xffff) return new Uint16Array(length);
  return new Uint32Array(length);
}

/** The largest id a row element of this array can hold. */
function rowCapacity(rows: RowArray): number {
  return rows instanceof Uint8Array ? 0xff : rows instanceof Uint16Array ? 0xffff : 0xffffffff;
}

/** Interleaves the value ids of single-valued columns, so one document's values share a cache line. */
export function buildFacetRows(columns: FacetColumn[], documents: number): FacetRows {
  const width = columns.length;
  const rows = rowArrayFor(Math.max(0, ...columns.map((column) => column.valueCount)), documents * width);
  columns.forEach((column, c) => interleave(rows, width, c, column.singleValued() as Uint32Array, column.valueCount, 0, documents));
  return { rows, width, none: columns.map((column) => column.valueCount) };
}

/**
 * Column `c` of the rows of documents `from`..`to`-1: each one's value id, `none` for no value. One loop over
 * plain locals: written inline with the column's value count read per document, building four columns of a
 * million rows took 40-60 ms (the first search asking for a new set of facets paid for it).
 */
function interleave(rows: RowArray, width: number, c: number, single: Uint32Array, none: number, from: number, to: number): void {
  for (let d = from, k = from * width + c; d < to; d++, k += width) {
    const value = single[d];
    rows[k] = value === NONE ? none : value;
  }
}

/**
 * The rows after documents `from`.. were appended: older rows are kept as they are (a document's values never
 * change; a replaced record gets a new id), only the new documents' values are read.
 */
export function extendFacetRows(previous: FacetRows, columns: FacetColumn[], from: number, documents: number): FacetRows {
  if (from === documents) return previous;
  const width = columns.length;
  // A column that stopped being single-valued is not walked any more, so it never asks for these rows.
  const singles = columns.map((column) => column.singleValued());
  const outgrown = columns.some((column) => column.valueCount > rowCapacity(previous.rows));
  if (previous.width !== width || outgrown || singles.some((single) => single === null)) return buildFacetRows(columns, documents);
  // In place, with room to spare: the previous rows are dropped once these replace them.
  const buffer = roomy(previous.buffer ?? previous.rows, documents * width, from * width);
  const rows = buffer.subarray(0, documents * width);
  singles.forEach((single, c) => {
    const none = columns[c].valueCount;
    // New values took ids from the old "no value" id on: move the old rows' "no value" to the new one.
    if (previous.none[c] !== none) for (let d = 0; d < from; d++) if (rows[d * width + c] === previous.none[c]) rows[d * width + c] = none;
    interleave(rows, width, c, single as Uint32Array, none, from, documents);
  });
  return { rows, width, none: columns.map((column) => column.valueCount), buffer };
}

/**
 * Counts several facets at once. Single-valued facets cheaper to count by walking the matches share a pass over
 * the match set, reading each document's values from one interleaved row (`rowsFor` gives the rows holding the
 * columns chosen here, and where each is in a row); the others intersect each value's bitset with the matches
 * by popcount. The rows may hold more columns than are walked (see `sharedRowColumns`).
 */
export function countFacets(
  columns: FacetColumn[],
  matches: Bitset,
  matchCount: number,
  rowsFor: (walked: FacetColumn[]) => { rows: FacetRows; positions: number[] },
): Uint32Array[] {
  const result: Uint32Array[] = new Array(columns.length);
  // Walk the single-valued facets whose popcounts would cost more than their share of a walk, if the walk as a
  // whole is cheaper than those popcounts.
  let walked: number[] = [];
  let popcountSaved = 0;
  columns.forEach((column, i) => {
    const popcountCost = column.valueCount * matches.words.length * POPCOUNT_PER_WORD;
    if (column.singleValued() !== null && popcountCost > matchCount * WALK_PER_DOC_PER_FACET) {
      walked.push(i);
      popcountSaved += popcountCost;
    }
  });
  if (matchCount * (WALK_PER_DOC + walked.length * WALK_PER_DOC_PER_FACET) > popcountSaved) walked = [];
  const inWalk = new Set(walked);
  columns.forEach((column, i) => {
    if (!inWalk.has(i)) result[i] = countFacetValues(column, matches, matchCount);
  });
  if (walked.length === 0) return result;
  const { rows: { rows, width }, positions } = rowsFor(walked.map((i) => columns[i]));
  // One counter array per walked facet, laid end to end, with one extra slot each for "no value".
  const bases = new Uint32Array(walked.length);
  let total = 0;
  walked.forEach((i, c) => {
    bases[c] = total;
    total += columns[i].valueCount + 1;
  });
  const counts = new Uint32Array(total);
  walkRows(matches.words, isSparse(matchCount, matches.words.length), rows, width, positions, bases, counts);
  walked.forEach((i, c) => (result[i] = counts.subarray(bases[c], bases[c] + columns[i].valueCount)));
  return result;
}

/**
 * Bumps, for each matching document, the counter of each of its row's values, four columns per pass at most: a
 * pass has no inner loop over columns (its width tests are the same every time, so they cost next to nothing),
 * and takes about 60% of the time of a pass with that loop. More than four columns take several passes (rare:
 * only single-valued facets are walked, and only when cheaper than popcounts). `positions[c]`: where walked
 * column c is in a row (rows may hold more columns than are walked: see `sharedRowColumns`).
 */
function walkRows(words: Uint32Array, sparse: boolean, rows: RowArray, width: number, positions: number[], bases: Uint32Array, counts: Uint32Array): void {
  const limit = Math.min(words.length, ((rows.length / width) + 31) >>> 5);
  for (let first = 0; first < positions.length; first += 4) {
    const n = Math.min(4, positions.length - first);
    const [p0, p1 = 0, p2 = 0, p3 = 0] = positions.slice(first, first + 4);
    const b0 = bases[first];
    const b1 = bases[first + 1];
    const b2 = bases[first + 2];
    const b3 = bases[first + 3];
    for (let i = sparse ? nextSetWord(words, 0, limit) : 0; i < limit; i = sparse ? nextSetWord(words, i + 1, limit) : i + 1) {
      let w = words[i] | 0;
      while (w !== 0) {
        const low = w & -w;
        const row = ((i << 5) + (31 - Math.clz32(low))) * width;
        w ^= low;
        counts[b0 + rows[row + p0]]++;
        if (n > 1) counts[b1 + rows[row + p1]]++;
        if (n > 2) counts[b2 + rows[row + p2]]++;
        if (n > 3) counts[b3 + rows[row + p3]]++;
      }
    }
  }
}

/**
 * The columns whose rows are shared by every walk of some of them: the single-valued ones (of `columns`, the
 * countable facets) with one-byte ids. Any walk of these columns reads one set of rows, however few of them it
 * walks, so a storefront asking for a new set of facets does not have its first search build rows for it (tens
 * of milliseconds at 1M documents), and sets do not each keep a copy. A walk including a wider column reads rows
 * of its own set (its ids would widen every row of the shared ones; walking it in a second pass over the
 * matches costs facet-heavy searches 20-30%).
 */
export function sharedRowColumns(columns: FacetColumn[]): FacetColumn[] {
  return columns.filter((column) => oneByteRows(column) && column.singleValued() !== null);
}

/** Whether a column's ids and its "no value" fit one-byte rows. */
function oneByteRows(column: FacetColumn): boolean {
  return column.valueCount < 0xff;
}

export function countFacetValues(column: FacetColumn, matches: Bitset, matchCount: number): Uint32Array {
  const counts = new Uint32Array(column.valueCount);
  const docCount = column.offsets.length - 1;
  const valuesPerDoc = docCount === 0 ? 1 : Math.max(1, column.values.length / docCount);
  const walkCost = matchCount * valuesPerDoc * 4;
  const popcountCost = column.valueCount * (matches.words.length + 8);
  if (popcountCost < walkCost) {
    for (let v = 0; v < counts.length; v++) counts[v] = column.docsWith(v, matches.capacity).countAnd(matches);
    return counts;
  }
  const offsets = column.offsets.data;
  const values = column.values.data;
  const words = matches.words;
  const limit = Math.min(words.length, (docCount + 31) >>> 5);
  const sparse = isSparse(matchCount, limit);
  for (let i = sparse ? nextSetWord(words, 0, limit) : 0; i < limit; i = sparse ? nextSetWord(words, i + 1, limit) : i + 1) {
    let w = words[i] | 0;
    while (w !== 0) {
      const low = w & -w;
      const doc = (i << 5) + (31 - Math.clz32(low));
      w ^= low;
      for (let k = offsets[doc], end = offsets[doc + 1]; k < end; k++) counts[values[k]]++;
    }
  }
  return counts;
}

/**
 * The values to return: by count descending then value ascending (`count`), or by value (`alpha`),
 * at most `limit` of them, zero counts left out.
 */
export function topFacetValues(column: FacetColumn, counts: Uint32Array, limit: number, sortBy: 'count' | 'alpha'): Record<string, number> {
  // Each value becomes one number that sorts in the wanted order — (highest count - count) × values + label
  // rank, or the label rank alone for `alpha` — so the sort is a typed array's native numeric sort rather than
  // a comparator called per comparison (which cost more than the counting itself on a 200-value facet). Keys
  // are distinct (ranks are), and stay exact: highest count × values is far below 2^53. `counts` may be longer
  // than the column's values (a reused buffer): the values are what `ranks` covers.
  const ranks = column.labelRanks();
  const values = ranks.length;
  // One pass for the highest count and how many values have one, so the keys take no more room than those
  // (a facet of a million values may have a handful counted).
  let highest = 0;
  let counted = 0;
  for (let v = 0; v < values; v++) {
    if (!(counts[v] > 0)) continue;
    counted++;
    if (counts[v] > highest) highest = counts[v];
  }
  let keys = new Float64Array(counted);
  const byCount = sortBy === 'count' ? 1 : 0;
  for (let v = 0, k = 0; v < values; v++) if (counts[v] > 0) keys[k++] = byCount * (highest - counts[v]) * values + ranks[v];
  if (counted > 4 * limit && limit > 0) {
    // Many values and few wanted: keep the `limit` smallest keys before sorting.
    const threshold = kthSmallest(keys, limit);
    let kept = 0;
    for (let i = 0; i < counted; i++) if (keys[i] <= threshold) keys[kept++] = keys[i];
    keys = keys.subarray(0, kept);
  }
  keys.sort();
  const labels = column.labels;
  const byRank = column.labelOrder();
  const result: Record<string, number> = {};
  for (let i = 0; i < Math.min(limit, keys.length); i++) {
    const id = byRank[keys[i] % values];
    result[labels.get(id)] = counts[id];
  }
  return result;
}

/** min/max/avg/sum over the numeric values of the matching documents (null when the facet has none). */
export function facetStats(column: FacetColumn, counts: Uint32Array): FacetStats | null {
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  let n = 0;
  for (let v = 0; v < counts.length; v++) {
    const value = column.numbers[v];
    if (counts[v] === 0 || Number.isNaN(value)) continue;
    if (value < min) min = value;
    if (value > max) max = value;
    sum += value * counts[v];
    n += counts[v];
  }
  if (n === 0) return null;
  return { min, max, avg: sum / n, sum };
}
