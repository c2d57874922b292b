/**
 * The search box's dropdown shows products (image, name, price) beside the query suggestions and recent
 * searches, reachable with the arrow keys through `aria-activedescendant`, each named for screen readers.
 */
import { describe, expect, it } from 'vitest';
import { phone, typeQuery, useShop } from './harness.ts';

describe('products in the search box dropdown', () => {
  const shop = useShop({ history: {} });
  const input = () => shop.page.locator('.vt-header-search .ais-SearchBox-input');
  const group = (name: string) => shop.page.getByRole('listbox', { name: 'Search suggestions' }).getByRole('group', { name });

  it('lists products beside the searches, and Enter on one opens its page', async () => {
    const { page, harness } = shop;
    const word = harness.products[3].name.split(/\s+/).find((candidate) => /^[a-z]{4,}$/i.test(candidate))!.toLowerCase();
    await page.goto('/');
    await page.locator('.vt-hit').first().waitFor();
    // A recent search, so both groups have something to show.
    await typeQuery(page, word);
    await input().press('Enter');
    await input().fill('');
    await typeQuery(page, word.slice(0, 3));

    const products = group('Products').getByRole('option');
    await expect.poll(() => products.count()).toBeGreaterThan(0);
    await expect.poll(() => group('Searches').getByRole('option').count()).toBeGreaterThan(0);
    const first = products.first();
    expect(await first.locator('img').getAttribute('alt')).toBe('');
    expect(await first.locator('.vt-suggestion-price').textContent()).toMatch(/^\$[\d,]+\.\d{2}$/);
    const name = (await first.locator('.vt-suggestion-product-name').textContent())!;
    // Beside, not below, on a desktop screen.
    const searchesBox = (await group('Searches').boundingBox())!;
    const productsBox = (await group('Products').boundingBox())!;
    expect(productsBox.x).toBeGreaterThan(searchesBox.x + searchesBox.width - 1);

    // ↓ through the searches to the first product: the input points at it, and it is announced by name and price.
    const searchCount = await group('Searches').getByRole('option').count();
    for (let i = 0; i <= searchCount; i++) await input().press('ArrowDown');
    const activeId = await input().getAttribute('aria-activedescendant');
    expect(activeId).toBe(await first.getAttribute('id'));
    expect(await first.getAttribute('aria-selected')).toBe('true');
    const snapshot = await page.locator(`[id="${activeId}"]`).ariaSnapshot();
    expect(snapshot).toContain(name);
    await input().press('Enter');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(name);
  });

  it('stacks products under the searches on a phone', async () => {
    const { page, harness } = shop;
    await page.setViewportSize(phone);
    const word = harness.products[3].name.split(/\s+/).find((candidate) => /^[a-z]{4,}$/i.test(candidate))!.toLowerCase();
    await page.goto('/');
    await page.locator('.vt-hit').first().waitFor();
    await typeQuery(page, word.slice(0, 3));
    await expect.poll(() => group('Products').getByRole('option').count()).toBeGreaterThan(0);
    await expect.poll(() => group('Searches').getByRole('option').count()).toBeGreaterThan(0);
    const searchesBox = (await group('Searches').boundingBox())!;
    const productsBox = (await group('Products').boundingBox())!;
    expect(productsBox.y).toBeGreaterThanOrEqual(searchesBox.y + searchesBox.height - 1);
  });
});
