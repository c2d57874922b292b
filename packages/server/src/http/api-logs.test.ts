/**
 * The API logs' ring and masks: bounded (the oldest entries go first), newest first, keys never in clear.
 */
import { describe, expect, it } from 'vitest';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ApiLogs, kindOf, LOG_TEXT_MAX, maskAnswer, maskUrl, truncate } from './api-logs.ts';

const entry = (n: number) => ({
  timestamp: new Date(n * 1000).toISOString(), method: 'GET', answer_code: n % 2 === 0 ? '200' : '404', query_body: '', answer: '',
  url: `/1/indexes/i${n}`, ip: '127.0.0.1', query_headers: '', sha1: '', processing_time_ms: '0', indexes: [`i${n}`], kind: 'query' as const,
});

describe('ApiLogs', () => {
  it('keeps the last `capacity` entries, newest first', () => {
    const logs = new ApiLogs(3);
    for (let n = 1; n <= 5; n++) logs.add(entry(n));
    expect(logs.list({ offset: 0, length: 10, type: 'all' }).map((log) => log.url)).toEqual(['/1/indexes/i5', '/1/indexes/i4', '/1/indexes/i3']);
    expect(logs.list({ offset: 1, length: 1, type: 'all' }).map((log) => log.url)).toEqual(['/1/indexes/i4']);
    expect(logs.list({ offset: 0, length: 10, type: 'error' }).map((log) => log.url)).toEqual(['/1/indexes/i5', '/1/indexes/i3']);
    expect(logs.list({ offset: 0, length: 10, type: 'all', indexName: 'i4' })).toHaveLength(1);
    expect(logs.list({ offset: 0, length: 10, type: 'all' })[0]).not.toHaveProperty('indexes');
  });

  it('masks keys in query strings, key paths and the keys API answers', () => {
    expect(maskUrl('/1/keys/abc123?X-Algolia-API-Key=secret&query=a')).toEqual({ path: '/1/keys/***', query: 'X-Algolia-API-Key=***&query=a' });
    expect(maskUrl('/1/keys/abc/restore')).toEqual({ path: '/1/keys/***/restore', query: '' });
    expect(maskAnswer('{"keys":[{"value":"sha256:ab","acl":["search"]}],"key":"k\\"1"}')).toBe('{"keys":[{"value":"***","acl":["search"]}],"key":"***"}');
  });

  it('sorts requests into searches, writes and other reads', () => {
    expect(kindOf('POST', '/1/indexes/*/queries')).toBe('query');
    expect(kindOf('GET', '/1/indexes/shop')).toBe('query');
    expect(kindOf('POST', '/1/indexes/shop/facets/brand/query')).toBe('query');
    expect(kindOf('POST', '/1/indexes/shop/batch')).toBe('build');
    expect(kindOf('DELETE', '/1/indexes/shop')).toBe('build');
    expect(kindOf('POST', '/1/indexes/*/objects')).toBe('other');
    expect(kindOf('POST', '/1/indexes/shop/rules/search')).toBe('other');
    expect(kindOf('GET', '/1/indexes/shop/settings')).toBe('other');
  });
});

describe('truncate', () => {
  it('keeps a short piece of a long text without keeping the text alive', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    gc();
    const before = process.memoryUsage().heapUsed;
    // 40 texts of 2 MB each: as views into them, the pieces would hold 80 MB.
    const pieces = Array.from({ length: 40 }, (_, n) => truncate(`${n} ${'x'.repeat(2 * 1024 * 1024)}`.split('').join('')));
    gc();
    expect(pieces[7]).toBe(`7 ${'x'.repeat(LOG_TEXT_MAX - 2)}`);
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(20 * 1024 * 1024);
  });
});
