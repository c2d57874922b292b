import { describe, expect, it } from 'vitest';
import { WindowCounter } from './rate-limit.ts';

describe('WindowCounter', () => {
  it('counts within a window and restarts after it', () => {
    const counter = new WindowCounter(1000);
    expect(counter.hit('ip', 0)).toBe(1);
    expect(counter.hit('ip', 500)).toBe(2);
    expect(counter.peek('ip', 999)).toBe(2);
    expect(counter.peek('ip', 1000)).toBe(0);
    expect(counter.hit('ip', 1000)).toBe(1);
  });
  it('stays bounded, dropping the oldest keys first', () => {
    const counter = new WindowCounter(1000, 3);
    for (const key of ['a', 'b', 'c', 'd']) counter.hit(key, 0);
    expect(counter.peek('a', 0)).toBe(0);
    expect(counter.peek('d', 0)).toBe(1);
  });
});
