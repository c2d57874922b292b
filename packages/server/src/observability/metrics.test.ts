import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseExposition, sampleValue } from '../../test/prometheus-text.ts';
import type { MetricFamily } from '../../test/prometheus-text.ts';
import { ADMIN_KEY, APP_ID, SEARCH_KEY, securedApiKey, startTestServer } from '../test-support.ts';
import type { TestServer } from '../test-support.ts';

const SHOP = 'shop';
const records = Array.from({ length: 5 }, (_, i) => ({ objectID: `p${i}`, name: `lamp ${i}`, brand: i % 2 ? 'Lumio' : 'Nordlys' }));
const QUERY_ROUTE = { method: 'POST', route: '/1/indexes/:indexName/query', status_code: '200' };

/** `/metrics` over the socket with `key` in the headers (null: no credentials). */
async function scrape(server: TestServer, key: string | null = ADMIN_KEY): Promise<Response> {
  return fetch(`${server.url}/metrics`, { headers: key === null ? {} : { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': key } });
}

async function families(server: TestServer): Promise<Map<string, MetricFamily>> {
  const response = await scrape(server);
  expect(response.status).toBe(200);
  return parseExposition(await response.text());
}

describe('GET /metrics', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ index: { name: SHOP, settings: { searchableAttributes: ['name'], attributesForFaceting: ['brand'] }, records } });
  });
  afterAll(() => server.close());

  it('answers the admin key in Prometheus\' text format, which a strict parser reads whole', async () => {
    const response = await scrape(server);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const parsed = parseExposition(await response.text());
    for (const name of [
      'vitrine_http_requests_total', 'vitrine_http_request_duration_seconds', 'vitrine_search_duration_seconds', 'vitrine_ready',
      'vitrine_index_records', 'vitrine_index_pending_tasks', 'vitrine_pending_tasks', 'vitrine_oplog_operations', 'vitrine_oplog_records',
      'vitrine_oplog_bytes', 'process_resident_memory_bytes', 'nodejs_heap_size_used_bytes', 'nodejs_eventloop_lag_seconds', 'nodejs_eventloop_lag_p99_seconds',
    ]) {
      expect(parsed.get(name)?.help, name).toBeTruthy();
    }
    expect(parsed.get('vitrine_http_request_duration_seconds')?.type).toBe('histogram');
    expect(parsed.get('vitrine_http_requests_total')?.type).toBe('counter');
    expect(sampleValue(parsed, 'vitrine_ready')).toBe(1);
    expect(sampleValue(parsed, 'process_resident_memory_bytes')).toBeGreaterThan(10 * 1024 * 1024);
  });

  it('counts searches by route pattern: three searches, three more, in the request counter and both histograms', async () => {
    const before = await families(server);
    for (const query of ['lamp', 'lamp 3', 'nothing']) await server.search({ query }, SHOP);
    const after = await families(server);
    const rise = (name: string, labels: Record<string, string> = {}) => (sampleValue(after, name, labels) ?? 0) - (sampleValue(before, name, labels) ?? 0);
    expect(rise('vitrine_http_requests_total', QUERY_ROUTE)).toBe(3);
    expect(rise('vitrine_http_request_duration_seconds_count', QUERY_ROUTE)).toBe(3);
    expect(rise('vitrine_http_request_duration_seconds_bucket', { ...QUERY_ROUTE, le: '+Inf' })).toBe(3);
    expect(rise('vitrine_search_duration_seconds_count')).toBe(3);
    expect(rise('vitrine_search_duration_seconds_sum')).toBeGreaterThan(0);
    // The label is the pattern, never the index's name nor the URL.
    const routes = new Set(after.get('vitrine_http_requests_total')!.samples.map((sample) => sample.labels.route));
    expect([...routes].some((route) => route.includes(SHOP))).toBe(false);
  });

  it('counts every unknown path under one label value, and the refusals by status', async () => {
    const before = await families(server);
    for (const path of ['/nowhere', '/1/nowhere/at/all', `/x/${Math.random()}`]) expect((await fetch(`${server.url}${path}`)).status).toBe(404);
    expect((await server.call('GET', '/1/indexes', undefined, SEARCH_KEY)).status).toBe(403);
    const after = await families(server);
    const rise = (labels: Record<string, string>) => (sampleValue(after, 'vitrine_http_requests_total', labels) ?? 0) - (sampleValue(before, 'vitrine_http_requests_total', labels) ?? 0);
    expect(rise({ method: 'GET', route: '(unmatched)', status_code: '404' })).toBe(3);
    expect(rise({ method: 'GET', route: '/1/indexes', status_code: '403' })).toBe(1);
  });

  it('reads each index\'s records, and the log since the snapshot, which a snapshot empties', async () => {
    const batch = await server.call('POST', '/1/indexes/other/batch', { requests: [{ action: 'addObject', body: { objectID: 'a' } }, { action: 'addObject', body: { objectID: 'b' } }] });
    await server.server.store.waitForTask(batch.body.taskID);
    let parsed = await families(server);
    expect(sampleValue(parsed, 'vitrine_index_records', { index: SHOP })).toBe(5);
    expect(sampleValue(parsed, 'vitrine_index_records', { index: 'other' })).toBe(2);
    expect(sampleValue(parsed, 'vitrine_index_pending_tasks', { index: SHOP })).toBe(0);
    expect(sampleValue(parsed, 'vitrine_pending_tasks')).toBe(0);
    // The settings, the five records and the batch: three operations since the start, none snapshotted.
    expect(sampleValue(parsed, 'vitrine_oplog_operations')).toBe(3);
    expect(sampleValue(parsed, 'vitrine_oplog_bytes')).toBeGreaterThan(100);
    expect(parsed.has('vitrine_snapshot_age_seconds')).toBe(false);

    await server.server.store.snapshot();
    parsed = await families(server);
    expect(sampleValue(parsed, 'vitrine_oplog_operations')).toBe(0);
    expect(sampleValue(parsed, 'vitrine_oplog_bytes')).toBe(0);
    const age = sampleValue(parsed, 'vitrine_snapshot_age_seconds')!;
    expect(age).toBeGreaterThanOrEqual(0);
    expect(age).toBeLessThan(60);

    // A dropped index leaves the gauges with the next scrape.
    await server.server.store.waitForTask((await server.call('DELETE', '/1/indexes/other')).body.taskID);
    parsed = await families(server);
    expect(sampleValue(parsed, 'vitrine_index_records', { index: 'other' })).toBeUndefined();
    expect(sampleValue(parsed, 'vitrine_index_records', { index: SHOP })).toBe(5);
  });

  describe('who may read it', () => {
    const forbidden = (message: string) => ({ message, status: 403 });

    it('refuses a request without credentials, the search key, and keys without the usage ACL, with Algolia\'s body', async () => {
      const searchOnly = await server.createKey({ acl: ['search', 'browse', 'listIndexes', 'logs'] });
      const secured = securedApiKey(SEARCH_KEY, { filters: 'brand:Lumio' });
      const answers = await Promise.all([null, SEARCH_KEY, searchOnly, secured, 'not-a-key'].map((key) => scrape(server, key)));
      const bodies = await Promise.all(answers.map((answer) => answer.json()));
      expect(answers.map((answer) => answer.status)).toEqual([403, 403, 403, 403, 403]);
      expect(bodies).toEqual([
        forbidden('Invalid Application-ID or API key'),
        forbidden('Method not allowed with this API key'),
        forbidden('Method not allowed with this API key'),
        forbidden('Method not allowed with this API key'),
        forbidden('Invalid Application-ID or API key'),
      ]);
    });

    it('answers a key whose ACL includes usage', async () => {
      const monitoring = await server.createKey({ acl: ['usage'], description: 'Prometheus' });
      const response = await scrape(server, monitoring);
      expect(response.status).toBe(200);
      expect(sampleValue(parseExposition(await response.text()), 'vitrine_index_records', { index: SHOP })).toBe(5);
    });
  });
});

describe('GET /metrics with search threads', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ config: { searchThreads: 1 }, index: { name: SHOP, settings: {}, records } });
  });
  afterAll(() => server.close());

  it('reads the records the threads hold, how many threads are ready and their queue, without a record on the main thread', async () => {
    await server.server.app.searchThreads!.whenReady(1);
    await server.search({ query: 'lamp' }, SHOP);
    // The thread reports its counts after applying the writes it received, which may follow the task's publication.
    await expect.poll(async () => sampleValue(await families(server), 'vitrine_index_records', { index: SHOP })).toBe(5);
    const parsed = await families(server);
    expect(sampleValue(parsed, 'vitrine_search_threads_ready')).toBe(1);
    expect(sampleValue(parsed, 'vitrine_search_threads_queued_calls')).toBe(0);
    expect(sampleValue(parsed, 'vitrine_search_duration_seconds_count')).toBe(1);
    expect(server.server.store.registry.recordsHere).toBe(false);
  });
});
