/**
 * Filters as the shopper reads them: a price range in cents, a refused range that says why, chips in plain
 * words, and a no-results page that keeps the category in sight, hides empty facets, offers a shorter query
 * and never offers a change that still finds nothing. Products are found through the catalogue, not by name.
 */
import { describe, expect, it } from 'vitest';
import { slugify } from '../src/lib/catalog.ts';
import { hitNames, openShopPage, useShop } from './harness.ts';

const shop = useShop();

const panel = (title: string) => shop.page.locator('section.vt-panel', { has: shop.page.getByRole('heading', { name: title, exact: true }) });
const prices = () => shop.page.locator('.vt-hit .vt-price').allTextContents();

async function openSearch(path = '/') {
  await openShopPage(shop.page, path);
  await shop.page.locator('.vt-hit').first().waitFor();
}

describe('filters', () => {
  it('filters on prices with cents', async () => {
    const product = shop.harness.products.find((candidate) => !Number.isInteger(candidate.price))!;
    await openSearch();
    const price = panel('Price');
    await price.getByLabel('Minimum price').fill(String(product.price));
    await price.getByLabel('Maximum price').fill(String(product.price));
    await price.getByRole('button', { name: 'Go' }).click();
    await expect.poll(() => new URL(shop.page.url()).searchParams.get('price')).toBe(`${product.price}:${product.price}`);
    const shown = `$${product.price.toFixed(2)}`;
    await expect.poll(async () => (await prices()).length > 0 && (await prices()).every((text) => text === shown)).toBe(true);
    expect(await hitNames(shop.page)).toContain(product.name);
  });

  it('refuses a minimum above the maximum, and says why', async () => {
    await openSearch();
    const price = panel('Price');
    await price.getByLabel('Minimum price').fill('50');
    await price.getByLabel('Maximum price').fill('20.5');
    await price.getByRole('button', { name: 'Go' }).click();
    await expect.poll(() => price.getByRole('alert').textContent()).toBe('The minimum ($50.00) is above the maximum ($20.50).');
    expect(await price.getByLabel('Minimum price').getAttribute('aria-invalid')).toBe('true');
    expect(new URL(shop.page.url()).searchParams.get('price')).toBeNull();
  });

  it('names the free-shipping chip in words', async () => {
    await openSearch();
    await panel('Shipping').getByText('Free shipping').click();
    const chips = shop.page.locator('.ais-CurrentRefinements');
    await expect.poll(() => chips.locator('.ais-CurrentRefinements-categoryLabel').allTextContents()).toEqual(['Free shipping']);
    expect(await chips.textContent()).not.toMatch(/true/);
    await chips.getByRole('button', { name: 'Remove Free shipping' }).click();
    await expect.poll(() => new URL(shop.page.url()).searchParams.get('free_shipping')).toBeNull();
  });

  it('on no results in a category: keeps the category, hides empty facets, offers a shorter query, never a dead end', async () => {
    const product = shop.harness.products[0];
    const word = product.name.split(/\s+/).find((candidate) => /^[a-z]{4,}$/i.test(candidate))!.toLowerCase();
    const category = product.hierarchicalCategories.lvl0;
    const query = `${word} xqzvw`;
    await shop.page.goto(`/c/${slugify(category)}?q=${encodeURIComponent(query)}`);
    const noResults = shop.page.locator('.vt-no-results');
    await expect.poll(() => noResults.getByRole('heading').textContent()).toBe(`No results for “${query}” in ${category}`);
    // Every facet is empty: no heading without anything under it.
    expect(await shop.page.locator('section.vt-panel:visible').count()).toBe(0);
    const shorter = noResults.getByRole('button', { name: `Search for “${word}” in ${category}` });
    await expect.poll(() => shorter.isVisible()).toBe(true);
    expect(await noResults.locator('.vt-no-results-count').first().textContent()).toMatch(/^[1-9][\d,]* results?$/);
    // Without the category the query still finds nothing: removing it is not offered.
    expect(await noResults.getByRole('button', { name: /^Remove/ }).count()).toBe(0);
    expect(await noResults.getByRole('button', { name: /xqzvw/ }).count()).toBe(0);

    await shorter.click();
    await expect.poll(async () => (await hitNames(shop.page)).length).toBeGreaterThan(0);
    expect(new URL(shop.page.url()).pathname).toBe(`/c/${slugify(category)}`);
    await expect.poll(() => new URL(shop.page.url()).searchParams.get('q')).toBe(word);
  });
});
