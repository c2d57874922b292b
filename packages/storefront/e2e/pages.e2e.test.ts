/**
 * The shop around the search: a home page with category navigation, featured products and a footer; a search
 * box on every page; a product page with its category trail, a variant picker for records sharing a `groupID`
 * (hidden for records without one), a quantity selector and a stock and delivery line.
 */
import { describe, expect, it } from 'vitest';
import { demoIndexName, demoSettings } from '@vitrine/demo';
import type { Product } from '@vitrine/protocol';
import { categorySeparator, productPath, slugify } from '../src/lib/catalog.ts';
import { hitNames, seed, useShop } from './harness.ts';

// Three variants of one model, made from a record of the shop's own generator (not a name tests depend on).
function variantsOf(base: Product): Array<Product & { groupID: string }> {
  return ['Red', 'Blue', 'Green'].map((color) => ({
    ...base,
    objectID: `variant-${color.toLowerCase()}`,
    name: `${base.name} (${color} edition)`,
    slug: `${base.slug}-${color.toLowerCase()}`,
    color,
    groupID: 'e2e-variant-group',
  }));
}

describe('home, product pages and the search box everywhere', () => {
  const shop = useShop();
  let variants: Array<Product & { groupID: string }>;

  it('shows category navigation, featured products and a footer on the home page', async () => {
    const { page, harness } = shop;
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Shop by category' });
    const expected = [...new Set(harness.products.map((product) => product.hierarchicalCategories.lvl0))].sort();
    await expect.poll(async () => (await nav.getByRole('link').allTextContents()).sort()).toEqual(expected);
    await expect.poll(() => page.locator('.vt-featured .vt-rec-item').count()).toBeGreaterThan(0);
    expect(await page.locator('footer.vt-footer').isVisible()).toBe(true);

    await nav.getByRole('link', { name: expected[0], exact: true }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/c/${slugify(expected[0])}`);
    await expect.poll(() => page.locator('.vt-featured').count()).toBe(0);
    expect((await hitNames(page)).length).toBeGreaterThan(0);
  });

  it('lists the variants of a product that has a groupID, and moves between them', async () => {
    const { page, harness } = shop;
    variants = variantsOf(harness.products[seed]);
    const { store } = harness.server;
    const faceting = [...new Set([...(demoSettings.attributesForFaceting ?? []), 'filterOnly(groupID)'])];
    await store.waitForTask((await store.setSettings(demoIndexName, { attributesForFaceting: faceting, attributeForDistinct: 'groupID' })).taskID);
    await store.waitForTask((await store.saveObjects(demoIndexName, variants)).taskID);

    // The results show one variant of the model, not three.
    await page.goto(`/?q=${encodeURIComponent('edition')}`);
    await expect.poll(async () => (await hitNames(page)).filter((name) => name.includes('edition)')).length).toBe(1);

    await page.goto(productPath(variants[0]));
    const picker = page.locator('.vt-variants');
    await expect.poll(() => picker.getByRole('link').count()).toBe(3);
    expect(await picker.locator('[aria-current="page"]').textContent()).toContain('Red');
    await picker.getByRole('link', { name: /Blue/ }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(variants[1].name);
    await expect.poll(() => picker.locator('[aria-current="page"]').textContent()).toContain('Blue');
  });

  it('has a category trail, quantity selector, stock line and no picker without a groupID', async () => {
    const { page, harness } = shop;
    const product = harness.products[1];
    await page.goto(productPath(product));
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(product.name);
    expect(await page.locator('.vt-variants').count()).toBe(0);
    const trail = page.getByRole('navigation', { name: 'Breadcrumb' });
    const names = product.hierarchicalCategories.lvl2.split(categorySeparator);
    expect(await trail.getByRole('link').allTextContents()).toEqual(['Home', ...names]);
    expect(await page.locator('.vt-stock').textContent()).toMatch(/^In stock · (Free delivery|Delivery) in 2–4 working days/);

    const quantity = page.getByRole('textbox', { name: 'Quantity' });
    await page.getByRole('button', { name: 'Increase quantity' }).click();
    await page.getByRole('button', { name: 'Increase quantity' }).click();
    expect(await quantity.inputValue()).toBe('3');
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await expect.poll(() => page.locator('.vt-cart-count').textContent()).toBe('3');

    await trail.getByRole('link', { name: names[0], exact: true }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/c/${slugify(names[0])}`);
    await page.locator('.vt-hit').first().waitFor();
  });

  it('has a search box on the product, cart and checkout pages', async () => {
    const { page, harness } = shop;
    const word = harness.products[2].name.split(/\s+/).find((candidate) => /^[a-z]{4,}$/i.test(candidate))!.toLowerCase();
    for (const path of ['/cart', '/checkout', productPath(harness.products[2])]) {
      await page.goto(path);
      await expect.poll(() => page.locator('.vt-header-search input[type="search"]').isVisible()).toBe(true);
    }
    const box = page.locator('.vt-header-search input[type="search"]');
    await box.fill(word);
    await box.press('Enter');
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe(word);
    await expect.poll(async () => (await hitNames(page)).length).toBeGreaterThan(0);
    expect(await page.locator('.vt-header-search .ais-SearchBox-input').inputValue()).toBe(word);
  });
});
