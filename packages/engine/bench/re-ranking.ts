/**
 * What dynamic re-ranking costs a search in the engine (issue 45): the demo catalogue, its queries answered with
 * and without a query's boosts (20, the model's most), alternated, the result cache off; prints p50 / p99 of each.
 *
 *   node --conditions=source --import tsx packages/engine/bench/re-ranking.ts [--size 10000] [--rounds 30]
 */
import { parseArgs } from 'node:util';
import { demoSettings, generateProducts } from '@vitrine/demo';
import { SearchIndex } from '../src/index.ts';

const { values } = parseArgs({ options: { size: { type: 'string', default: '10000' }, rounds: { type: 'string', default: '30' } } });
const index = new SearchIndex({ ...demoSettings, replicas: [], enableReRanking: true });
const products = [...generateProducts(Number(values.size))];
index.saveObjects(products);
index.setResultCacheBytes(0);
const words = [...new Set(products.slice(0, 2000).flatMap((p) => p.name.toLowerCase().split(/[^a-z]+/)).filter((w) => w.length > 3))].slice(0, 60);
// Each query's boosts: 5 of its hits beyond the first page, as a model learns them (20, a full page, would leave
// nothing else to rank for the first page: faster than without, and no measure of the cost).
const boosts = new Map(words.map((query) => {
  const hits = index.search({ query, hitsPerPage: 100, attributesToRetrieve: ['objectID'] }).hits.slice(20, 25);
  return [query, { query, boosts: hits.map((hit, i) => ({ objectID: hit.objectID, score: 3 - i / 5, clicks: 10, conversions: 1, expectedClicks: 2 })) }];
}));
const off: number[] = [];
const on: number[] = [];
for (let round = 0; round < Number(values.rounds); round++) {
  for (const query of words) {
    const pair = [[off, undefined], [on, { reRanking: boosts.get(query)! }]] as const;
    // Which goes first changes each round: the second of a pair finds the query's postings warm.
    for (const [times, options] of round % 2 === 0 ? pair : [pair[1], pair[0]]) {
      const began = performance.now();
      index.search({ query, hitsPerPage: 20 }, undefined, options);
      times.push(performance.now() - began);
    }
  }
}
const at = (times: number[], p: number) => [...times].sort((a, b) => a - b)[Math.floor(times.length * p)].toFixed(3);
console.log(`${values.size} products, ${words.length} queries × ${values.rounds}: off p50 ${at(off, 0.5)} / p99 ${at(off, 0.99)} ms, on (5 boosts) p50 ${at(on, 0.5)} / p99 ${at(on, 0.99)} ms`);
