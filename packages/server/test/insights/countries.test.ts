/**
 * `/2/countries` over a real socket through the official analytics client: a searcher's country counts only when
 * a proxy `trustProxy` names sent it (`CF-IPCountry` or `X-Country-Code`); the same headers from anyone else
 * are ignored, and without any country the answer is the spec's shape, empty.
 */
import { algoliasearch } from 'algoliasearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, APP_ID, SEARCH_KEY, startTestServer } from '../../src/test-support.ts';
import type { TestServer } from '../../src/test-support.ts';

const RECORDS = [{ objectID: '1', name: 'lamp' }, { objectID: '2', name: 'chair' }];

async function searchFrom(t: TestServer, query: string, userToken: string, headers: Record<string, string>): Promise<void> {
  const response = await fetch(`${t.url}/1/indexes/shop/query`, {
    method: 'POST',
    headers: { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': SEARCH_KEY, ...headers },
    body: JSON.stringify({ query, userToken }),
  });
  expect(response.status).toBe(200);
}

const topCountries = (t: TestServer) => {
  const hosts = [{ url: t.host, protocol: 'http' as const, accept: 'readWrite' as const }];
  return algoliasearch(APP_ID, ADMIN_KEY, { hosts }).initAnalytics({ options: { hosts } }).getTopCountries({ index: 'shop' });
};

describe('top countries', () => {
  let trusted: TestServer;
  let untrusted: TestServer;

  beforeAll(async () => {
    const index = { name: 'shop', settings: {}, records: RECORDS };
    // The test's requests come from loopback: the proxy the first server trusts.
    trusted = await startTestServer({ config: { trustProxy: 'loopback' }, index });
    untrusted = await startTestServer({ index });
  });
  afterAll(async () => {
    await trusted.close();
    await untrusted.close();
  });

  it('counts the searches whose country a trusted proxy sent, most first', async () => {
    // Different users and queries: query aggregation counts each search.
    await searchFrom(trusted, 'lamp', 'a', { 'cf-ipcountry': 'FR' });
    await searchFrom(trusted, 'chair', 'b', { 'cf-ipcountry': 'fr' });
    await searchFrom(trusted, 'lamp', 'c', { 'x-country-code': 'DE' });
    await searchFrom(trusted, 'chair', 'd', { 'cf-ipcountry': 'XX' });
    await searchFrom(trusted, 'lamp', 'e', { 'cf-ipcountry': 'not a country' });
    await searchFrom(trusted, 'chair', 'f', {});
    expect(await topCountries(trusted)).toEqual({ countries: [{ country: 'FR', count: 2 }, { country: 'DE', count: 1 }] });
  });

  it('ignores the headers from a sender it does not trust', async () => {
    await searchFrom(untrusted, 'lamp', 'a', { 'cf-ipcountry': 'FR' });
    expect(await topCountries(untrusted)).toEqual({ countries: [] });
  });
});
