/**
 * Properties checked: partitioning (doc, key) pairs, alone or merged onto an earlier partitioned list, groups
 * every document under its key, keys ascending, documents ascending within a group — for small keys (counting
 * array) and large ones (map); merging two partitioned lists gives the same groups.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mergePartitioned, partition } from './partitioned.ts';

function groups(p: ReturnType<typeof partition>): Array<[number, number[]]> {
  return Array.from(p.keys, (key, g) => [key, Array.from(p.docs.subarray(p.starts[g], p.starts[g + 1]))]);
}

function expected(pairs: Array<[number, number]>): Array<[number, number[]]> {
  const byKey = new Map<number, number[]>();
  for (const [doc, key] of pairs) byKey.set(key, [...(byKey.get(key) ?? []), doc]);
  return [...byKey.entries()].sort((a, b) => a[0] - b[0]).map(([key, docs]) => [key, docs.sort((a, b) => a - b)]);
}

describe('partition', () => {
  it('groups by key, merged onto a base', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.integer({ min: 0, max: 5000 }), fc.integer({ min: 0, max: 300000 })), { maxLength: 60 }), fc.nat(60), (keys, split) => {
        const pairs: Array<[number, number]> = keys.map((key, doc) => [doc, key]);
        const cut = Math.min(split, pairs.length);
        const first = pairs.slice(0, cut);
        const rest = pairs.slice(cut);
        const base = partition(Uint32Array.from(first.map((p) => p[0])), Uint32Array.from(first.map((p) => p[1])));
        const merged = partition(Uint32Array.from(rest.map((p) => p[0])), Uint32Array.from(rest.map((p) => p[1])), base);
        expect(groups(merged)).toEqual(expected(pairs));
      }),
    );
  });

  it('merges two partitioned lists, the newer holding the higher documents', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 300000 })), { maxLength: 80 }), fc.nat(80), (keys, split) => {
        const pairs: Array<[number, number]> = keys.map((key, doc) => [doc, key]);
        const cut = Math.min(split, pairs.length);
        const part = (list: Array<[number, number]>) => partition(Uint32Array.from(list.map((p) => p[0])), Uint32Array.from(list.map((p) => p[1])));
        expect(groups(mergePartitioned(part(pairs.slice(0, cut)), part(pairs.slice(cut))))).toEqual(expected(pairs));
      }),
    );
  });
});
