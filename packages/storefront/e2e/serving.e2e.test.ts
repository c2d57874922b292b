/**
 * How the server serves the storefront, seen from Chromium: the Content-Security-Policy lets the whole shop
 * work without a single violation (search, suggestions, recommendations, product page, cart, checkout, the
 * analytics dashboard) and stops a script or an event handler injected into the live page; the search page's
 * scripts and styles and the search answers arrive compressed. Prints the search page's transfer sizes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Response } from 'playwright-core';
import { storefrontDistDir } from '../src/index.ts';
import { fillCheckoutForm, recordCspViolations, startHarness, typeQuery } from './harness.ts';
import type { Harness } from './harness.ts';

let harness: Harness;

beforeAll(async () => {
  // A shop with a past: recommendations and suggestions show, so their widgets run under the policy too.
  harness = await startHarness({ history: {} });
});

afterAll(async () => {
  await harness?.close();
});

describe('Content-Security-Policy', () => {
  it('lets the whole shop run without a violation', async () => {
    const page = await harness.newPage();
    const { violations, consoleErrors } = await recordCspViolations(page);
    const document = await page.goto('/');
    expect(document!.headers()['content-security-policy']).toContain("script-src 'self'");

    await page.locator('.ais-TrendingItems-title').waitFor();
    const [popular] = await harness.suggestions();
    await typeQuery(page, popular.query.slice(0, 4));
    await expect.poll(() => page.getByRole('listbox', { name: 'Search suggestions' }).getByRole('option').count()).toBeGreaterThan(0);
    await page.keyboard.press('Escape');
    await page.locator('.vt-hit-link').first().click();
    await page.locator('.ais-RelatedProducts-title').waitFor();
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await page.locator('.vt-cart-link').click();
    await page.getByRole('link', { name: 'Checkout' }).click();
    await fillCheckoutForm(page);
    await page.getByRole('button', { name: 'Place order' }).click();
    await page.getByRole('heading', { name: 'Thank you!' }).waitFor();

    await page.goto('/admin/analytics');
    await page.getByLabel('Admin API key').fill(harness.adminApiKey);
    await page.getByRole('button', { name: 'Show analytics' }).click();
    await expect.poll(() => page.locator('figure.vt-chart').count()).toBe(4);

    expect(violations).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });

  it('does not run a script or an event handler injected into the page', async () => {
    const page = await harness.newPage();
    const { violations } = await recordCspViolations(page);
    await page.goto('/');
    await page.locator('.vt-hit').first().waitFor();
    await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.__injected = "inline script"';
      document.body.append(script);
      const holder = document.createElement('div');
      holder.innerHTML = '<img src="/images/products/no-such-image.svg" onerror="window.__injected = \'event handler\'">';
      document.body.append(holder);
    });
    await expect.poll(() => violations.map((violation) => violation.directive).sort()).toEqual(['script-src-attr', 'script-src-elem']);
    expect(await page.evaluate(() => (window as unknown as { __injected?: string }).__injected)).toBeUndefined();
    // The shop goes on working.
    await typeQuery(page, 'lamp');
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe('lamp');
  });
});

describe('compression', () => {
  it('sends the search page’s scripts and styles and the search answers compressed', async () => {
    const page = await harness.newPage();
    const responses: Response[] = [];
    page.on('response', (response) => responses.push(response));
    await page.goto('/');
    await page.locator('.vt-hit').first().waitFor();
    await typeQuery(page, 'lamp');
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe('lamp');

    const assets = responses.filter((response) => /\/assets\/[^/]+\.(?:js|css)$/.test(new URL(response.url()).pathname));
    const searches = responses.filter((response) => new URL(response.url()).pathname === '/1/indexes/*/queries');
    expect(assets.length).toBeGreaterThanOrEqual(2);
    expect(searches.length).toBeGreaterThan(0);
    let raw = 0;
    let transferred = 0;
    for (const response of assets) {
      // Chromium asks for brotli over HTTPS and on localhost; gzip is the fallback the build also writes.
      const accepted = (await response.request().allHeaders())['accept-encoding'];
      const expected = accepted.includes('br') ? 'br' : 'gzip';
      const headers = await response.allHeaders();
      expect(headers['content-encoding'], response.url()).toBe(expected);
      expect(headers.vary, response.url()).toBe('accept-encoding');
      raw += readFileSync(join(storefrontDistDir, new URL(response.url()).pathname)).length;
      transferred += (await response.request().sizes()).responseBodySize;
    }
    const searchSizes: string[] = [];
    for (const response of searches) {
      const accepted = (await response.request().allHeaders())['accept-encoding'];
      const decoded = (await response.body()).length;
      const { responseBodySize } = await response.request().sizes();
      // Answers under 1 KB go as they are; larger ones compressed as the browser accepts.
      const expected = decoded < 1024 ? undefined : accepted.includes('br') ? 'br' : 'gzip';
      expect((await response.allHeaders())['content-encoding'], `${decoded} bytes`).toBe(expected);
      searchSizes.push(`${decoded} → ${responseBodySize}`);
    }
    console.log(`search page JS and CSS: ${(raw / 1024).toFixed(1)} KB, ${(transferred / 1024).toFixed(1)} KB transferred; search answers (bytes): ${searchSizes.join(', ')}`);
    expect(transferred).toBeLessThan(raw / 3);
  });
});
