/**
 * The storefront configured for hosted Algolia (`"provider": "algolia"`), served by the Vitrine server, whose
 * Content-Security-Policy then lets the browser reach Algolia's hosts. The browser really calls those hosts
 * (search, insights, analytics); Playwright answers them from the local Vitrine server, which speaks the same
 * API, so nothing leaves the machine. A request the policy blocked would never reach that routing: it shows as
 * a violation instead.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordCspViolations, startHarness, typeQuery } from './harness.ts';
import type { Harness } from './harness.ts';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({ storefrontConfig: { provider: 'algolia' } });
});

afterAll(async () => {
  await harness?.close();
});

const algoliaHost = /(?:\.algolia\.net|\.algolianet\.com|^insights\.algolia\.io|^analytics\.algolia\.com)$/;

describe('hosted Algolia under the CSP', () => {
  it("searches, sends events and reads analytics on Algolia's hosts without a violation", async () => {
    const page = await harness.newPage();
    const { violations, consoleErrors } = await recordCspViolations(page);
    const called = new Set<string>();
    await page.route('**/*', async (route) => {
      const url = new URL(route.request().url());
      if (url.origin === harness.baseURL) return route.continue();
      if (!algoliaHost.test(url.hostname)) return route.abort();
      called.add(url.hostname);
      try {
        const response = await route.fetch({ url: `${harness.baseURL}${url.pathname}${url.search}` });
        await route.fulfill({ response });
      } catch (error) {
        // A request the page dropped while it was answered (a navigation away from a search in flight): nobody
        // waits for it any more. Anything else still fails the run.
        if (!/has been disposed|Target page, context or browser has been closed|Request context disposed/.test(String(error))) throw error;
      }
    });

    await page.goto('/');
    await typeQuery(page, 'wallet');
    await expect.poll(async () => /wallet/i.test((await page.locator('.vt-hit-name').first().textContent()) ?? '')).toBe(true);
    const eventsBefore = harness.server.insights.listEvents().length;
    await page.locator('.vt-hit-link').first().click();
    await page.getByRole('button', { name: 'Add to cart' }).waitFor();
    // The click and the product view reached the server through the insights host.
    await expect.poll(() => harness.server.insights.listEvents().length).toBeGreaterThanOrEqual(eventsBefore + 2);

    await page.goto('/admin/analytics');
    await page.getByLabel('Admin API key').fill(harness.adminApiKey);
    await page.getByRole('button', { name: 'Show analytics' }).click();
    await expect.poll(() => page.locator('figure.vt-chart').count()).toBe(4);

    expect([...called].sort()).toEqual(expect.arrayContaining([`${harness.appId}-dsn.algolia.net`, 'analytics.algolia.com', 'insights.algolia.io']));
    expect(violations).toEqual([]);
    expect(consoleErrors).toEqual([]);

    // Any other host stays out of reach.
    await page.evaluate(() => fetch('https://example.com/collect').catch(() => undefined));
    await expect.poll(() => violations).toEqual([{ directive: 'connect-src', blocked: 'https://example.com/collect', page: '/admin/analytics' }]);
  });
});
