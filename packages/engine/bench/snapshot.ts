/**
 * Snapshot cost: the demo catalogue, then `saveSnapshot` (what a search thread's capture costs while it answers
 * nothing else) and `loadSnapshot` (a restart), each the median of a few rounds.
 *
 *   node --import tsx packages/engine/bench/snapshot.ts [--size 100000] [--rounds 5]
 */
import { demoSettings, generateProducts } from '@vitrine/demo';
import { SearchIndex, loadSnapshot } from '../src/index.ts';
import { FACETS, inBatches, numberOption } from './workload.ts';

const size = numberOption('size', 100_000);
const rounds = numberOption('rounds', 5);
const index = new SearchIndex(demoSettings);
for (const batch of inBatches(generateProducts(size, 1), 1000)) index.saveObjects(batch);
// As on a server that has been answering: the structures a snapshot carries are built.
index.search({ query: 'lamp', hitsPerPage: 20, facets: FACETS });

const median = (times: number[]): string => times.sort((a, b) => a - b)[times.length >> 1].toFixed(0);
const saves: number[] = [];
const loads: number[] = [];
let bytes: Uint8Array = new Uint8Array(0);
for (let round = 0; round < rounds; round++) {
  let started = performance.now();
  bytes = index.saveSnapshot();
  saves.push(performance.now() - started);
  started = performance.now();
  loadSnapshot(bytes);
  loads.push(performance.now() - started);
}
console.log(`${size} products, ${(bytes.byteLength / 1e6).toFixed(0)} MB snapshot: save ${median(saves)} ms, load ${median(loads)} ms (medians of ${rounds})`);
