/**
 * Exact facet counts over a match set, and the selection of the values to return.
 *
 * Two ways to count, picked per facet by estimated cost: walk the matching documents and bump a counter per
 * value id (cost ∝ matches × values per document), or intersect each value's document bitset with the match set
 * by popcount (cost ∝ values × capacity / 32). Small match sets use the first, big sets over few values the
 * second.
 */
import type { FacetStats } from '@vitrine/protocol';
import type { Bitset } from '../structures/bitset.ts';
import { NONE, type FacetColumn } from '../index/facet-column.ts';

/**
 * Counts several facets at once: those best counted by walking the matches share one pass over the match set
 * (one bit scan, then one array read per facet per document for single-valued columns).
 */
export function countFacets(columns: FacetColumn[], matches: Bitset, matchCount: number): Uint32Array[] {
  const result: Uint32Array[] = new Array(columns.length);
  const walked: number[] = [];
  columns.forEach((column, i) => {
    const single = column.singleValued();
    const walkCost = matchCount * (single === null ? 4 : 1);
    const popcountCost = column.valueCount * (matches.words.length + 8);
    if (single !== null && walkCost <= popcountCost) walked.push(i);
    else result[i] = countFacetValues(column, matches, matchCount);
  });
  if (walked.length === 0) return result;
  const singles = walked.map((i) => columns[i].singleValued() as Uint32Array);
  const counts = walked.map((i) => (result[i] = new Uint32Array(columns[i].valueCount + 1)));
  const words = matches.words;
  const limit = Math.min(words.length, (singles[0].length + 31) >>> 5);
  const f = singles.length;
  for (let i = 0; i < limit; i++) {
    let w = words[i];
    while (w !== 0) {
      const low = w & -w;
      const doc = (i << 5) + (31 - Math.clz32(low));
      w ^= low;
      for (let c = 0; c < f; c++) {
        const value = singles[c][doc];
        // NONE wraps to the extra slot at the end, so no branch in the loop.
        counts[c][value === NONE ? counts[c].length - 1 : value]++;
      }
    }
  }
  for (const i of walked) result[i] = result[i].subarray(0, columns[i].valueCount);
  return result;
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
  for (let i = 0; i < limit; i++) {
    let w = words[i];
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
  const ids: number[] = [];
  for (let v = 0; v < counts.length; v++) if (counts[v] > 0) ids.push(v);
  const labels = column.labels;
  const byLabel = (a: number, b: number): number => (labels[a] < labels[b] ? -1 : labels[a] > labels[b] ? 1 : 0);
  if (sortBy === 'alpha') ids.sort(byLabel);
  else ids.sort((a, b) => counts[b] - counts[a] || byLabel(a, b));
  const result: Record<string, number> = {};
  for (let i = 0; i < Math.min(limit, ids.length); i++) result[labels[ids[i]]] = counts[ids[i]];
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
