/**
 * Narrow screens and keyboard use: at 360 px the filters live in a drawer that keeps refinements when closed,
 * shows 'See N results' and gives focus back to its opener; no width from 360 px up scrolls sideways; a phone's
 * home page starts with the shop's categories and featured products, the search controls after them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openShopPage, phone, startHarness } from './harness.ts';
import type { Harness } from './harness.ts';

let harness: Harness;
let page: Page;

beforeAll(async () => {
  harness = await startHarness();
  page = await harness.newPage({ width: 360, height: 740 });
});

afterAll(async () => {
  await harness?.close();
});

const horizontalOverflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe('mobile layout', () => {
  it('keeps filters in a drawer that keeps refinements, shows the count and returns focus', async () => {
    await page.goto('/');
    await page.locator('.vt-hit').first().waitFor();
    expect(await horizontalOverflow()).toBe(0);
    const drawer = page.locator('#vt-filters');
    const opener = page.getByRole('button', { name: 'Filters' });
    expect(await drawer.isVisible()).toBe(false);

    await opener.click();
    await expect.poll(() => drawer.isVisible()).toBe(true);
    expect(await drawer.getAttribute('role')).toBe('dialog');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Close');

    const color = drawer.locator('section.vt-panel', { hasText: 'Color' }).locator('.ais-RefinementList-item').first();
    const colorName = (await color.locator('.ais-RefinementList-labelText').textContent())!;
    const colorCount = Number(await color.locator('.ais-RefinementList-count').textContent());
    const totalBefore = Number((await drawer.getByRole('button', { name: /^See [\d,]+ results?$/ }).textContent())!.replace(/[^\d]/g, ''));
    await color.locator('input[type=checkbox]').check();
    const see = drawer.getByRole('button', { name: /^See [\d,]+ results?$/ });
    // Results show one variant per model (distinct), the colour's count every variant of that colour: once the
    // refinement applies, the button tells the results' count, at most the colour's.
    const seeCount = async () => Number((await see.textContent())!.replace(/[^\d]/g, ''));
    await expect.poll(async () => { const n = await seeCount(); return n > 0 && n <= colorCount && n !== totalBefore; }).toBe(true);
    const resultCount = await seeCount();

    // Tab from the last control wraps to the first: focus stays in the open drawer.
    await see.focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.closest('#vt-filters') !== null)).toBe(true);
    await see.click();
    await expect.poll(() => drawer.isVisible()).toBe(false);
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Filters');
    // Closed, the refinement still applies, and the drawer still has it checked.
    await expect.poll(() => new URL(page.url()).searchParams.get('color')).toBe(colorName);
    await expect.poll(() => page.locator('.ais-Stats-text').textContent()).toMatch(new RegExp(`^${resultCount.toLocaleString('en-US')} results?$`));
    await opener.click();
    expect(await color.locator('input[type=checkbox]').isChecked()).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => drawer.isVisible()).toBe(false);
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Filters');
    expect(await horizontalOverflow()).toBe(0);
  });

  it('announces the result count in a polite live region once typing settles', async () => {
    await page.goto('/');
    await page.locator('.vt-hit').first().waitFor();
    const live = page.locator('[aria-live="polite"]');
    expect(await live.count()).toBe(1);
    expect(await live.getAttribute('role')).toBe('status');
    await page.locator('.vt-header-search .ais-SearchBox-input').pressSequentially('lamp');
    await expect.poll(() => live.textContent()).toMatch(/^\d+ results?$/);
    const shown = (await page.locator('.ais-Stats-text').textContent())!;
    expect(shown.startsWith((await live.textContent())!)).toBe(true);
  });

  it('does not scroll sideways at any width from 360 px to desktop, product page included', async () => {
    for (const width of [360, 480, 768, 1024, 1440]) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto('/?q=set');
      await page.locator('.vt-hit').first().waitFor();
      expect(await horizontalOverflow(), `search at ${width}px`).toBe(0);
    }
    await page.setViewportSize({ width: 360, height: 740 });
    await page.locator('.vt-hit-link').first().click();
    await page.getByRole('button', { name: 'Add to cart' }).waitFor();
    expect(await horizontalOverflow()).toBe(0);
  });

  it('is keyboard operable: Tab reaches the search box and the filters opener with a visible focus ring', async () => {
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto('/');
    await page.locator('.vt-hit').first().waitFor();
    await page.locator('.vt-header-search .ais-SearchBox-input').focus();
    await page.keyboard.type('lamp');
    await page.keyboard.press('Enter');
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe('lamp');
    // Tab forward until the Filters button has focus, then open it with the keyboard.
    for (let i = 0; i < 10 && (await page.evaluate(() => document.activeElement?.textContent)) !== 'Filters'; i++) {
      await page.keyboard.press('Tab');
    }
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Filters');
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
    expect(outline).not.toBe('none');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#vt-filters').isVisible()).toBe(true);
  });

  it('starts the home page with categories and featured products, then the result count, filters, sort and page size', async () => {
    await page.setViewportSize(phone);
    await openShopPage(page, '/');
    const categories = page.getByRole('navigation', { name: 'Shop by category' });
    const featured = page.getByRole('region', { name: 'Featured' });
    const controls = [
      page.locator('.ais-Stats-text'),
      page.getByRole('button', { name: 'Filters' }),
      page.locator('.ais-SortBy-select'),
      page.locator('.ais-HitsPerPage-select'),
    ];
    await featured.locator('.vt-rec-item').first().waitFor();
    const top = async (locator: (typeof controls)[number]) => (await locator.boundingBox())!.y;
    // On screen, top to bottom: the categories (in the first screen), the featured products, then the controls.
    expect(await top(categories)).toBeLessThan(phone.height / 2);
    expect(await top(featured)).toBeGreaterThan(await top(categories));
    const featuredBox = (await featured.boundingBox())!;
    for (const control of controls) expect(await top(control)).toBeGreaterThanOrEqual(featuredBox.y + featuredBox.height);
    expect(await top(page.locator('.vt-hit').first())).toBeGreaterThan(Math.max(...(await Promise.all(controls.map(top)))));
    // The same order in the document, so the keyboard and a screen reader meet them as they are shown.
    const follows = (earlier: string, later: string) =>
      page.evaluate(
        ([a, b]) => Boolean(document.querySelector(a)!.compareDocumentPosition(document.querySelector(b)!) & Node.DOCUMENT_POSITION_FOLLOWING),
        [earlier, later],
      );
    expect(await follows('.vt-category-nav', '.vt-featured')).toBe(true);
    expect(await follows('.vt-featured', '.vt-filters-opener')).toBe(true);
    expect(await follows('.vt-featured', '.ais-Stats')).toBe(true);

    // Once the shopper searches, the home sections give way and the controls lead.
    await page.locator('.vt-header-search .ais-SearchBox-input').pressSequentially('lamp');
    await expect.poll(() => categories.count()).toBe(0);
    expect(await featured.count()).toBe(0);
    expect(await top(controls[0])).toBeLessThan(phone.height / 2);
  });
});
