/**
 * The dropdown's queries riding along with the page's searches, against a real server: the lite client the shop
 * uses, through a requester that records each HTTP request (and can hold an answer back, to deliver two out of
 * order).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liteClient } from 'algoliasearch/lite';
import type { LegacySearchMethodProps } from 'algoliasearch/lite';
import type { EndRequest, Requester } from '@algolia/client-common';
import { startServer } from '@vitrine/server';
import type { RunningServer } from '@vitrine/server';
import { DropdownSearch } from './dropdown-search.ts';
import type { SearchClient } from './search-client.ts';

const appId = 'dropdown-test';
const adminApiKey = 'admin-key-dropdown-test';
const searchApiKey = 'search-key-dropdown-test';

let server: RunningServer;
let dataDir: string;

const lamps = ['Brass desk lamp', 'Ceramic table lamp', 'Floor lamp', 'Clip lamp', 'Lamp shade', 'Wall lamp'];

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'vitrine-dropdown-'));
  server = await startServer({ dataDir, appId, adminApiKey, searchApiKey, port: 0 });
  const products = lamps.map((name, i) => ({ objectID: `p${i}`, name, slug: name.toLowerCase().replace(/ /g, '-'), image: `/i/${i}.svg`, price: 10 + i, brand: 'Lumio' }));
  await server.store.waitForTask((await server.store.setSettings('products', { attributesForFaceting: ['searchable(brand)'] })).taskID);
  await server.store.waitForTask((await server.store.saveObjects('products', products)).taskID);
  const suggestions = ['lamp', 'lamp shade', 'lamps for desks'].map((query, i) => ({
    objectID: query,
    query,
    popularity: 10 - i,
    products: { facets: { exact_matches: { 'hierarchicalCategories.lvl0': [{ value: 'Lighting', count: 3 }] } } },
  }));
  await server.store.waitForTask((await server.store.saveObjects('products_query_suggestions', suggestions)).taskID);
});

afterAll(async () => {
  await server?.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** The shop's client on the test server; `hold` may delay handing over an answer (its body is the request's). */
function client(hold?: (body: string) => Promise<void> | undefined): { client: SearchClient; bodies: Array<{ requests: Array<{ indexName: string }> }> } {
  const bodies: Array<{ requests: Array<{ indexName: string }> }> = [];
  const requester: Requester = {
    async send(request: EndRequest) {
      // Small JSON bodies: the client compresses none of them.
      const body = typeof request.data === 'string' ? request.data : '{}';
      bodies.push(JSON.parse(body));
      const response = await fetch(request.url, { method: request.method, headers: request.headers, body });
      const content = await response.text();
      await hold?.(body);
      return { status: response.status, content, isTimedOut: false };
    },
  };
  const { host } = new URL(server.url);
  const searchClient = liteClient(appId, searchApiKey, { hosts: [{ url: host, protocol: 'http', accept: 'readWrite' }], requester });
  return { client: searchClient, bodies };
}

/** A search as InstantSearch sends one for its results. */
const resultsSearch = (query: string): LegacySearchMethodProps => [{ indexName: 'products', params: { query, hitsPerPage: 20, facets: ['brand'] } }];

describe('DropdownSearch', () => {
  it('adds its queries to the page search while active: one request, each side gets its own answers', async () => {
    const { client: base, bodies } = client();
    const dropdown = new DropdownSearch(base, { indexName: 'products', suggestionsIndex: 'products_query_suggestions' });
    const shown: Array<string | undefined> = [];
    dropdown.subscribe((results) => shown.push(results.query));
    const page = dropdown.wrap(base);

    dropdown.setActive(true);
    const response = await page.search(resultsSearch('lamp'));
    expect(bodies).toHaveLength(1);
    expect(bodies[0].requests.map((request) => request.indexName)).toEqual(['products', 'products_query_suggestions', 'products']);
    expect(response.results).toHaveLength(1);
    expect(response.results[0]).toMatchObject({ index: 'products', nbHits: lamps.length, hitsPerPage: 20 });
    const { query, suggestions, products } = dropdown.current();
    expect(query).toBe('lamp');
    // The typed query itself is no suggestion; the first one carries its top category.
    expect(suggestions.map((suggestion) => suggestion.query)).toEqual(['lamp shade', 'lamps for desks']);
    expect(suggestions[0].category).toBe('Lighting');
    expect(products).toHaveLength(4);
    expect(Object.keys(products[0]).sort()).toEqual(['image', 'name', 'objectID', 'price', 'slug']);
    expect(shown).toEqual(['lamp']);

    // Inactive (the box lost the focus), the page's searches go alone and the dropdown keeps what it showed.
    dropdown.setActive(false);
    await page.search(resultsSearch('floor'));
    expect(bodies[1].requests.map((request) => request.indexName)).toEqual(['products']);
    expect(dropdown.current().query).toBe('lamp');
  });

  it('leaves facet value searches and other callers alone, and asks nothing for text it already answered', async () => {
    const { client: base, bodies } = client();
    const dropdown = new DropdownSearch(base, { indexName: 'products', suggestionsIndex: 'products_query_suggestions' });
    const page = dropdown.wrap(base);
    dropdown.setActive(true);
    await page.search([{ indexName: 'products', type: 'facet', facet: 'brand', facetQuery: 'lu' }]);
    await page.search({ requests: [{ indexName: 'products', query: 'lamp' }] });
    expect(bodies.map((body) => body.requests.length)).toEqual([1, 1]);

    // The box got the focus on "clip": the dropdown's queries alone, once.
    await dropdown.fetch('clip');
    expect(bodies[2].requests.map((request) => request.indexName)).toEqual(['products_query_suggestions', 'products']);
    expect(dropdown.current().products.map((product) => product.name)).toEqual(['Clip lamp']);
    await dropdown.fetch('clip');
    await page.search(resultsSearch('clip'));
    expect(bodies).toHaveLength(4);
    expect(bodies[3].requests).toHaveLength(1);
    // Empty text: suggestions only (no products to guess).
    await page.search(resultsSearch(''));
    expect(bodies[4].requests.map((request) => request.indexName)).toEqual(['products', 'products_query_suggestions']);
    expect(dropdown.current()).toMatchObject({ query: '', products: [] });
  });

  it('ignores an older answer that arrives after a newer one', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    // The first keystroke's answer is held until the second's has been shown.
    const { client: base } = client((body) => (body.includes('"query":"fl"') ? released : undefined));
    const dropdown = new DropdownSearch(base, { indexName: 'products', suggestionsIndex: 'products_query_suggestions' });
    const page = dropdown.wrap(base);
    dropdown.setActive(true);
    const older = page.search(resultsSearch('fl'));
    await page.search(resultsSearch('wall'));
    expect(dropdown.current().query).toBe('wall');
    release();
    const olderResponse = await older;
    // InstantSearch still gets its answer (its helper drops it in turn); the dropdown keeps the newer one.
    expect(olderResponse.results).toHaveLength(1);
    expect(dropdown.current().query).toBe('wall');
    expect(dropdown.current().products.map((product) => product.name)).toEqual(['Wall lamp']);
  });

  it('keeps the results working without a suggestions index, and stops asking for it', async () => {
    const { client: base, bodies } = client();
    const dropdown = new DropdownSearch(base, { indexName: 'products', suggestionsIndex: 'missing_query_suggestions' });
    const page = dropdown.wrap(base);
    dropdown.setActive(true);
    const response = await page.search(resultsSearch('lamp'));
    expect(response.results[0]).toMatchObject({ index: 'products', nbHits: lamps.length });
    expect(bodies.map((body) => body.requests.length)).toEqual([3, 1]);
    await page.search(resultsSearch('wall'));
    expect(bodies[2].requests.map((request) => request.indexName)).toEqual(['products', 'products']);
    expect(dropdown.current()).toMatchObject({ query: 'wall', suggestions: [] });
    expect(dropdown.current().products.map((product) => product.name)).toEqual(['Wall lamp']);

    // The same through the focus's own request.
    const other = new DropdownSearch(base, { indexName: 'products', suggestionsIndex: 'missing_query_suggestions' });
    await other.fetch('floor');
    expect(other.current()).toEqual({ query: 'floor', suggestions: [], products: [] });
    await other.fetch('clip');
    expect(bodies.at(-1)!.requests.map((request) => request.indexName)).toEqual(['products']);
    expect(other.current().products.map((product) => product.name)).toEqual(['Clip lamp']);
  });

  it('passes on a refusal of the page\'s own search', async () => {
    const { client: base } = client();
    const dropdown = new DropdownSearch(base, { indexName: 'products', suggestionsIndex: 'products_query_suggestions' });
    const page = dropdown.wrap(base);
    dropdown.setActive(true);
    // The page's own search refused (an index that does not exist): the error is the page's, as without the dropdown.
    await expect(page.search([{ indexName: 'nowhere', params: { query: 'lamp' } }])).rejects.toMatchObject({ status: 404 });
  });
});
