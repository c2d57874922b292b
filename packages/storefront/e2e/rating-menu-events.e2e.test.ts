/**
 * Algolia's own RatingMenu widget, as a shop built on InstantSearch.js uses it (the library's browser builds,
 * unchanged, with the insights middleware and search-insights), against the real server: choosing "4 & up"
 * sends the "Filter Applied" event RatingMenu sends, a numeric filter (`rating%3E%3D4`), and the server accepts
 * it (200) rather than logging a 422 in the shopper's console. The page is a bare one served to the browser
 * beside the shop; the storefront's own rating filter refines through the range connector and sends no event.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { demoIndexName } from '@vitrine/demo';
import { startHarness } from './harness.ts';
import type { Harness } from './harness.ts';

const resolve = createRequire(import.meta.url).resolve;
const scripts: Record<string, string> = {
  'algoliasearch-lite.js': resolve('algoliasearch/dist/lite/builds/browser.umd.js'),
  // The package exports no path of its browser bundle: found beside its entry point.
  'search-insights.js': join(dirname(resolve('search-insights')), 'dist', 'search-insights.min.js'),
  'instantsearch.js': resolve('instantsearch.js/dist/instantsearch.production.min.js'),
};

function ratingMenuPage(harness: Harness): string {
  const settings = JSON.stringify({ appId: harness.appId, apiKey: harness.searchApiKey, indexName: demoIndexName });
  return `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>RatingMenu</title></head>
  <body>
    <div id="ratings"></div>
    <div id="hits"></div>
    <!-- The loader snippet of search-insights' documentation: a queueing window.aa the library takes over. -->
    <script>
      window.AlgoliaAnalyticsObject = 'aa';
      window.aa = function () { (window.aa.queue = window.aa.queue || []).push(arguments); };
    </script>
    ${Object.keys(scripts).map((name) => `<script src="/__e2e/${name}"></script>`).join('\n    ')}
    <script>
      const { appId, apiKey, indexName } = ${settings};
      const searchClient = window['algoliasearch/lite'].liteClient(appId, apiKey, { hosts: [{ url: location.host, protocol: 'http', accept: 'read' }] });
      const search = instantsearch({
        indexName,
        searchClient,
        insights: {
          insightsClient: window.aa,
          insightsInitParams: { host: location.origin, useCookie: false, userToken: 'rating-shopper' },
        },
      });
      search.addWidgets([
        instantsearch.widgets.ratingMenu({ container: '#ratings', attribute: 'rating' }),
        instantsearch.widgets.hits({ container: '#hits' }),
      ]);
      search.start();
    </script>
  </body>
</html>`;
}

let harness: Harness;
let page: Page;

beforeAll(async () => {
  harness = await startHarness();
  page = await harness.newPage();
  await page.route(`${harness.baseURL}/__e2e/**`, (route) => {
    const name = new URL(route.request().url()).pathname.slice('/__e2e/'.length);
    if (name === 'rating-menu.html') return route.fulfill({ contentType: 'text/html', body: ratingMenuPage(harness) });
    if (scripts[name]) return route.fulfill({ contentType: 'text/javascript', path: scripts[name] });
    return route.fulfill({ status: 404, body: 'not found' });
  });
});

afterAll(async () => {
  await harness?.close();
});

describe('RatingMenu (InstantSearch.js) and the Insights API', () => {
  it('sends the "Filter Applied" event of a chosen rating, and the server accepts it', async () => {
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto('/__e2e/rating-menu.html');
    const fourAndUp = page.locator('.ais-RatingMenu-item').filter({ hasText: '& Up' }).first();
    await fourAndUp.waitFor();
    expect(await fourAndUp.locator('.ais-RatingMenu-link').getAttribute('aria-label')).toBe('4 & up');

    const filterEvent = page.waitForResponse((response) => response.url().includes('/1/events') && (response.request().postData() ?? '').includes('Filter Applied'));
    await fourAndUp.locator('.ais-RatingMenu-link').click();
    const response = await filterEvent;
    const sent = JSON.parse(response.request().postData()!) as { events: Array<Record<string, unknown>> };
    expect(sent.events).toEqual([expect.objectContaining({ eventType: 'click', eventName: 'Filter Applied', index: demoIndexName, filters: ['rating%3E%3D4'], userToken: 'rating-shopper' })]);
    expect(response.status()).toBe(200);
    expect(await response.json()).toEqual({ status: 200, message: 'OK' });
    // The refinement applied, and nothing failed in the page.
    await expect.poll(() => page.locator('.ais-RatingMenu-item--selected').count()).toBe(1);
    expect(pageErrors).toEqual([]);
  });
});
