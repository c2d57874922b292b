/**
 * Properties checked (every criterion, on a catalogue large enough for the shortcuts): a criterion's `split`
 * parts and `walk` order agree with its per-document `key` — resolved parts hold one key, parts come best
 * first, walks visit each document once in ascending key order — and the final ranking equals a full sort by
 * the keys; the early-exit proximity equals the full scan's.
 */
import { describe, expect, it } from 'vitest';
import { generateProducts, demoSettings } from '@vitrine/demo';
import { SearchIndex } from '../../search-index.ts';
import { prepareSearch, type SearchEnvironment } from '../../search/prepare.ts';
import { orderSet, toIdArray } from '../order.ts';

const index = new SearchIndex({ ...demoSettings, ignorePlurals: true });
index.saveObjects([...generateProducts(4000, 11)]);
const env = (index as unknown as { environment(): SearchEnvironment }).environment();

const queries = ['', 'ch', 'wireless', 'wireles charger', 'cotton t', 'oak table', 'red', 'lamp', 'steel bottle 750', 'sofa', 'set of', 'a s', 'with the', 'x cm', 'candle g'];

describe('criteria shortcuts agree with keys', () => {
  for (const [query, optional] of queries.flatMap((q) => [[q, true], [q, false]] as const)) {
    it(`query "${query}"${optional ? ' (first word optional)' : ''}`, () => {
      const prepared = prepareSearch(env, { query, ...(optional ? { optionalWords: query.split(' ').slice(0, 1) } : {}) }, undefined, undefined);
      const { rules, matches, matchCount } = prepared;
      const docs = Array.from(toIdArray(matches, matchCount));
      for (const rule of rules) {
        if (rule.split) {
          let previousMax = -Infinity;
          for (const part of rule.split(matches, matchCount)) {
            const keys = part.set().toArray().map((doc) => rule.key(doc));
            expect(part.set().count()).toBe(part.count);
            if (keys.length === 0) continue;
            if (part.resolved) expect(new Set(keys).size).toBe(1);
            expect(Math.min(...keys)).toBeGreaterThanOrEqual(previousMax);
            previousMax = Math.max(...keys);
          }
        }
        if (rule.walk) {
          const seen: number[] = [];
          let last = -Infinity;
          rule.walk(matches, (doc, key) => {
            expect(key).toBe(rule.key(doc));
            expect(key).toBeGreaterThanOrEqual(last);
            last = key;
            seen.push(doc);
            return true;
          });
          expect(seen.slice().sort((a, b) => a - b)).toEqual(docs);
        }
      }
      // The early-exit proximity equals the full forward scan's, and no document beats the floor.
      const proximity = rules.find((rule) => rule.name === 'proximity');
      if (proximity) {
        const { scanner } = prepared.context;
        for (const doc of docs.slice(0, 300)) {
          scanner.scan(doc);
          expect(proximity.key(doc)).toBe(scanner.proximityAt(doc));
        }
        if (proximity.floor !== undefined) for (const doc of docs) expect(proximity.key(doc)).toBeGreaterThanOrEqual(proximity.floor);
      }
      const expected = docs
        .slice()
        .sort((x, y) => {
          for (const rule of rules) {
            const d = rule.key(x) - rule.key(y);
            if (d !== 0) return d;
          }
          return x - y;
        })
        .slice(0, 300);
      // Several page depths: each stops the shortcuts (walks, floor-first proximity) at a different point.
      for (const need of [1, 20, 50, 300]) expect(orderSet(matches, matchCount, rules, need)).toEqual(expected.slice(0, need));
    });
  }
});

describe('proximity ordered floor-first on a large bucket', () => {
  // 3,000 documents hold both words; only one in 300 has them side by side: the floor-first walk finds too
  // few documents at the best proximity and gives up for keys in id order, which must order the same.
  const synthetic = new SearchIndex({ searchableAttributes: ['name', 'description'], customRanking: ['desc(rank)'] });
  synthetic.saveObjects(
    Array.from({ length: 3000 }, (_, i) => ({
      objectID: String(i),
      name: i % 300 === 0 ? `red shoe model ${i % 7}` : `red model ${i % 5} filler words shoe`,
      description: i % 2 === 0 ? 'a red and comfortable shoe' : 'comfortable',
      rank: (i * 7919) % 1000,
    })),
  );
  const syntheticEnv = (synthetic as unknown as { environment(): SearchEnvironment }).environment();

  // "shoe red" and "model shoe" never stand side by side in that order: their floor rises to 2 (reversed order).
  for (const [query, floor] of [['red shoe', 1], ['shoe red', 2], ['red sho', 1], ['model shoe', 2], ['model sho', 2]] as const) {
    it(`query "${query}"`, () => {
      const { rules, matches, matchCount } = prepareSearch(syntheticEnv, { query }, undefined, undefined);
      expect(matchCount).toBe(3000);
      expect(rules.find((rule) => rule.name === 'proximity')?.floor).toBe(floor);
      const expected = Array.from(toIdArray(matches, matchCount)).sort((x, y) => {
        for (const rule of rules) {
          const d = rule.key(x) - rule.key(y);
          if (d !== 0) return d;
        }
        return x - y;
      });
      for (const need of [1, 5, 20, 50]) expect(orderSet(matches, matchCount, rules, need)).toEqual(expected.slice(0, need));
    });
  }
});
