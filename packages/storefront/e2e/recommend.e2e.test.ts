/**
 * Recommendations through the real insights plugin, from the demo's generated shop history: the product page
 * shows "Frequently bought together" and "Related products" as the Recommend API answers them, the home page
 * shows "Trending items", and a click on a recommended item opens its product page and sends a click event the
 * server accepts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Product } from '@vitrine/protocol';
import { productPath } from '../src/lib/catalog.ts';
import { recommendLimits } from '../src/lib/recommend.ts';
import { startHarness, typeQuery } from './harness.ts';
import type { Harness } from './harness.ts';

let harness: Harness;
let page: Page;

type RecommendResult = { hits: Array<{ objectID: string; name: string }> };

async function recommend(requests: Array<Record<string, unknown>>): Promise<RecommendResult[]> {
  const response = await fetch(`${harness.baseURL}/1/indexes/*/recommendations`, {
    method: 'POST',
    headers: { 'x-algolia-application-id': harness.appId, 'x-algolia-api-key': harness.searchApiKey },
    body: JSON.stringify({ requests }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { results: RecommendResult[] }).results;
}

beforeAll(async () => {
  harness = await startHarness({ history: {} });
  page = await harness.newPage();
});

afterAll(async () => {
  await harness?.close();
});

/**
 * The first seeded product the history gave bought-together partners (the generator gives most of them some),
 * once the models built from that history are served: the server answers before its first build ends.
 */
async function productWithPartners(): Promise<{ product: Product; together: string[]; related: string[] }> {
  let found: { product: Product; together: string[]; related: string[] } | null = null;
  await expect
    .poll(
      async () => {
        for (const product of harness.products.slice(0, 50)) {
          const [together, related] = await recommend([
            { indexName: 'products', model: 'bought-together', objectID: product.objectID, maxRecommendations: recommendLimits.boughtTogether },
            { indexName: 'products', model: 'related-products', objectID: product.objectID, maxRecommendations: recommendLimits.related },
          ]);
          if (together.hits.length > 0 && related.hits.length > 0) {
            found = { product, together: together.hits.map((hit) => hit.name), related: related.hits.map((hit) => hit.name) };
            return true;
          }
        }
        return false;
      },
      { timeout: 30_000, message: 'the seeded history gave none of the first 50 products a bought-together partner' },
    )
    .toBe(true);
  return found!;
}

async function productByName(name: string): Promise<Product> {
  const product = harness.products.find((candidate) => candidate.name === name);
  if (!product) throw new Error(`no seeded product named ${name}`);
  return product;
}

const itemNames = (page: Page, widget: string) => page.locator(`.ais-${widget} .vt-rec-name`).allTextContents();

describe('recommendations', () => {
  it('shows frequently bought together and related products on the product page', async () => {
    const { product, together, related } = await productWithPartners();
    await page.goto(productPath(product));
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(product.name);
    await expect.poll(() => page.locator('.ais-FrequentlyBoughtTogether-title').textContent()).toBe('Frequently bought together');
    await expect.poll(() => itemNames(page, 'FrequentlyBoughtTogether')).toEqual(together);
    await expect.poll(() => page.locator('.ais-RelatedProducts-title').textContent()).toBe('Related products');
    await expect.poll(() => itemNames(page, 'RelatedProducts')).toEqual(related);
    // Each item: image, name, price, a link to its product page.
    const first = page.locator('.ais-RelatedProducts .vt-rec-item').first();
    expect(await first.getAttribute('href')).toMatch(/^\/p\/[a-z0-9-]+-[^/]+$/);
    expect(await first.locator('.vt-rec-price').textContent()).toMatch(/^\$\d/);
    expect(await first.locator('img').count()).toBe(1);
  });

  it('opens a recommended product and sends a click event the server accepts', async () => {
    const { product, related } = await productWithPartners();
    await page.goto(productPath(product));
    const item = page.locator('.ais-RelatedProducts .vt-rec-item').first();
    await item.waitFor();
    const eventSent = page.waitForRequest((request) => new URL(request.url()).pathname === '/1/events' && request.method() === 'POST' && (request.postData() ?? '').includes('Related Product Clicked'));
    await item.click();
    const request = await eventSent;
    const [event] = (JSON.parse(request.postData()!) as { events: Array<Record<string, unknown>> }).events;
    // The server's recommendations carry no queryID, so this is a plain click (no positions).
    expect(event).toMatchObject({ eventType: 'click', eventName: 'Related Product Clicked', index: 'products' });
    expect(event.queryID).toBeUndefined();
    expect((await request.response())?.status()).toBe(200);
    // The seeded history holds thousands of events: read them all.
    const stored = () => harness.server.insights.listEvents({ limit: 1_000_000 }).map((entry) => entry.event as Record<string, unknown>);
    await expect.poll(() => stored().filter((e) => e.eventName === 'Related Product Clicked').length).toBe(1);
    expect(stored().find((e) => e.eventName === 'Related Product Clicked')).toMatchObject({ objectIDs: [(await productByName(related[0])).objectID] });
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(related[0]);
    // The new product page shows its own recommendations.
    await expect.poll(() => page.locator('.ais-RelatedProducts .vt-rec-item').count()).toBeGreaterThan(0);
  });

  it('shows trending items on the home page only', async () => {
    const [trending] = await recommend([{ indexName: 'products', model: 'trending-items', maxRecommendations: recommendLimits.trending }]);
    expect(trending.hits.length).toBeGreaterThan(0);
    const searches: string[] = [];
    const onRequest = (request: { url(): string }) => {
      if (/\/1\/indexes\/[^/]+\/queries/.test(request.url())) searches.push(request.url());
    };
    page.on('request', onRequest);
    await page.goto('/');
    await expect.poll(() => page.locator('.ais-TrendingItems-title').textContent()).toBe('Trending items');
    await expect.poll(() => itemNames(page, 'TrendingItems')).toEqual(trending.hits.map((hit) => hit.name));
    page.off('request', onRequest);
    // The carousel loads after the server-rendered page is live: below the results, where it moves nothing in
    // view, and in an InstantSearch of its own, so the search page asks for no search when it appears.
    expect(searches).toEqual([]);
    expect(await page.evaluate(() => {
      const results = document.querySelector('.vt-results-body')!;
      const trending = document.querySelector('.ais-TrendingItems')!;
      return Boolean(results.compareDocumentPosition(trending) & Node.DOCUMENT_POSITION_FOLLOWING);
    })).toBe(true);
    await typeQuery(page, 'wallet');
    await expect.poll(() => page.locator('.ais-TrendingItems').count()).toBe(0);
    await page.goto('/?q=wallet');
    await page.locator('.vt-hit').first().waitFor();
    expect(await page.locator('.ais-TrendingItems').count()).toBe(0);
  });
});
