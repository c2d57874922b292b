/**
 * What the server hands the engine with each search when a shop learns from its events, for the benchmark:
 * re-ranking boosts for every query of the workload (10 of its hits, from the 11th on, as a model promotes
 * objects shoppers engaged with more than their position predicts; the model keeps at most 20 per query) and
 * one of 64 shoppers' affinities (two brands, a colour, a top category: a usual profile), in turn. Every query
 * gets boosts, including the prefixes a model would rarely know: the cost measured is the most learning costs.
 */
import type { SearchPersonalization } from '@vitrine/protocol';
import { createRandom } from '../../../demo/src/random.ts';
import type { ReRankingInput, SearchIndex, SearchOptions } from '../../src/index.ts';
import type { Workload } from '../workload.ts';

const SHOPPERS = 64;
const IMPACT = 50;

export interface Learning {
  /** The learning inputs of the next search for `query` (the next shopper's affinities). */
  next(query: string): SearchOptions;
}

export function learningFor(index: SearchIndex, workloads: Workload[]): Learning {
  const random = createRandom(45);
  const queries = new Set<string>(['']);
  const brands = new Set<string>();
  const colours = new Set<string>();
  const categories = new Set<string>();
  for (const workload of workloads) {
    for (const q of workload.a) queries.add(q.query);
    for (const q of workload.b) {
      queries.add(q.query);
      q.brands.forEach((b) => brands.add(b));
    }
    for (const q of workload.c) categories.add(q.category.split(' > ')[0]);
    for (const q of workload.d) {
      queries.add(q.query);
      q.brands.forEach((b) => brands.add(b));
      colours.add(q.color);
    }
  }
  const boosts = new Map<string, ReRankingInput>();
  for (const query of queries) {
    const hits = index.search({ query, hitsPerPage: 20, page: 0, offset: 10, length: 10, attributesToRetrieve: ['objectID'], attributesToHighlight: [] }).hits;
    boosts.set(query, {
      query,
      boosts: hits.map((hit, i) => ({ objectID: hit.objectID, score: 3 - i / 5, clicks: 12 - i, conversions: 2, expectedClicks: 3 })),
    });
  }
  const pick = <T>(values: Set<T>): T => [...values][random.int(values.size)];
  const shoppers: SearchPersonalization[] = Array.from({ length: SHOPPERS }, () => ({
    impact: IMPACT,
    affinities: [
      ['brand', pick(brands), 80],
      ['brand', pick(brands), 40],
      ['color', pick(colours), 60],
      ['hierarchicalCategories.lvl0', pick(categories), 30],
    ],
  }));
  let turn = 0;
  return {
    next(query) {
      turn = (turn + 1) % SHOPPERS;
      return { reRanking: boosts.get(query), personalization: shoppers[turn] };
    },
  };
}
