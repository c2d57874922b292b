/**
 * The application's allowed sources (`getSources`, `replaceSources`, `appendSource`, `deleteSource`) through the
 * official v5 client (v4 has no such calls) against a real server on loopback. Callers come from other addresses
 * two ways: another loopback address as the connection's source (`127.0.0.2`, through the client's requester), and
 * `X-Forwarded-For` from the proxy the server trusts (`trustProxy: 127.0.0.1`, as `VITRINE_TRUST_PROXY` sets it),
 * which is how it sees a remote, non-loopback client.
 */
import type { Algoliasearch } from 'algoliasearch';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, APP_ID, SEARCH_KEY, startTestServer } from '../src/test-support.ts';
import type { TestServer } from '../src/test-support.ts';
import { PRODUCTS, SETTINGS } from './catalogue.ts';
import { clientFrom, refusal } from './client-from.ts';
import type { Origin } from './client-from.ts';

const REFUSED = 'Source IP not allowed: this application accepts requests only from its allowed sources (/1/security/sources)';
const OFFICE = '198.51.100.0/24';
const OUTSIDE = '203.0.113.9';

describe('allowed sources through the official v5 client', () => {
  let fixture: TestServer;
  /** The admin key from this machine (loopback): always let in. */
  let local: Algoliasearch;
  const from = (key: string, origin: Origin) => clientFrom(fixture.host, key, origin);
  const raw = (method: string, path: string, body: string | undefined, origin: Origin & { key?: string } = {}) =>
    fetch(`${fixture.url}${path}`, {
      method,
      body,
      headers: { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': origin.key ?? ADMIN_KEY, ...(origin.forwardedFor ? { 'x-forwarded-for': origin.forwardedFor } : {}) },
    });

  beforeAll(async () => {
    fixture = await startTestServer({ config: { trustProxy: '127.0.0.1' }, index: { name: 'products', settings: SETTINGS, records: PRODUCTS } });
    local = from(ADMIN_KEY, {});
  });
  afterEach(() => local.replaceSources({ source: [] }));
  afterAll(() => fixture.close());

  it('lists, replaces, appends and deletes sources, answering the spec\'s shapes', async () => {
    expect(await local.getSources()).toEqual([]);
    const replaced = await local.replaceSources({ source: [{ source: '10.0.0.0/8', description: 'Office' }, { source: '2001:DB8::/32' }] });
    expect(Date.parse(replaced.updatedAt)).not.toBeNaN();
    const appended = await local.appendSource({ source: '203.0.113.7', description: 'VPN' });
    expect(Date.parse(appended.createdAt)).not.toBeNaN();
    expect(await local.getSources()).toEqual([{ source: '10.0.0.0/8', description: 'Office' }, { source: '2001:DB8::/32' }, { source: '203.0.113.7', description: 'VPN' }]);

    // The same range again (another spelling) updates its entry: a retried append leaves one.
    await local.appendSource({ source: '203.0.113.7/32', description: 'VPN exit' });
    expect((await local.getSources()).map((entry) => entry.description)).toEqual(['Office', undefined, 'VPN exit']);

    // Deleted by the range, however written (the client sends it percent-encoded: 2001%3Adb8%3A%3A%2F32).
    const deleted = await local.deleteSource({ source: '2001:db8::/32' });
    expect(Date.parse(deleted.deletedAt)).not.toBeNaN();
    expect((await local.getSources()).map((entry) => entry.source)).toEqual(['10.0.0.0/8', '203.0.113.7/32']);
    expect(await refusal(local.deleteSource({ source: '192.0.2.0/24' }))).toEqual({ status: 404, message: 'Source does not exist: 192.0.2.0/24' });
  });

  it('refuses every key, the admin key included, from an address outside a non-empty list', async () => {
    await local.replaceSources({ source: [{ source: OFFICE, description: 'Office' }] });
    const query = { indexName: 'products', searchParams: { query: 'lamp' } };

    expect((await from(SEARCH_KEY, { forwardedFor: '198.51.100.7' }).searchSingleIndex(query)).nbHits).toBeGreaterThan(0);
    expect(await refusal(from(SEARCH_KEY, { forwardedFor: OUTSIDE }).searchSingleIndex(query))).toEqual({ status: 403, message: REFUSED });
    expect(await refusal(from(ADMIN_KEY, { forwardedFor: OUTSIDE }).listIndices())).toEqual({ status: 403, message: REFUSED });
    // Refused before the key is read: a wrong key gets the same answer, and counts against no budget.
    expect(await refusal(from('wrong-key', { forwardedFor: OUTSIDE }).listIndices())).toEqual({ status: 403, message: REFUSED });
    // Algolia's error body, from a plain request.
    const answer = await raw('GET', '/1/indexes', undefined, { forwardedFor: OUTSIDE });
    expect(answer.status).toBe(403);
    expect(await answer.json()).toEqual({ message: REFUSED, status: 403 });

    // Another loopback address, as the connection's source: X-Forwarded-For from it is not believed (127.0.0.2 is
    // no trusted proxy), so the office's address it names does not help.
    expect(await refusal(from(SEARCH_KEY, { localAddress: '127.0.0.2', forwardedFor: '198.51.100.7' }).searchSingleIndex(query))).toEqual({ status: 403, message: REFUSED });
    // The admin key from the server's own machine always gets in, whatever the list.
    expect((await from(ADMIN_KEY, { localAddress: '127.0.0.2' }).listIndices()).items.map((item) => item.name)).toContain('products');
    expect(await refusal(from(SEARCH_KEY, {}).searchSingleIndex(query))).toEqual({ status: 403, message: REFUSED });

    // A load balancer's health check is answered from anywhere; metrics are not.
    expect((await raw('GET', '/1/isalive', undefined, { forwardedFor: OUTSIDE })).status).toBe(200);
    expect((await raw('GET', '/metrics', undefined, { forwardedFor: OUTSIDE })).status).toBe(403);
    expect((await raw('GET', '/metrics', undefined, { forwardedFor: '198.51.100.7' })).status).toBe(200);
    // Nor does any other path answer (no 404 telling what exists).
    expect((await raw('GET', '/anything', undefined, { forwardedFor: OUTSIDE })).status).toBe(403);
  });

  it('matches IPv6 ranges, and lets everyone in once the list is empty again', async () => {
    await local.replaceSources({ source: [{ source: '2001:db8::/32' }] });
    expect((await from(SEARCH_KEY, { forwardedFor: '2001:db8:5::1' }).searchSingleIndex({ indexName: 'products' })).nbHits).toBe(PRODUCTS.length);
    expect((await refusal(from(SEARCH_KEY, { forwardedFor: '2001:db9::1' }).searchSingleIndex({ indexName: 'products' }))).status).toBe(403);
    expect((await refusal(from(SEARCH_KEY, { forwardedFor: OUTSIDE }).searchSingleIndex({ indexName: 'products' }))).status).toBe(403);
    await local.replaceSources({ source: [] });
    expect((await from(SEARCH_KEY, { forwardedFor: OUTSIDE }).searchSingleIndex({ indexName: 'products' })).nbHits).toBe(PRODUCTS.length);
  });

  it('refuses a change that would shut out the address making it, and changes nothing', async () => {
    const remote = from(ADMIN_KEY, { forwardedFor: OUTSIDE });
    const lockOut = { status: 400, message: expect.stringContaining(`This change would refuse the address making the request (${OUTSIDE})`) };
    // Turning the list on without one's own address, by append or replace.
    expect(await refusal(remote.appendSource({ source: OFFICE }))).toEqual(lockOut);
    expect(await refusal(remote.replaceSources({ source: [{ source: OFFICE }] }))).toEqual(lockOut);
    expect(await local.getSources()).toEqual([]);

    await remote.replaceSources({ source: [{ source: '203.0.113.0/24', description: 'Home' }, { source: OFFICE }] });
    expect(await refusal(remote.deleteSource({ source: '203.0.113.0/24' }))).toEqual(lockOut);
    expect(await refusal(remote.replaceSources({ source: [{ source: OFFICE }, { source: '192.0.2.0/24' }] }))).toEqual(lockOut);
    expect((await local.getSources()).map((entry) => entry.source)).toEqual(['203.0.113.0/24', OFFICE]);

    // Another administrator may remove that address (they stay in); the first is then out.
    await from(ADMIN_KEY, { forwardedFor: '198.51.100.4' }).deleteSource({ source: '203.0.113.0/24' });
    expect((await refusal(remote.getSources())).status).toBe(403);
    // The server's own machine can set any list, one leaving loopback out too, and still repair it after.
    await local.replaceSources({ source: [{ source: '192.0.2.0/24' }] });
    expect(await local.getSources()).toEqual([{ source: '192.0.2.0/24' }]);
    await local.replaceSources({ source: [{ source: OUTSIDE }] });
    expect(await remote.getSources()).toEqual([{ source: OUTSIDE }]);
  });

  it('refuses bad sources with a 400 naming them, applying nothing', async () => {
    await local.replaceSources({ source: [{ source: '10.0.0.0/8' }] });
    expect(await refusal(local.replaceSources({ source: [{ source: '10.1.0.0/16' }, { source: '10.0.0.0/33' }] }))).toEqual({
      status: 400,
      message: 'Invalid source "10.0.0.0/33" (at the position 1): the prefix length /33 is past 32, the size of an IPv4 address',
    });
    expect(await refusal(local.appendSource({ source: '300.1.2.3' }))).toEqual({ status: 400, message: 'Invalid source "300.1.2.3": "300.1.2.3" is not an IPv4 or IPv6 address' });
    expect((await refusal(local.appendSource({ source: 'ALGOLIA_SUPPORT' }))).status).toBe(400);
    expect((await refusal(local.appendSource({ source: '2001:db8::/200', description: 'x' }))).message).toContain('past 128');
    expect((await refusal(local.deleteSource({ source: '10.0.0.0/99' }))).status).toBe(400);
    expect((await refusal(local.replaceSources({ source: [{ source: '10.2.0.0/16' }, { source: '10.2.0.0/16' }] }))).message).toContain('the same range as the source at the position 0');
    // Shapes the client's types keep out, sent as they are.
    for (const [method, path, body] of [
      ['PUT', '/1/security/sources', '{"source":"10.0.0.0/8"}'],
      ['PUT', '/1/security/sources', '[{"source":"10.3.0.0/16","description":7}]'],
      ['PUT', '/1/security/sources', '["10.3.0.0/16"]'],
      ['POST', '/1/security/sources/append', '[]'],
      ['POST', '/1/security/sources/append', undefined],
    ] as const) {
      const answer = await raw(method, path, body);
      expect(answer.status, `${method} ${path} ${body}`).toBe(400);
      expect((await answer.json()).status).toBe(400);
    }
    expect(await local.getSources()).toEqual([{ source: '10.0.0.0/8' }]);
  });

  it('is for the admin key only', async () => {
    const searchKey = from(SEARCH_KEY, {});
    const denied = { status: 403, message: 'Method not allowed with this API key' };
    expect(await refusal(searchKey.getSources())).toEqual(denied);
    expect(await refusal(searchKey.appendSource({ source: '10.0.0.0/8' }))).toEqual(denied);
    const withEveryAcl = await fixture.createKey({ acl: ['search', 'browse', 'addObject', 'deleteObject', 'deleteIndex', 'settings', 'editSettings', 'listIndexes', 'logs', 'usage'] });
    expect(await refusal(from(withEveryAcl, {}).replaceSources({ source: [] }))).toEqual(denied);
    expect(await local.getSources()).toEqual([]);
  });
});
