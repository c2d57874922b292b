/**
 * Merchandising rules as the shopper meets them, on the demo's rules (`demoRules`): a sale banner, a redirect
 * to the help page, a pinned lamp, a brand boosted on its department's category page, and a facet order a
 * merchant sets through the admin API. Each test first checks, through the API without rules, that plain
 * relevance would not already show what it expects.
 */
import { describe, expect, it } from 'vitest';
import { demoIndexName } from '@vitrine/demo';
import type { Product, Rule } from '@vitrine/protocol';
import { slugify } from '../src/lib/catalog.ts';
import { hitNames, typeQuery, useShop } from './harness.ts';

const shop = useShop({ rules: true });

async function api<T>(method: string, path: string, body: unknown): Promise<T> {
  const response = await fetch(`${shop.harness.baseURL}${path}`, {
    method,
    headers: { 'x-algolia-application-id': shop.harness.appId, 'x-algolia-api-key': shop.harness.adminApiKey },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

/** The hits of a search as plain relevance ranks them (rules off). */
async function hitsWithoutRules(params: Record<string, unknown>): Promise<Product[]> {
  const { hits } = await api<{ hits: Product[] }>('POST', `/1/indexes/${demoIndexName}/query`, { ...params, enableRules: false, distinct: true });
  return hits;
}

const lamp = () => shop.harness.products.find((product) => / lamp\b/i.test(` ${product.name}`))!;
const panelTitles = () => shop.page.locator('#vt-filters section.vt-panel:not([hidden]) > .vt-panel-title').allTextContents();

async function search(query: string) {
  await shop.page.goto('/');
  await typeQuery(shop.page, query);
  await shop.page.keyboard.press('Enter');
}

describe('merchandising rules in the shop', () => {
  it('shows the banner a rule attaches to "sale" above the results', async () => {
    await search('sale');
    const banner = shop.page.locator('.vt-banner');
    await expect.poll(() => banner.count()).toBe(1);
    expect(await banner.locator('.vt-banner-title').textContent()).toBe('Winter sale');
    expect(await banner.locator('.vt-banner-text').textContent()).toBe('Up to 30% off selected products');
    expect(await banner.getByRole('link').getAttribute('href')).toBe('/');
    // Above the results: the banner comes before the first hit in the page.
    await shop.page.locator('.vt-hit').first().waitFor();
    const bannerBeforeHits = await shop.page.evaluate(() => {
      const banner = document.querySelector('.vt-banner')!;
      const hit = document.querySelector('.vt-hit')!;
      return Boolean(banner.compareDocumentPosition(hit) & Node.DOCUMENT_POSITION_FOLLOWING);
    });
    expect(bannerBeforeHits).toBe(true);
  });

  it('takes a "help" search to the help page, in the app', async () => {
    await search('help');
    await expect.poll(() => new URL(shop.page.url()).pathname).toBe('/help');
    await shop.page.getByRole('heading', { level: 1, name: 'Help' }).waitFor();
    // In the app: the help page came without a document load, so the shop's state in JS survives.
    expect(await shop.page.evaluate(() => performance.getEntriesByType('navigation').length)).toBe(1);
  });

  it('shows the pinned lamp first on "lamp"', async () => {
    const pinned = lamp();
    expect((await hitsWithoutRules({ query: 'lamp' }))[0].objectID).not.toBe(pinned.objectID);
    await search('lamp');
    await expect.poll(async () => (await hitNames(shop.page))[0]).toBe(pinned.name);
  });

  it('boosts the brand a rule names on its department’s category page', async () => {
    const { brand, hierarchicalCategories } = lamp();
    const department = hierarchicalCategories.lvl0;
    const inDepartment = [[`hierarchicalCategories.lvl0:${department}`]];
    // The brand's products lead a department page only with the rule: plain relevance mixes other brands in.
    const { nbHits } = await api<{ nbHits: number }>('POST', `/1/indexes/${demoIndexName}/query`, {
      query: '', facetFilters: [...inDepartment, [`brand:${brand}`]], distinct: true, hitsPerPage: 0,
    });
    const leading = Math.min(nbHits, 20);
    expect(leading).toBeGreaterThan(0);
    const plain = await hitsWithoutRules({ query: '', facetFilters: inDepartment, hitsPerPage: leading });
    expect(plain.every((hit) => hit.brand === brand)).toBe(false);
    await shop.page.goto(`/c/${slugify(department)}`);
    const brands = () => shop.page.locator('.vt-hit-brand').allTextContents();
    await expect.poll(async () => (await brands()).slice(0, leading)).toEqual(Array(leading).fill(brand));
  });

  it('orders the filters as a rule’s facetOrdering says, and keeps the shop’s order otherwise', async () => {
    const word = shop.harness.products[0].name.split(' ').at(-1)!.toLowerCase();
    await shop.page.goto(`/?q=${encodeURIComponent(word)}`);
    await shop.page.locator('.vt-hit').first().waitFor();
    await expect.poll(panelTitles).toEqual(['Category', 'Brand', 'Color', 'Price', 'Rating', 'Shipping']);

    const rule: Rule = {
      objectID: 'e2e-facet-order',
      conditions: [{ pattern: word, anchoring: 'is' }],
      consequence: { params: { renderingContent: { facetOrdering: { facets: { order: ['color', 'price', 'brand'] } } } } },
    };
    const { taskID } = await api<{ taskID: number }>('PUT', `/1/indexes/${demoIndexName}/rules/${rule.objectID}`, rule);
    await shop.harness.server.store.waitForTask(taskID);
    await shop.page.reload();
    await expect.poll(panelTitles).toEqual(['Color', 'Price', 'Brand']);
  });
});
