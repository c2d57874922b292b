/**
 * The generated query-suggestions index behind Algolia's autocomplete InstantSearch example, in Chromium: with a
 * category refined, the example shows suggestions "In <category>" (filtered by
 * `<source>.facets.exact_matches.hierarchicalCategories.lvl0.value:<category>`) above those "In other
 * categories" (the negation), each of these with its first category read at
 * `[<source>, "facets", "exact_matches", "hierarchicalCategories.lvl0"]`. The autocomplete packages are not
 * installed: a small page sends the example's requests through the official lite client's browser build and
 * renders the two sections as its templates do. Expected sections are worked out from the unfiltered suggestions.
 */
import { createRequire } from 'node:module';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { demoIndexName } from '@vitrine/demo';
import { startHarness } from './harness.ts';
import type { Harness } from './harness.ts';

const SUGGESTIONS = `${demoIndexName}_query_suggestions`;
const CATEGORIES = 'hierarchicalCategories.lvl0';
const liteBuild = createRequire(import.meta.url).resolve('algoliasearch/dist/lite/builds/browser.umd.js');

/** The example's two sources, in one multi-query as autocomplete batches them, rendered as its templates do. */
const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Suggestions by category</title></head>
<body>
  <input id="q" aria-label="Search" autocomplete="off">
  <div id="panel"></div>
  <script src="/__example/lite.js"></script>
  <script>
    const params = new URLSearchParams(location.search);
    const [appId, apiKey, indexName, source, category] = ['appId', 'apiKey', 'index', 'source', 'category'].map((name) => params.get(name));
    const client = window['algoliasearch/lite'].liteClient(appId, apiKey, { hosts: [{ url: location.host, protocol: 'http', accept: 'readWrite' }] });
    const facet = source + '.facets.exact_matches.${CATEGORIES}';
    const section = (title, hits, withCategory) => {
      if (hits.length === 0) return '';
      const items = hits.map((hit, i) => {
        const categories = ((((hit[source] || {}).facets || {}).exact_matches || {})['${CATEGORIES}'] || []).map((c) => c.value);
        const label = withCategory && i === 0 && categories.length > 0 ? hit.query + ' in ' + categories[0] : hit.query;
        return '<li role="option">' + label.replace(/</g, '&lt;') + '</li>';
      });
      return '<section><h2>' + title.replace(/</g, '&lt;') + '</h2><ul role="listbox" aria-label="' + title + '">' + items.join('') + '</ul></section>';
    };
    let latest = 0;
    document.getElementById('q').addEventListener('input', async (event) => {
      const query = event.target.value;
      const mine = ++latest;
      const { results } = await client.search({ requests: [
        { indexName, query, hitsPerPage: 3, facetFilters: [facet + '.value:' + category] },
        { indexName, query, hitsPerPage: 3, facetFilters: [facet + '.value:-' + category] },
      ] });
      if (mine !== latest) return;
      document.getElementById('panel').innerHTML =
        section('In ' + category, results[0].hits, false) + (query === '' ? '' : section('In other categories', results[1].hits, true));
      document.getElementById('panel').dataset.query = query;
    });
  </script>
</body></html>`;

type Suggestion = { query: string; categories: string[] };

let harness: Harness;
let page: Page;
const pageErrors: string[] = [];

/** Every suggestion the search matches for `query`, in ranking order, with its categories (no filter). */
async function unfiltered(query: string): Promise<Suggestion[]> {
  const response = await fetch(`${harness.baseURL}/1/indexes/${SUGGESTIONS}/query`, {
    method: 'POST',
    headers: { 'x-algolia-application-id': harness.appId, 'x-algolia-api-key': harness.searchApiKey },
    body: JSON.stringify({ query, hitsPerPage: 1000 }),
  });
  const { hits } = (await response.json()) as { hits: Array<Record<string, unknown>> };
  return hits.map((hit) => {
    const source = hit[demoIndexName] as { facets: { exact_matches: Record<string, Array<{ value: string }>> } };
    return { query: hit.query as string, categories: source.facets.exact_matches[CATEGORIES].map((c) => c.value) };
  });
}

const listed = (title: string) => page.getByRole('listbox', { name: title }).getByRole('option').allTextContents();

beforeAll(async () => {
  harness = await startHarness({ history: {} });
  page = await harness.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (message) => void (message.type() === 'error' && pageErrors.push(message.text())));
  await page.route('**/__example/lite.js', (route) => route.fulfill({ path: liteBuild, contentType: 'text/javascript' }));
  await page.route('**/__example/suggestions.html*', (route) => route.fulfill({ body: PAGE, contentType: 'text/html' }));
});

afterAll(async () => {
  await harness?.close();
});

afterEach(() => {
  expect(pageErrors).toEqual([]);
});

describe('the autocomplete example over the generated suggestions', () => {
  it('shows "In <category>" above "In other categories"', async () => {
    // The most popular suggestion's first category, and a prefix it and other suggestions share.
    const all = await unfiltered('');
    const category = all[0].categories[0];
    const prefix = all[0].query.slice(0, 1);
    const matching = await unfiltered(prefix);
    const inCategory = matching.filter((s) => s.categories.includes(category)).slice(0, 3);
    const others = matching.filter((s) => !s.categories.includes(category)).slice(0, 3);
    expect(inCategory.length).toBeGreaterThan(0);
    expect(others.length).toBeGreaterThan(0);

    const search = new URLSearchParams({ appId: harness.appId, apiKey: harness.searchApiKey, index: SUGGESTIONS, source: demoIndexName, category });
    await page.goto(`/__example/suggestions.html?${search}`);
    await page.getByLabel('Search').pressSequentially(prefix);
    await page.locator(`#panel[data-query="${prefix}"]`).waitFor({ state: 'attached' });

    expect(await page.getByRole('heading').allTextContents()).toEqual([`In ${category}`, 'In other categories']);
    expect(await listed(`In ${category}`)).toEqual(inCategory.map((s) => s.query));
    expect(await listed('In other categories')).toEqual(others.map((s, i) => (i === 0 ? `${s.query} in ${s.categories[0]}` : s.query)));
  });

  it('shows only the category\'s section before anything is typed, and none for a category no suggestion has', async () => {
    const all = await unfiltered('');
    const category = all[0].categories[0];
    const search = new URLSearchParams({ appId: harness.appId, apiKey: harness.searchApiKey, index: SUGGESTIONS, source: demoIndexName, category });
    await page.goto(`/__example/suggestions.html?${search}`);
    const input = page.getByLabel('Search');
    await input.pressSequentially('x');
    await input.press('Backspace');
    await page.locator('#panel[data-query=""]').waitFor({ state: 'attached' });
    expect(await page.getByRole('heading').allTextContents()).toEqual([`In ${category}`]);
    expect(await listed(`In ${category}`)).toEqual(all.filter((s) => s.categories.includes(category)).slice(0, 3).map((s) => s.query));

    search.set('category', 'No such category');
    await page.goto(`/__example/suggestions.html?${search}`);
    await page.getByLabel('Search').pressSequentially(all[0].query.slice(0, 1));
    await page.locator(`#panel[data-query="${all[0].query.slice(0, 1)}"]`).waitFor({ state: 'attached' });
    expect(await page.getByRole('heading').allTextContents()).toEqual(['In other categories']);
  });
});
