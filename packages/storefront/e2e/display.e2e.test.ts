/**
 * What the shopper sees of the shop's configuration: no developer controls (search time, a pages/infinite
 * switch, "(relevant)" sort names) unless configured, and one currency formatted for the configured locale on
 * every page.
 */
import { describe, expect, it } from 'vitest';
import { useShop } from './harness.ts';

describe('default configuration', () => {
  const shop = useShop();

  it('shows a plain result count, no view switch, and shopper names for every sort', async () => {
    const { page } = shop;
    await page.goto('/');
    await page.locator('.vt-hit').first().waitFor();
    await expect.poll(() => page.locator('.ais-Stats-text').textContent()).toMatch(/^[\d,]+ results?$/);
    expect(await page.getByRole('button', { name: /Infinite scroll|^Pages$/ }).count()).toBe(0);
    expect(await page.locator('.ais-Pagination').count()).toBe(1);
    const sorts = await page.locator('.ais-SortBy-select option').allTextContents();
    expect(sorts.length).toBeGreaterThan(1);
    for (const label of sorts) expect(label).not.toMatch(/\(|replica|virtual/i);
    const prices = await page.locator('.vt-hit .vt-price').allTextContents();
    for (const price of prices) expect(price).toMatch(/^\$[\d,]+\.\d{2}$/);
  });
});

describe('configured for another locale, the infinite list and the search time', () => {
  const shop = useShop({ storefrontConfig: { locale: 'de-DE', currency: 'EUR', display: { resultsView: 'infinite', searchTime: true } } });
  const euros = /^[\d.]+,\d{2}\u00a0€$/;

  it('uses the locale and currency on the search, product and cart pages, and the configured view', async () => {
    const { page } = shop;
    await page.goto('/');
    await page.locator('.vt-hit').first().waitFor();
    await expect.poll(() => page.locator('.ais-Stats-text').textContent()).toMatch(/^[\d.]+ results? found in \d+ms$/);
    expect(await page.getByRole('button', { name: 'Show more results' }).isVisible()).toBe(true);
    expect(await page.locator('.ais-Pagination').count()).toBe(0);
    expect(new URL(page.url()).searchParams.get('view')).toBeNull();
    const prices = await page.locator('.vt-hit .vt-price').allTextContents();
    expect(prices.length).toBeGreaterThan(0);
    for (const price of prices) expect(price).toMatch(euros);

    await page.locator('.vt-hit-link').first().click();
    await expect.poll(() => page.locator('.vt-product-price').textContent()).toBe(prices[0]);
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await page.locator('.vt-cart-link').click();
    await expect.poll(() => page.locator('.vt-summary-subtotal').textContent()).toContain(prices[0]);
  });
});
