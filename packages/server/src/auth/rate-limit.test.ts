import { describe, expect, it } from 'vitest';
import { FailedAuthBudget, RecentSet, WindowCounter } from './rate-limit.ts';

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

describe('RecentSet', () => {
  it('renews a key on each sighting and drops the least recently seen when full', () => {
    const recent = new RecentSet(1000, 2);
    recent.touch('a', 0);
    recent.touch('b', 100);
    recent.touch('a', 900);
    expect(recent.has('a', 1800)).toBe(true);
    expect(recent.has('b', 1800)).toBe(false);
    recent.touch('c', 1800);
    expect(recent.has('a', 1800)).toBe(true);
    expect(recent.has('b', 1000)).toBe(false);
  });
});

describe('FailedAuthBudget', () => {
  it('keeps a key in use accepted across windows while its IP is over budget', () => {
    const budget = new FailedAuthBudget(2, 1000);
    budget.accepted('ip', 'good', 0);
    budget.refused('ip', 'x', false, 500);
    budget.refused('ip', 'y', false, 600);
    expect(budget.allows('ip', 'z', 700)).toBe(false);
    budget.accepted('ip', 'good', 900);
    // The key's first sighting is over a window old; it was seen since.
    expect(budget.allows('ip', 'good', 1400)).toBe(true);
    // The IP's window (from 500) has ended.
    expect(budget.allows('ip', 'z', 1500)).toBe(true);
  });
});
