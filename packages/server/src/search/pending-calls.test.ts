import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PendingCalls } from './pending-calls.ts';

describe('PendingCalls', () => {
  it('answers each id once and reuses freed ids', () => {
    const calls = new PendingCalls<string>();
    const a = calls.add('a');
    const b = calls.add('b');
    expect(a).not.toBe(b);
    expect(calls.size).toBe(2);
    expect(calls.take(a)).toBe('a');
    expect(calls.take(a)).toBeUndefined();
    expect(calls.size).toBe(1);
    const c = calls.add('c');
    expect(c).toBe(a);
    expect(calls.take(c)).toBe('c');
    expect(calls.take(b)).toBe('b');
    expect(calls.size).toBe(0);
  });

  it('ignores ids it never gave', () => {
    const calls = new PendingCalls<string>();
    calls.add('a');
    for (const id of [-1, 1, 7, 0.5, Number.NaN]) expect(calls.take(id)).toBeUndefined();
    expect(calls.size).toBe(1);
  });

  it('hands every held call over once on takeAll', () => {
    const calls = new PendingCalls<string>();
    const ids = ['a', 'b', 'c'].map((name) => calls.add(name));
    calls.take(ids[1]);
    expect(calls.takeAll().sort()).toEqual(['a', 'c']);
    expect(calls.size).toBe(0);
    expect(calls.takeAll()).toEqual([]);
  });

  it('behaves as a map from the ids it gives (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constant<'add'>('add'), fc.nat(40)), { maxLength: 200 }), (steps) => {
        const calls = new PendingCalls<number>();
        const model = new Map<number, number>();
        let next = 0;
        for (const step of steps) {
          if (step === 'add') {
            const value = next++;
            const id = calls.add(value);
            // An id in use is never given again.
            expect(model.has(id)).toBe(false);
            model.set(id, value);
          } else {
            expect(calls.take(step)).toBe(model.get(step));
            model.delete(step);
          }
          expect(calls.size).toBe(model.size);
        }
        expect(calls.takeAll().sort((x, y) => x - y)).toEqual([...model.values()].sort((x, y) => x - y));
      }),
    );
  });
});
