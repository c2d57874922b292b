import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Bitset, intersectInto, nextSetWord, unionInto } from './bitset.ts';

/** A set given as its capacity and members (members may fall past a shorter capacity: they are dropped). */
const sets = (capacity: number) =>
  fc.array(
    fc.record({
      capacity: fc.integer({ min: Math.max(0, capacity - 70), max: capacity }),
      members: fc.uniqueArray(fc.integer({ min: 0, max: capacity - 1 }), { maxLength: 120 }),
    }),
    { minLength: 1, maxLength: 9 },
  );

describe('intersectInto', () => {
  it('equals the members common to every source, with their count, for 1 to 9 sources of mixed lengths', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 300 }).chain((capacity) =>
          fc.tuple(fc.constant(capacity), sets(capacity), fc.uniqueArray(fc.integer({ min: 0, max: capacity - 1 }), { maxLength: 40 })),
        ),
        ([capacity, specs, core]) => {
          // Members shared by every source keep the intersection of many sources non-empty (the passes past the
          // first four stop early once nothing is left).
          const sources = specs.map((spec) => Bitset.fromIds(spec.capacity, [...spec.members, ...core].filter((id, i, all) => id < spec.capacity && all.indexOf(id) === i)));
          // The target starts dirty: every word must be written.
          const target = Bitset.full(capacity);
          const count = intersectInto(target, sources);
          const expected: number[] = [];
          for (let id = 0; id < capacity; id++) if (sources.every((source) => id < source.capacity && source.has(id))) expected.push(id);
          expect(target.toArray()).toEqual(expected);
          expect(count).toBe(expected.length);
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe('counting operations', () => {
  it('count, countAnd, andCount and andNotCount agree with the members, against a set of the same or a shorter capacity', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 400 }).chain((capacity) => fc.tuple(fc.constant(capacity), sets(capacity).map((specs) => specs.slice(0, 2)))),
        ([capacity, specs]) => {
          const members = (i: number) => [...new Set(specs[i % specs.length].members)].sort((x, y) => x - y);
          const a = Bitset.fromIds(capacity, members(0));
          const otherCapacity = specs[1 % specs.length].capacity;
          const bMembers = members(1).filter((id) => id < otherCapacity);
          const b = Bitset.fromIds(otherCapacity, bMembers);
          const common = members(0).filter((id) => bMembers.includes(id));
          const onlyA = members(0).filter((id) => !bMembers.includes(id));
          expect(a.count()).toBe(members(0).length);
          expect(a.countAnd(b)).toBe(common.length);
          const intersected = a.clone();
          expect(intersected.andCount(b)).toBe(common.length);
          expect(intersected.toArray()).toEqual(common);
          const subtracted = a.clone();
          expect(subtracted.andNotCount(b)).toBe(onlyA.length);
          expect(subtracted.toArray()).toEqual(onlyA);
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe('unionInto', () => {
  it('equals the members of any source, for 1 to 9 sources of mixed lengths', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 300 }).chain((capacity) => fc.tuple(fc.constant(capacity), sets(capacity))),
        ([capacity, specs]) => {
          const sources = specs.map((spec) => Bitset.fromIds(spec.capacity, spec.members.filter((id) => id < spec.capacity)));
          const target = Bitset.full(capacity);
          unionInto(target, sources);
          const expected: number[] = [];
          for (let id = 0; id < capacity; id++) if (sources.some((source) => id < source.capacity && source.has(id))) expected.push(id);
          expect(target.toArray()).toEqual(expected);
          expect(sources.map((source) => source.toArray())).toEqual(specs.map((spec) => [...new Set(spec.members.filter((id) => id < spec.capacity))].sort((a, b) => a - b)));
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe('growable sets', () => {
  it('keep their ids and take new ones as they grow, in place while the buffer has room', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 20_000 }), { minLength: 1, maxLength: 8 }), (growths) => {
        let capacity = 1 + growths[0];
        let set = Bitset.growable(capacity);
        const expected: number[] = [];
        for (const growth of growths) {
          const next = capacity + growth;
          const before = set.words.buffer;
          const roomWords = before.byteLength / 4;
          set = set.grownTo(next);
          expect(set.words.length).toBe((next + 31) >>> 5);
          if (((next + 31) >>> 5) <= roomWords) expect(set.words.buffer).toBe(before);
          // Ids only ever appended, as an index growing by writes appends documents.
          for (let id = capacity; id < next; id += 997) {
            set.add(id);
            expected.push(id);
          }
          capacity = next;
          expect(set.toArray()).toEqual(expected);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('nextSetWord', () => {
  it('finds the first non-zero word at or after any start, before any end, in sparse and dense arrays', () => {
    const words = fc.array(fc.oneof(fc.constant(0), fc.constant(0), fc.constant(0), fc.integer({ min: 1, max: 0xffffffff })), { minLength: 9, maxLength: 80, size: 'max' });
    fc.assert(
      fc.property(words, fc.nat(), fc.nat(), (values, a, b) => {
        const array = Uint32Array.from(values);
        const end = values.length === 0 ? 0 : b % (values.length + 1);
        const from = a % (end + 1);
        let expected = from;
        while (expected < end && array[expected] === 0) expected++;
        expect(nextSetWord(array, from, end)).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('lets forEach visit every member, in order, across words far apart', () => {
    const set = new Bitset(100_000);
    const members = [3, 4095, 4096, 31_999, 64_000, 99_999];
    for (const id of members) set.add(id);
    const seen: number[] = [];
    set.forEach((id) => {
      seen.push(id);
    });
    expect(seen).toEqual(members);
  });
});
