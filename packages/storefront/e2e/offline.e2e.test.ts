/**
 * Pages that cannot be fetched: a lazy page chunk requested while the shopper is offline shows a message with a
 * Reload action (never a blank page), and Reload brings the page once the network is back.
 */
import { describe, expect, it } from 'vitest';
import { useShop } from './harness.ts';

const shop = useShop();

describe('offline', () => {
  it('shows an error with Reload when the product page chunk cannot be loaded, and recovers', async () => {
    await shop.page.goto('/');
    await shop.page.locator('.vt-hit').first().waitFor();
    const name = (await shop.page.locator('.vt-hit-name').first().textContent())!;
    await shop.page.context().setOffline(true);
    await shop.page.locator('.vt-hit-link').first().click();
    const alert = shop.page.getByRole('alert');
    await expect.poll(() => alert.getByRole('heading').textContent()).toBe('This page could not be loaded');
    expect(await shop.page.locator('.vt-header').isVisible()).toBe(true);

    await shop.page.context().setOffline(false);
    await alert.getByRole('button', { name: 'Reload' }).click();
    await expect.poll(() => shop.page.getByRole('heading', { level: 1 }).textContent()).toBe(name);
  });
});
