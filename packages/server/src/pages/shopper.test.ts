/** Reading the shopper's user token from a page request's cookies. */
import { describe, expect, it } from 'vitest';
import type { FastifyRequest } from 'fastify';
import { cookieValue, pageSearcher } from './shopper.ts';

const request = (cookie?: string) => ({ headers: cookie === undefined ? {} : { cookie }, ip: '10.0.0.1' }) as unknown as FastifyRequest;

describe('the page shopper', () => {
  it('reads one cookie among several, decoded, quotes removed', () => {
    expect(cookieValue('a=1; vitrine_user=anon-12ab; b=2', 'vitrine_user')).toBe('anon-12ab');
    expect(cookieValue('vitrine_user="x%2By"', 'vitrine_user')).toBe('x+y');
    expect(cookieValue('not_vitrine_user=1; b', 'vitrine_user')).toBeUndefined();
    expect(cookieValue('vitrine_user=%E0%A4%A', 'vitrine_user')).toBeUndefined();
    expect(cookieValue(undefined, 'vitrine_user')).toBeUndefined();
  });

  it('names the shopper by a valid user token only, never by address', () => {
    expect(pageSearcher(request('vitrine_user=anon-0123'))).toEqual({ userToken: 'anon-0123' });
    expect(pageSearcher(request(`vitrine_user=${'a'.repeat(130)}`))).toEqual({});
    expect(pageSearcher(request('vitrine_user=a b'))).toEqual({});
    expect(pageSearcher(request())).toEqual({});
  });
});
