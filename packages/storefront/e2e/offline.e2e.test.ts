/**
 * Pages that cannot be fetched: a lazy page chunk requested while the shopper is offline shows a message with a
 * Reload action (never a blank page), and Reload brings the page once the network is back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { desktop, startHarness } from './harness.ts';
import type { Harness } from './harness.ts';

let harness: Harness;
let page: Page;

beforeAll(async () => {
  harness = await startHarness();
  page = await harness.newPage(desktop);
});

afterAll(async () => {
  await harness?.close();
});

describe('offline', () => {
  it('shows an error with Reload when the product page chunk cannot be loaded, and recovers', async () => {
    await page.goto('/');
    await page.locator('.vt-hit').first().waitFor();
    const name = (await page.locator('.vt-hit-name').first().textContent())!;
    await page.context().setOffline(true);
    await page.locator('.vt-hit-link').first().click();
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.getByRole('heading').textContent()).toBe('This page could not be loaded');
    expect(await page.locator('.vt-header').isVisible()).toBe(true);

    await page.context().setOffline(false);
    await alert.getByRole('button', { name: 'Reload' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(name);
  });
});
