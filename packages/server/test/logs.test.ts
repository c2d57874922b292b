/**
 * `GET /1/logs` over a real socket, read through the official v5 client: the last requests newest first, the
 * `type`, `indexName`, `offset` and `length` filters, bodies and answers cut to 1,000 characters, and no API
 * key in clear anywhere (headers, query strings, `/1/keys/{key}` paths, the keys API's answers). Admin only.
 */
import { algoliasearch } from 'algoliasearch';
import type { Algoliasearch } from 'algoliasearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, APP_ID, SEARCH_KEY, startTestServer } from '../src/test-support.ts';
import type { TestServer } from '../src/test-support.ts';

describe('API logs', () => {
  let fixture: TestServer;
  let client: Algoliasearch;
  let createdKey: string;

  beforeAll(async () => {
    fixture = await startTestServer();
    client = algoliasearch(APP_ID, ADMIN_KEY, { hosts: [{ url: fixture.host, protocol: 'http', accept: 'readWrite' }] });
    await client.saveObjects({ indexName: 'shop', objects: [{ objectID: '1', name: 'lamp', notes: 'x'.repeat(3000) }], waitForTasks: true });
    createdKey = await fixture.createKey({ acl: ['search', 'logs'], description: 'reader' });
    await fixture.call('GET', `/1/keys/${createdKey}`);
    // Credentials in the query string, as browsers may send them.
    await fetch(`${fixture.url}/1/indexes/shop?query=lamp&x-algolia-application-id=${APP_ID}&x-algolia-api-key=${SEARCH_KEY}`);
    await fixture.call('POST', '/1/indexes/*/queries', { requests: [{ indexName: 'shop', query: 'lamp' }] }, SEARCH_KEY);
    await fixture.call('POST', '/1/indexes/missing/query', { query: 1 }, SEARCH_KEY);
  });
  afterAll(() => fixture.close());

  it('lists the last requests, newest first, with every key masked', async () => {
    const { logs } = await client.getLogs({ length: 1000 });
    expect(logs.length).toBeGreaterThan(5);
    expect(logs[0]).toMatchObject({ method: 'POST', url: '/1/indexes/missing/query', answer_code: '400', index: 'missing' });
    expect(logs[1]).toMatchObject({ method: 'POST', url: '/1/indexes/*/queries', answer_code: '200', inner_queries: [{ index_name: 'shop' }] });
    expect(logs[1].answer).toContain('"hits"');
    const browser = logs[2];
    expect(browser).toMatchObject({ method: 'GET', url: '/1/indexes/shop', index: 'shop' });
    expect(browser.query_params).toContain('query=lamp');
    expect(browser.query_params).toContain('x-algolia-api-key=***');
    for (const entry of logs) {
      expect(Date.parse(entry.timestamp)).toBeGreaterThan(Date.now() - 60_000);
      expect(entry.sha1).toMatch(/^[0-9a-f]{40}$/);
      expect(Number(entry.processing_time_ms)).toBeGreaterThanOrEqual(0);
      expect(entry.query_body.length).toBeLessThanOrEqual(1000);
      expect(entry.answer.length).toBeLessThanOrEqual(1000);
    }
    const text = JSON.stringify(logs);
    for (const key of [ADMIN_KEY, SEARCH_KEY, createdKey]) expect(text).not.toContain(key);
    expect(logs.some((entry) => entry.url === '/1/keys/***')).toBe(true);
    expect(logs.find((entry) => entry.method === 'POST' && entry.url === '/1/keys')?.answer).toMatch(/"key":"\*\*\*"/);
    expect(logs.some((entry) => entry.query_headers.toLowerCase().includes('x-algolia-api-key: ***'))).toBe(true);
    // The record's 3,000-character attribute was cut.
    expect(logs.find((entry) => entry.url === '/1/indexes/shop/batch')?.query_body).toHaveLength(1000);
    // getLogs itself is left out, as Algolia does.
    expect((await client.getLogs({ length: 1000 })).logs.some((entry) => entry.url === '/1/logs')).toBe(false);
  });

  it('filters by type, index, offset and length', async () => {
    const all = (await client.getLogs({ length: 1000 })).logs;
    expect((await client.getLogs({ type: 'error' })).logs.map((entry) => entry.answer_code)).toEqual(['400']);
    const queries = (await client.getLogs({ type: 'query', length: 1000 })).logs;
    expect(queries.map((entry) => entry.url)).toEqual(['/1/indexes/missing/query', '/1/indexes/*/queries', '/1/indexes/shop']);
    const builds = (await client.getLogs({ type: 'build', length: 1000 })).logs;
    expect(builds.map((entry) => entry.url)).toContain('/1/indexes/shop/batch');
    expect(builds.every((entry) => entry.method !== 'GET')).toBe(true);
    expect((await client.getLogs({ indexName: 'shop', length: 1000 })).logs.every((entry) => entry.index === 'shop' || entry.inner_queries?.some((q) => q.index_name === 'shop'))).toBe(true);
    expect((await client.getLogs({ offset: 1, length: 2 })).logs).toEqual(all.slice(1, 3));
    // Ten by default: make sure there are more than that first (each search below is logged).
    for (let i = 0; i < 10; i++) await fixture.call('POST', '/1/indexes/shop/query', { query: `q${i}` }, SEARCH_KEY);
    const recent = (await client.getLogs()).logs;
    expect(recent.map((entry) => entry.query_body)).toEqual(Array.from({ length: 10 }, (_, i) => JSON.stringify({ query: `q${9 - i}` })));
  });

  it('is for the admin key only, and refuses bad parameters', async () => {
    const reader = algoliasearch(APP_ID, createdKey, { hosts: [{ url: fixture.host, protocol: 'http', accept: 'readWrite' }] });
    await expect(reader.getLogs()).rejects.toMatchObject({ status: 403 });
    expect((await fixture.call('GET', '/1/logs?length=1001')).status).toBe(400);
    expect((await fixture.call('GET', '/1/logs?type=everything')).body).toEqual({ message: 'Invalid value for "type": expected all, query, build or error', status: 400 });
  });
});
