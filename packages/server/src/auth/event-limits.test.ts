import { describe, expect, it } from 'vitest';
import type { AuthContext } from './authenticate.ts';
import { EventLimits } from './event-limits.ts';
import { WindowCounter } from './rate-limit.ts';

const context = (kind: AuthContext['kind'], limitKey: string): AuthContext =>
  ({ kind, acl: 'all', indexes: [], forcedParams: {}, forcedFilter: null, maxHitsPerQuery: 0, limitKey }) as AuthContext;
const events = (count: number, userToken = 'shopper') => Array.from({ length: count }, () => ({ userToken }));

describe('EventLimits', () => {
  const limits = { maxEventsPerIPPerMinute: 100, maxEventsPerKeyPerMinute: 150, maxEventsPerUserTokenPerMinute: 40 };

  it('admits batches until a budget would be passed, counts none it refuses, and starts again the next minute', () => {
    const caps = new EventLimits(limits);
    const key = context('search', 'k');
    caps.admit(key, 'ip', events(30, 'a'));
    expect(() => caps.admit(key, 'ip', events(11, 'a'))).toThrow(expect.objectContaining({ status: 429, message: 'Too many events: at most 40 per minute per userToken' }));
    caps.admit(key, 'ip', events(10, 'a'));
    caps.admit(key, 'ip', [...events(30, 'b'), ...events(29, 'c')]);
    expect(() => caps.checkCaller(key, 'ip')).not.toThrow();
    expect(() => caps.admit(key, 'ip', events(2, 'd'))).toThrow(/100 per minute per IP address/);
    caps.admit(key, 'ip', events(1, 'd'));
    expect(() => caps.checkCaller(key, 'ip')).toThrow(/per IP address/);
    caps.admit(key, 'other-ip', events(40, 'e'));
    expect(() => caps.admit(key, 'third-ip', events(11, 'f'))).toThrow(/150 per minute per API key/);
    caps.admit(context('search', 'another-key'), 'third-ip', events(11, 'f'));
    caps.admit(context('admin', 'k'), 'ip', events(1000, 'a'));
    const nextMinute = Date.now() + 60_000;
    caps.admit(key, 'ip', events(40, 'a'), nextMinute);
  });

  it('never limits with a budget of 0', () => {
    const caps = new EventLimits({ maxEventsPerIPPerMinute: 0, maxEventsPerKeyPerMinute: 0, maxEventsPerUserTokenPerMinute: 0 });
    for (let i = 0; i < 10; i++) caps.admit(context('search', 'k'), 'ip', events(1000));
  });
});

describe('WindowCounter under a flood of new keys', () => {
  it('adds amounts, and keeps at most its entries at a cost that does not grow with them', () => {
    const counter = new WindowCounter(60_000, 10_000);
    expect(counter.hit('a', 0, 30)).toBe(30);
    expect(counter.hit('a', 10, 5)).toBe(35);
    const started = performance.now();
    // Every hit a new key with the table full: dropping an entry must not walk the table (10,000 × 200,000 steps).
    for (let i = 0; i < 200_000; i++) counter.hit(`token-${i}`, 1000 + i);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(counter.peek('a', 1000)).toBe(0);
    expect(counter.peek('token-199999', 201_000)).toBe(1);
    expect(counter.peek('token-189999', 201_000)).toBe(0);
  });

  it('keeps a key whose window restarted ahead of older ones', () => {
    const counter = new WindowCounter(1000, 2);
    counter.hit('a', 0);
    counter.hit('b', 500);
    // a's window restarts: b is now the oldest, dropped when c arrives.
    counter.hit('a', 1200);
    counter.hit('c', 1300);
    expect(counter.peek('a', 1300)).toBe(1);
    expect(counter.peek('b', 1300)).toBe(0);
    expect(counter.peek('c', 1300)).toBe(1);
  });
});
