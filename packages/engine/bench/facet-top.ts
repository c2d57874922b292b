/**
 * Micro-benchmark: choosing a facet's values to return (`topFacetValues`: numeric keys sorted in a typed array,
 * the first `maxValuesPerFacet` selected first when there are many) against the comparator sort it replaced
 * (kept below as the baseline), for facets of 5 to 5,000 values with random counts, top 100 by count.
 *
 *   node --import tsx packages/engine/bench/facet-top.ts [--rounds 7]
 *
 * Both must return the same values in the same order (checked before timing). Rounds alternate the two; the
 * median round is reported.
 */
import { createRandom } from '../../demo/src/random.ts';
import { topFacetValues } from '../src/facet/count.ts';
import type { FacetColumn } from '../src/index/facet-column.ts';
import { SearchIndex } from '../src/index.ts';

const at = process.argv.indexOf('--rounds');
const ROUNDS = at >= 0 ? Number(process.argv[at + 1]) : 7;
const LIMIT = 100;

/** The previous selection: every value with a count, sorted with a comparator, the first `limit` kept. */
function comparatorSort(column: FacetColumn, counts: Uint32Array, limit: number): Record<string, number> {
  const ids: number[] = [];
  for (let v = 0; v < counts.length; v++) if (counts[v] > 0) ids.push(v);
  const ranks = column.labelRanks();
  ids.sort((a, b) => counts[b] - counts[a] || ranks[a] - ranks[b]);
  const result: Record<string, number> = {};
  for (let i = 0; i < Math.min(limit, ids.length); i++) result[column.labels.get(ids[i])] = counts[ids[i]];
  return result;
}

const random = createRandom(5).next;

console.log(`values   typed keys us   comparator us   ratio   (top ${LIMIT} by count)`);
for (const values of [5, 20, 250, 5000]) {
  const index = new SearchIndex({ attributesForFaceting: ['label'] });
  index.setResultCacheBytes(0); // measure the search, not the result cache
  index.saveObjects(Array.from({ length: values }, (_, i) => ({ objectID: String(i), label: `value ${i}` })));
  const column = (index as unknown as { store: { facets: Map<string, FacetColumn> } }).store.facets.get('label')!;
  // Skewed counts, many of them zero, as under a query.
  const samples = Array.from({ length: 200 }, () => Uint32Array.from({ length: values }, () => Math.floor(random() * random() * 500)));
  for (const counts of samples.slice(0, 20)) {
    const expected = JSON.stringify(Object.entries(comparatorSort(column, counts, LIMIT)));
    if (JSON.stringify(Object.entries(topFacetValues(column, counts, LIMIT, 'count'))) !== expected) throw new Error('the two selections disagree');
  }
  const rounds: Record<'typed' | 'comparator', number[]> = { typed: [], comparator: [] };
  for (let round = 0; round < ROUNDS; round++) {
    const returned = { typed: 0, comparator: 0 };
    let started = performance.now();
    for (let repeat = 0; repeat < 10; repeat++) for (const counts of samples) returned.typed += Object.keys(topFacetValues(column, counts, LIMIT, 'count')).length;
    rounds.typed.push(((performance.now() - started) / (10 * samples.length)) * 1000);
    started = performance.now();
    for (let repeat = 0; repeat < 10; repeat++) for (const counts of samples) returned.comparator += Object.keys(comparatorSort(column, counts, LIMIT)).length;
    rounds.comparator.push(((performance.now() - started) / (10 * samples.length)) * 1000);
    if (returned.typed !== returned.comparator) throw new Error('the two selections returned different numbers of values');
  }
  const median = (list: number[]): number => [...list].sort((a, b) => a - b)[list.length >> 1];
  const typed = median(rounds.typed);
  const comparator = median(rounds.comparator);
  console.log(`${String(values).padStart(6)} ${typed.toFixed(2).padStart(15)} ${comparator.toFixed(2).padStart(15)} ${(comparator / typed).toFixed(1).padStart(6)}x`);
}
