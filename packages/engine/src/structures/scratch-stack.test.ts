/**
 * Properties tested (`ScratchStack`, against plain arrays): under any sequence of takes of any size (past the
 * buffer's first size too, so it grows) and releases to any earlier mark, every view still held keeps what was
 * written into it, has the length asked, and no two held views share memory.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ScratchStack } from './scratch-stack.ts';

type Step = { kind: 'take'; length: number } | { kind: 'release'; depth: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('take' as const), length: fc.oneof(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 1000, max: 6000 })) }),
  fc.record({ kind: fc.constant('release' as const), depth: fc.nat() }),
);

describe('ScratchStack', () => {
  it('keeps every held view intact and apart', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        const stack = new ScratchStack((length) => new Uint32Array(length));
        const held: Array<{ mark: number; view: Uint32Array; expected: number[] }> = [];
        let stamp = 1;
        for (const s of steps) {
          if (s.kind === 'take') {
            const mark = stack.mark();
            const view = stack.take(s.length);
            expect(view.length).toBe(s.length);
            const expected = Array.from({ length: s.length }, () => stamp++);
            view.set(expected);
            held.push({ mark, view, expected });
          } else if (held.length > 0) {
            const keep = s.depth % held.length;
            stack.release(held[keep].mark);
            held.length = keep;
          }
          for (const { view, expected } of held) expect(Array.from(view)).toEqual(expected);
        }
      }),
      { numRuns: 300 },
    );
  });
});
