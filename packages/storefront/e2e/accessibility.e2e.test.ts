/**
 * An axe-core scan (WCAG 2.x A and AA rules, injected into the page) of the search, product, cart and checkout
 * pages, on a desktop and a phone screen: no serious or critical violation.
 */
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { AxeResults } from 'axe-core';
import { productPath } from '../src/lib/catalog.ts';
import { desktop, phone, useShop } from './harness.ts';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: axeSource });
  const results = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<AxeResults> } }).axe;
    return axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
  });
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(' ')).slice(0, 3).join(', ')}`);
}

describe('accessibility scan', () => {
  // axe is injected as an inline script: the scan runs without the server's CSP, which would (rightly) block it.
  const shop = useShop();

  for (const [screen, viewport] of [['desktop', desktop], ['phone', phone]] as const) {
    it(`finds no serious or critical violation on the search, product, cart and checkout pages (${screen})`, async () => {
      const { harness } = shop;
      const context = await harness.browser.newContext({ baseURL: harness.baseURL, viewport, bypassCSP: true });
      const page = await context.newPage();
      try {
        const product = harness.products[0];
        await page.goto('/?q=lamp');
        await page.locator('.vt-hit').first().waitFor();
        expect(await seriousViolations(page), 'search page').toEqual([]);

        await page.goto(productPath(product));
        await page.getByRole('heading', { level: 1, name: product.name }).waitFor();
        expect(await seriousViolations(page), 'product page').toEqual([]);
        await page.getByRole('button', { name: 'Add to cart' }).click();

        await page.goto('/cart');
        await page.locator('.vt-cart-line').first().waitFor();
        expect(await seriousViolations(page), 'cart page').toEqual([]);

        await page.goto('/checkout');
        await page.getByRole('button', { name: 'Place order' }).click();
        await page.locator('.vt-field-error').first().waitFor();
        expect(await seriousViolations(page), 'checkout page with errors').toEqual([]);
      } finally {
        await context.close();
      }
    });
  }
});
