import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Bitset, intersectInto } from './bitset.ts';

/** A set given as its capacity and members (members may fall past a shorter capacity: they are dropped). */
const sets = (capacity: number) =>
  fc.array(
    fc.record({
      capacity: fc.integer({ min: Math.max(0, capacity - 70), max: capacity }),
      members: fc.uniqueArray(fc.integer({ min: 0, max: capacity - 1 }), { maxLength: 120 }),
    }),
    { minLength: 1, maxLength: 6 },
  );

describe('intersectInto', () => {
  it('equals the members common to every source, with their count, for 1 to 6 sources of mixed lengths', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 300 }).chain((capacity) => fc.tuple(fc.constant(capacity), sets(capacity))),
        ([capacity, specs]) => {
          const sources = specs.map((spec) => Bitset.fromIds(spec.capacity, spec.members.filter((id) => id < spec.capacity)));
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
