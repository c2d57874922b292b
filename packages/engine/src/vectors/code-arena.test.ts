/**
 * The arena's WebAssembly dot products against plain JavaScript sums: any length (blocks of 16 and the rest),
 * any offsets (unaligned included), the extremes of the codes and of a query scaled by `queryScale` at the
 * largest dimensions (no lane overflows); and bytes written before the memory grows are there after.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_DIMENSIONS } from './embedders.ts';
import { CodeArena, queryScale } from './code-arena.ts';

const code = fc.integer({ min: -127, max: 127 });

function naive(x: ArrayLike<number>, xAt: number, y: ArrayLike<number>, yAt: number, n: number): number {
  let sum = 0;
  for (let i = 0; i < n; i++) sum += x[xAt + i] * y[yAt + i];
  return sum;
}

describe('CodeArena', () => {
  it('sums products of bytes, and of 16-bit numbers by bytes, as JavaScript does', () => {
    fc.assert(
      fc.property(fc.array(code, { minLength: 1, maxLength: 300 }), fc.array(code, { minLength: 300, maxLength: 300 }), fc.array(fc.integer({ min: -32767, max: 32767 }), { minLength: 300, maxLength: 300 }), fc.nat(15), (xs, ys, qs, shift) => {
        const arena = new CodeArena();
        arena.alloc(shift);
        const xAt = arena.alloc(xs.length) + shift;
        const yAt = arena.alloc(ys.length + 16) + shift;
        const qAt = arena.alloc(2 * qs.length + 16);
        arena.bytes.set(xs, xAt);
        arena.bytes.set(ys, yAt);
        arena.words.set(qs, qAt >> 1);
        const n = xs.length;
        expect(arena.dot8(xAt, yAt, n)).toBe(naive(xs, 0, ys, 0, n));
        expect(arena.dot16(qAt, yAt, n)).toBe(naive(qs, 0, ys, 0, n));
      }),
      { numRuns: 200 },
    );
  });

  it('does not overflow at the largest dimensions and codes', () => {
    const n = MAX_DIMENSIONS;
    const arena = new CodeArena();
    const codes = arena.alloc(n);
    const query = arena.alloc(2 * n);
    const scale = queryScale(n);
    for (const sign of [1, -1]) {
      arena.bytes.fill(127 * sign, codes, codes + n);
      arena.words.fill(scale, query >> 1, (query >> 1) + n);
      expect(arena.dot16(query, codes, n)).toBe(127 * sign * scale * n);
      expect(arena.dot8(codes, codes, n)).toBe(127 * 127 * n);
    }
    expect(queryScale(384)).toBe(32767);
  });

  it('keeps what was written when it grows', () => {
    const arena = new CodeArena();
    const at = arena.alloc(100);
    arena.bytes.set([5, -7, 9], at);
    const later = arena.alloc(3 << 20);
    arena.bytes.set([2, 3, 4], later);
    expect(Array.from(arena.bytes.subarray(at, at + 3))).toEqual([5, -7, 9]);
    expect(arena.dot8(at, later, 3)).toBe(5 * 2 - 7 * 3 + 9 * 4);
    expect(arena.allocated).toBeGreaterThanOrEqual((3 << 20) + 100);
  });
});
