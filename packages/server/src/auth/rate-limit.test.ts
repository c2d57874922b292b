import { describe, expect, it } from 'vitest';
import { FailedAuthBudget, WindowCounter } from './rate-limit.ts';

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

describe('FailedAuthBudget', () => {
  it('answers within the budget, then past it until the window ends; a key refused again counts once', () => {
    const budget = new FailedAuthBudget(2, 1000);
    expect(budget.refused('ip', 'x', false, 0)).toBe(true);
    expect(budget.refused('ip', 'x', false, 100)).toBe(true);
    expect(budget.refused('ip', 'y', false, 200)).toBe(true);
    expect(budget.refused('ip', 'z', false, 300)).toBe(false);
    // The same key again: not counted, but the IP is past its budget.
    expect(budget.refused('ip', 'x', false, 400)).toBe(false);
    expect(budget.refused('other', 'z', false, 400)).toBe(true);
    // A verification counts every time.
    expect(budget.refused('v', 'forged', true, 0)).toBe(true);
    expect(budget.refused('v', 'forged', true, 1)).toBe(true);
    expect(budget.refused('v', 'forged', true, 2)).toBe(false);
    // The IP's window (from 0) has ended.
    expect(budget.refused('ip', 'w', false, 1000)).toBe(true);
  });
});
