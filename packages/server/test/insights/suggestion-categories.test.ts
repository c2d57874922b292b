/**
 * The generated suggestions index as Algolia's autocomplete query-suggestions plugin and its InstantSearch
 * example use it, through the official v5 client over a real socket: the "In <category>" source filters with
 * `facetFilters: ["<source>.facets.exact_matches.hierarchicalCategories.lvl0.value:<category>"]` (plus the
 * recent-searches plugin's `objectID:-<query>` entries), the "In other categories" source with the negation, and
 * the plugin reads each hit's categories at `[<source>, "facets", "exact_matches", "hierarchicalCategories.lvl0"]`.
 * The path crosses a key holding a dot; the index's settings declare it for faceting out of the box.
 */
import { algoliasearch } from 'algoliasearch';
import { liteClient } from 'algoliasearch/lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, APP_ID, SEARCH_KEY, startTestServer } from '../../src/test-support.ts';
import type { TestServer } from '../../src/test-support.ts';
import { searchFrom } from './search-from.ts';

const PRODUCTS = [
  { objectID: 'p1', name: 'Lumio ceramic table lamp', hierarchicalCategories: { lvl0: 'Home' } },
  { objectID: 'p2', name: 'Lumio brass floor lamp', hierarchicalCategories: { lvl0: 'Home' } },
  { objectID: 'p3', name: 'Glow USB desk lamp', hierarchicalCategories: { lvl0: 'Electronics' } },
  { objectID: 'p4', name: 'Apple wireless keyboard', hierarchicalCategories: { lvl0: 'Electronics' } },
  { objectID: 'p5', name: 'Nordhus oak desk', hierarchicalCategories: { lvl0: 'Office' } },
];
const SUGGESTIONS = 'products_query_suggestions';
const CATEGORY = 'products.facets.exact_matches.hierarchicalCategories.lvl0.value';

describe('the suggestions index, as the autocomplete query-suggestions plugin reads it', () => {
  let t: TestServer;
  const hosts = () => [{ url: t.host, protocol: 'http' as const, accept: 'readWrite' as const }];
  const lite = () => liteClient(APP_ID, SEARCH_KEY, { hosts: hosts() });
  /** The plugin's request: one query on the suggestions index with the source's search parameters. */
  const suggest = async (query: string, params: Record<string, unknown>) => {
    const { results } = await lite().search({ requests: [{ indexName: SUGGESTIONS, query, ...params }] });
    return (results[0] as { hits: Array<Record<string, unknown>> }).hits;
  };

  beforeAll(async () => {
    t = await startTestServer({
      config: { insights: { modelRebuildIntervalMs: 0, suggestionsRebuildIntervalMs: 0 } },
      index: { name: 'products', settings: { searchableAttributes: ['name'], attributesForFaceting: ['hierarchicalCategories.lvl0'] }, records: PRODUCTS },
    });
    // Three shoppers (addresses) each, as a suggestion needs; "lamp" a fourth, to rank first.
    for (const address of ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5']) {
      for (const query of address === '127.0.0.5' ? ['lamp'] : ['lamp', 'desk', 'keyboard']) {
        expect(await searchFrom(t.server.port, address, 'products', query, `shopper-${address}`)).toBe(200);
      }
    }
    expect((await t.call('POST', '/1/vitrine/query-suggestions/build')).status).toBe(200);
  });
  afterAll(() => t.close());

  it('declares the category values for faceting', async () => {
    const settings = await algoliasearch(APP_ID, ADMIN_KEY, { hosts: hosts() }).getSettings({ indexName: SUGGESTIONS });
    expect(settings.attributesForFaceting).toEqual([CATEGORY]);
  });

  it('holds each suggestion\'s categories where the plugin\'s categoryAttribute reads them', async () => {
    const hits = await suggest('', { hitsPerPage: 10 });
    expect(hits.map((hit) => hit.query)).toEqual(['lamp', 'desk', 'keyboard']);
    const categories = (hit: Record<string, unknown>) =>
      ((hit.products as { facets: { exact_matches: Record<string, Array<{ value: string; count: number }>> } }).facets.exact_matches['hierarchicalCategories.lvl0']);
    expect(categories(hits[0])).toEqual([{ value: 'Home', count: 2 }, { value: 'Electronics', count: 1 }]);
    expect(categories(hits[1])).toEqual([{ value: 'Electronics', count: 1 }, { value: 'Office', count: 1 }]);
  });

  it('answers the "In <category>" and "In other categories" sources', async () => {
    const recent = ['objectID:-keyboard'];
    const inCategory = await suggest('', { hitsPerPage: 3, facetFilters: [`${CATEGORY}:Electronics`, ...recent] });
    expect(inCategory.map((hit) => hit.query)).toEqual(['lamp', 'desk']);
    const others = await suggest('', { hitsPerPage: 3, facetFilters: [`${CATEGORY}:-Electronics`, ...recent] });
    expect(others).toEqual([]);
    expect((await suggest('', { facetFilters: [`${CATEGORY}:-Home`] })).map((hit) => hit.query)).toEqual(['desk', 'keyboard']);
    expect((await suggest('la', { facetFilters: [`${CATEGORY}:Home`] })).map((hit) => hit.query)).toEqual(['lamp']);
  });

  it('counts and filters the category values as facets', async () => {
    const response = await algoliasearch(APP_ID, SEARCH_KEY, { hosts: hosts() }).searchSingleIndex({
      indexName: SUGGESTIONS,
      searchParams: { query: '', facets: [CATEGORY], filters: `"${CATEGORY}":Office OR "${CATEGORY}":Home` },
    });
    expect(response.hits.map((hit) => (hit as { query?: string }).query)).toEqual(['lamp', 'desk']);
    expect(response.facets).toEqual({ [CATEGORY]: { Electronics: 2, Home: 1, Office: 1 } });
  });
});
