import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { bandScale, labelEvery, linePath, linearScale, niceStep, zeroBasedAxis } from './scale.ts';

describe('linearScale', () => {
  it('maps the domain onto the range, inverted ranges included (SVG y grows downwards)', () => {
    const y = linearScale([0, 100], [200, 0]);
    expect(y(0)).toBe(200);
    expect(y(50)).toBe(100);
    expect(y(100)).toBe(0);
    expect(linearScale([5, 5], [10, 20])(5)).toBe(10);
  });
});

describe('axis ticks', () => {
  it('uses steps of 1, 2 or 5 times a power of ten', () => {
    expect(niceStep(100, 4)).toBe(50);
    expect(niceStep(7, 4)).toBe(2);
    expect(niceStep(0.37, 4)).toBe(0.1);
    expect(niceStep(0, 4)).toBe(1);
  });

  it('starts at zero and covers the largest value', () => {
    expect(zeroBasedAxis([3, 17, 12])).toEqual({ min: 0, max: 20, ticks: [0, 5, 10, 15, 20] });
    expect(zeroBasedAxis([0.12, null, 0.31])).toEqual({ min: 0, max: 0.4, ticks: [0, 0.1, 0.2, 0.3, 0.4] });
    expect(zeroBasedAxis([])).toEqual({ min: 0, max: 1, ticks: [0, 0.5, 1] });
    expect(zeroBasedAxis([null, 0])).toEqual({ min: 0, max: 1, ticks: [0, 0.5, 1] });
    // Rates never go above 100 %.
    expect(zeroBasedAxis([0.95], 4, 1).max).toBe(1);
  });

  it('always bounds every value, with few ticks', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1e7, noNaN: true }), { minLength: 1, maxLength: 40 }), (values) => {
        const axis = zeroBasedAxis(values);
        expect(axis.max).toBeGreaterThanOrEqual(Math.max(...values));
        expect(axis.ticks[0]).toBe(0);
        expect(axis.ticks.length).toBeGreaterThanOrEqual(2);
        expect(axis.ticks.length).toBeLessThanOrEqual(12);
        for (let i = 1; i < axis.ticks.length; i++) expect(axis.ticks[i]).toBeGreaterThan(axis.ticks[i - 1]);
      }),
    );
  });
});

describe('bands and labels', () => {
  it('splits the range into equal, padded bands', () => {
    const band = bandScale(4, [0, 400], 0.5);
    expect(band(0)).toEqual({ x: 25, width: 50 });
    expect(band(3)).toEqual({ x: 325, width: 50 });
  });

  it('thins labels to fit', () => {
    expect(labelEvery(7, 10)).toBe(1);
    expect(labelEvery(30, 8)).toBe(4);
  });
});

describe('linePath', () => {
  it('breaks the line where a value is missing', () => {
    expect(linePath([{ x: 0, y: 10 }, { x: 10, y: 20 }, { x: 20, y: null }, { x: 30, y: 5 }, { x: 40, y: 6 }])).toBe('M0,10L10,20M30,5L40,6');
    expect(linePath([{ x: 0, y: null }])).toBe('');
  });
});
