/**
 * Query suggestions cannot be planted by one client (issue 49, item 6), over a real socket with searches from
 * several loopback addresses: a suggestion needs searches from at least `minUsers` distinct users (3 by default;
 * a user is the client's address, a user token only where no address is known: anyone can send 40 tokens), and a
 * block list (`suggestionsExclude`, or a configuration's `exclude`) keeps out every query holding a listed word or
 * phrase.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../../src/test-support.ts';
import type { TestServer } from '../../src/test-support.ts';
import { searchStore } from '../../src/search/in-process.ts';
import { PRODUCTS, SETTINGS } from '../catalogue.ts';
import { searchFrom as searchFromAddress } from './search-from.ts';

describe('query suggestions built from searches', () => {
  let t: TestServer;

  /** One search with the public key from `address` (a loopback address of its own), as `userToken`. */
  const searchFrom = (address: string, query: string, userToken: string) => searchFromAddress(t.server.port, address, 'products', query, userToken);
  const suggested = async () => {
    const built = await t.call('POST', '/1/vitrine/query-suggestions/build');
    expect(built.status).toBe(200);
    return searchStore(t.server.store, 'products_query_suggestions', { query: '', hitsPerPage: 1000 }).hits.map((hit) => (hit as unknown as { query: string }).query).sort();
  };

  beforeAll(async () => {
    t = await startTestServer({
      config: { insights: { modelRebuildIntervalMs: 0, suggestionsRebuildIntervalMs: 0, suggestionsExclude: ['chair', 'Floor Lamp'] } },
      index: { name: 'products', settings: SETTINGS, records: PRODUCTS },
    });
  });
  afterAll(() => t.close());

  it('needs searches from 3 distinct users; one address with 40 user tokens is one user', async () => {
    // The attack: one client, 40 searches, each with a user token of its own.
    for (let i = 0; i < 40; i++) expect(await searchFrom('127.0.0.1', 'lumio lamp', `token-${i}`)).toBe(200);
    // Two shoppers: not enough.
    for (const address of ['127.0.0.2', '127.0.0.3']) for (let i = 0; i < 2; i++) await searchFrom(address, 'wireless keyboard', `shopper-${address}-${i}`);
    // Three shoppers.
    for (const address of ['127.0.0.2', '127.0.0.3', '127.0.0.4']) await searchFrom(address, 'oak desk', `shopper-${address}`);
    expect(await suggested()).toEqual(['oak desk']);
  });

  it('leaves out every query holding a word or phrase of the block list, whatever its case', async () => {
    for (const address of ['127.0.0.5', '127.0.0.6', '127.0.0.7']) {
      for (const query of ['oak chair', 'brass floor lamp', 'lumio table lamp']) await searchFrom(address, query, `shopper-${address}`);
    }
    // "brass floor lamp" holds the phrase; "lumio table lamp" holds "lamp" only, not "floor lamp".
    expect(await suggested()).toEqual(['lumio table lamp', 'oak desk']);
  });
});
