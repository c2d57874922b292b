/**
 * Properties checked (top-k ordering): for random keys and any `need`, ordering a bitset bucket through the
 * criteria's `split` and `walk` shortcuts gives exactly the first `need` documents of a full lexicographic sort
 * by (key of each criterion, id) — the same as ordering with per-document keys. Buckets are large enough
 * (thousands of documents) for the shortcuts to be taken. The same holds with a criterion that has a floor ahead
 * of them (proximity's floor-first placement), however rare the documents at the floor are.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Bitset } from '../structures/bitset.ts';
import { orderSet, orderTop } from './order.ts';
import type { RankRule } from './rule.ts';

function rules(a: number[], b: number[], rank: number[], walkOrder: number[]): RankRule[] {
  const splitRule: RankRule = {
    name: 'split',
    key: (doc) => a[doc],
    split(set, count) {
      const zero = new Bitset(set.capacity);
      set.forEach((doc) => {
        if (a[doc] === 0) zero.add(doc);
      });
      const zeroCount = zero.count();
      return [
        { set: () => zero, count: zeroCount, resolved: true },
        { set: () => set.clone().andNot(zero), count: count - zeroCount, resolved: false },
      ];
    },
  };
  const groupedWalk: RankRule = {
    name: 'grouped',
    key: (doc) => b[doc],
    walkPays: () => true,
    // Within a key, documents come in a scrambled order, as postings of several terms would.
    walk(bucket, visit) {
      const docs = walkOrder.filter((doc) => bucket.has(doc)).sort((x, y) => b[x] - b[y]);
      for (const doc of docs) if (!visit(doc, b[doc])) return;
    },
  };
  const order = rank.map((_, doc) => doc).sort((x, y) => rank[x] - rank[y]);
  const custom: RankRule = {
    name: 'custom',
    key: (doc) => rank[doc],
    // Sometimes declines, as the real one does for sparse buckets: then keys are used instead.
    walkPays: (count) => count % 2 === 0,
    walk(bucket, visit) {
      for (const doc of order) if (bucket.has(doc) && !visit(doc, rank[doc])) return;
    },
  };
  return [splitRule, groupedWalk, custom];
}

/** A deterministic generator from a seed (a linear congruential one: enough to scramble test data). */
function seeded(seed: number): (m: number) => number {
  let state = seed;
  return (m) => {
    state = (state * 1103515245 + 12345) >>> 0;
    return state % m;
  };
}

/** Four documents in five of 0..n-1, as a bitset and as the list of members. */
function randomBucket(n: number, random: (m: number) => number): { set: Bitset; members: number[] } {
  const set = new Bitset(n + 40);
  const members: number[] = [];
  for (let doc = 0; doc < n; doc++) {
    if (random(5) !== 0) {
      set.add(doc);
      members.push(doc);
    }
  }
  return { set, members };
}

/** The first `need` members by a full lexicographic sort over the rules' keys, then id. */
function fullSort(members: number[], used: RankRule[], need: number): number[] {
  return members
    .slice()
    .sort((x, y) => {
      for (const rule of used) {
        const d = rule.key(x) - rule.key(y);
        if (d !== 0) return d;
      }
      return x - y;
    })
    .slice(0, need);
}

describe('orderSet', () => {
  it('equals a full sort for any need', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6000 }), fc.integer({ min: 0, max: 2 ** 31 }), fc.integer({ min: 1, max: 300 }), fc.boolean(), (n, seed, need, withCustom) => {
        const random = seeded(seed);
        const a = Array.from({ length: n }, () => random(3));
        const b = Array.from({ length: n }, () => random(4));
        const rank = Array.from({ length: n }, (_, i) => i).sort(() => random(3) - 1);
        const walkOrder = Array.from({ length: n }, (_, i) => i).sort(() => random(3) - 1);
        const all = rules(a, b, rank, walkOrder);
        const used = withCustom ? all : all.slice(0, 2);
        const { set, members } = randomBucket(n, random);
        const expected = fullSort(members, used, need);
        expect(orderSet(set, members.length, used, need)).toEqual(expected);
        expect(orderTop(Uint32Array.from(members), used, need)).toEqual(expected);
      }),
      { numRuns: 60 },
    );
  });
});

describe('orderSet with a floor criterion first', () => {
  it('equals a full sort whatever the share of documents at the floor', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6000 }),
        fc.integer({ min: 0, max: 2 ** 31 }),
        fc.integer({ min: 1, max: 300 }),
        fc.constantFrom(1, 3, 50, 300, 3000),
        (n, seed, need, rarity) => {
          const random = seeded(seed);
          const a = Array.from({ length: n }, () => random(3));
          const b = Array.from({ length: n }, () => random(4));
          // One document in `rarity` sits at the floor (key 2); the others are above it.
          const distance = Array.from({ length: n }, () => (random(rarity) === 0 ? 2 : 3 + random(4)));
          const rank = Array.from({ length: n }, (_, i) => i).sort(() => random(3) - 1);
          const walkOrder = Array.from({ length: n }, (_, i) => i).sort(() => random(3) - 1);
          const [splitRule, groupedWalk, custom] = rules(a, b, rank, walkOrder);
          const floorRule: RankRule = { name: 'floor', key: (doc) => distance[doc], floor: 2 };
          const used = [floorRule, groupedWalk, splitRule, custom];
          const { set, members } = randomBucket(n, random);
          const expected = fullSort(members, used, need);
          expect(orderSet(set, members.length, used, need)).toEqual(expected);
        },
      ),
      { numRuns: 80 },
    );
  });
});
