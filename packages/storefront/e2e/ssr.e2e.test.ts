/**
 * Server-rendered pages in the browser: a category or product page arrives complete, hydrates without asking
 * the search API for anything until the shopper acts, and does not move on load, even while it arrives in
 * slices over a slow connection (layout-shift entries sum to about 0); titles follow in-app navigation; unknown
 * addresses answer 404 with a search box. Desktop and phone.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Product } from '@vitrine/protocol';
import { productPath, slugify } from '../src/lib/catalog.ts';
import { desktop, hitNames, phone, useShop } from './harness.ts';
import { startSlowConnection } from './slow-connection.ts';

/** Search API calls (multi-queries and record reads) the page makes; insights events are not searches. */
function recordSearchRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path.endsWith('/recommendations')) return;
    if (/^\/1\/indexes\/.+\/(queries|query|objects)$/.test(path) || /^\/1\/indexes\/[^/]+\/[^/]+$/.test(path)) seen.push(path);
  });
  return seen;
}

/** Sums the page's layout shifts (as CLS counts them: not those right after an input). */
async function observeLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const holder = window as unknown as { __layoutShift: number; __shifted: string[]; __observingShifts?: boolean };
    // Once per page, however many tests asked: a second observer would count every shift twice.
    if (holder.__observingShifts) return;
    holder.__observingShifts = true;
    holder.__layoutShift = 0;
    holder.__shifted = [];
    type Shift = PerformanceEntry & { value: number; hadRecentInput: boolean; sources?: Array<{ node?: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }> };
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Shift[]) {
        if (entry.hadRecentInput) continue;
        holder.__layoutShift += entry.value;
        // What moved, for the failure message.
        for (const source of entry.sources ?? []) {
          const node = source.node as Element | null | undefined;
          const name = node ? `${node.nodeName.toLowerCase()}${node instanceof Element && node.className ? `.${String(node.className).split(' ').join('.')}` : ''}` : '(gone)';
          holder.__shifted.push(`${name} ${Math.round(source.previousRect.y)}→${Math.round(source.currentRect.y)} (h ${Math.round(source.previousRect.height)}→${Math.round(source.currentRect.height)}) at ${Math.round(entry.startTime)} ms`);
        }
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/** The page's layout shifts sum to about 0; a failure names what moved. */
async function expectNoLayoutShift(page: Page, where = ''): Promise<void> {
  const { total, shifted } = await page.evaluate(() => {
    const holder = window as unknown as { __layoutShift: number; __shifted: string[] };
    return { total: holder.__layoutShift, shifted: holder.__shifted };
  });
  expect(total, `layout shifts${where ? ` on ${where}` : ''}: ${shifted.join('; ')}`).toBeLessThan(0.01);
}

/** A product of the test catalogue with other variants (records sharing its `groupID`). */
function productWithVariants(products: Product[]): Product {
  const groupOf = (product: Product) => (product as Product & { groupID?: unknown }).groupID;
  const found = products.find((product) => groupOf(product) !== undefined && products.some((other) => other !== product && groupOf(other) === groupOf(product)));
  if (!found) throw new Error('the test catalogue has no product with variants');
  return found;
}

/**
 * Holds the page's scripts back, as on a slow connection, until `release` is called: the server-rendered page
 * is on screen and not yet live. `restore` releases them and removes the hold.
 */
async function holdScripts(page: Page): Promise<{ release: () => void; restore: () => Promise<void> }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/assets/*.js', async (route) => {
    await released;
    await route.continue();
  });
  return {
    release,
    restore: async () => {
      release();
      await page.unroute('**/assets/*.js');
    },
  };
}

function isHydrated(page: Page): Promise<boolean> {
  return page.evaluate(() => Object.keys(document.getElementById('root') ?? {}).some((key) => key.startsWith('__reactContainer')));
}

for (const [screen, viewport] of [['desktop', desktop], ['phone', phone]] as const) {
  describe(`server-rendered pages (${screen})`, () => {
    const shop = useShop({}, viewport);

    it('hydrates a category page without a search request, without a layout shift, and searches once the shopper acts', async () => {
      const { page, harness } = shop;
      await observeLayoutShifts(page);
      const searches = recordSearchRequests(page);
      const lvl0 = harness.products[0].hierarchicalCategories.lvl0;
      const response = await page.goto(`/c/${slugify(lvl0)}`);
      expect(response?.status()).toBe(200);
      await expect.poll(() => isHydrated(page)).toBe(true);
      await page.waitForLoadState('networkidle');
      expect((await hitNames(page)).length).toBeGreaterThan(0);
      expect(searches).toEqual([]);
      await expectNoLayoutShift(page);

      // The hydrated page is live: a new query goes to the search API and changes the results.
      const before = await hitNames(page);
      await page.locator('.vt-header-search .ais-SearchBox-input').fill(harness.products[1].name.split(' ').slice(-2).join(' '));
      await expect.poll(() => searches.length).toBeGreaterThan(0);
      await expect.poll(() => hitNames(page)).not.toEqual(before);
    });

    it('does not move while a category or product page arrives in slices over a slow connection', async () => {
      const { page, harness } = shop;
      await observeLayoutShifts(page);
      // The browser paints between slices: a card, a list or a picker that takes its place only once the
      // whole page is there would move what the shopper already sees.
      const slow = await startSlowConnection(harness.baseURL);
      try {
        const lvl0 = harness.products[0].hierarchicalCategories.lvl0;
        for (const path of [`/c/${slugify(lvl0)}`, productPath(productWithVariants(harness.products))]) {
          await page.goto(`${slow.url}${path}`);
          await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
          await page.waitForLoadState('networkidle');
          await expectNoLayoutShift(page, path);
        }
      } finally {
        await slow.close();
      }
    });

    it('hydrates the home page with its featured products, no search request, no layout shift and no script error', async () => {
      const { page } = shop;
      await observeLayoutShifts(page);
      const searches = recordSearchRequests(page);
      const errors: string[] = [];
      const onError = (error: Error) => void errors.push(error.message);
      page.on('pageerror', onError);
      try {
        const response = await page.goto('/');
        expect(response?.status()).toBe(200);
        // The featured products are in the server's page, above the hits.
        const html = await response!.text();
        expect(html).toMatch(/<section class="vt-home-section vt-featured"[^>]*><h2[^>]*>Featured<\/h2><div class="vt-card-grid"><a class="vt-rec-item" href="\/p\//);
        expect(html.indexOf('vt-featured')).toBeLessThan(html.search(/class="vt-hit[" ]/));
        await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
        await page.waitForLoadState('networkidle');
        expect(await page.locator('.vt-featured .vt-card-grid > *').count()).toBeGreaterThan(0);
        expect((await hitNames(page)).length).toBeGreaterThan(0);
        expect(searches).toEqual([]);
        await expectNoLayoutShift(page);
        expect(errors).toEqual([]);
      } finally {
        page.off('pageerror', onError);
      }
    });

    it('serves the help page whole and hydrates it without a layout shift; the cart stays in the browser', async () => {
      const { page } = shop;
      await observeLayoutShifts(page);
      const response = await page.goto('/help');
      expect(response?.status()).toBe(200);
      expect(await response!.text()).toMatch(/<section class="vt-help"><h1>Help<\/h1>/);
      await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
      await page.waitForLoadState('networkidle');
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Help');
      await expectNoLayoutShift(page);
      // The cart is read from this browser's storage: the server sends the shell, never an empty cart.
      const cart = await page.request.get('/cart', { headers: { accept: 'text/html' } });
      expect(await cart.text()).toContain('class="vt-boot"');
    });

    it('searches what the shopper typed before the page hydrated', async () => {
      const { page, harness } = shop;
      const scripts = await holdScripts(page);
      try {
        const lvl0 = harness.products[0].hierarchicalCategories.lvl0;
        await page.goto(`/c/${slugify(lvl0)}`, { waitUntil: 'commit' });
        await page.locator('.vt-hit').first().waitFor();
        const before = await hitNames(page);
        const word = harness.products[4].name.split(' ').slice(-1)[0];
        await page.locator('.vt-header-search .ais-SearchBox-input').pressSequentially(word);
        expect(await page.evaluate(() => document.documentElement.dataset.hydrated)).toBeUndefined();
        scripts.release();
        await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
        await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe(word);
        await expect.poll(() => hitNames(page)).not.toEqual(before);
        expect(await page.locator('.vt-header-search .ais-SearchBox-input').inputValue()).toBe(word);
      } finally {
        await scripts.restore();
      }
    });

    if (screen === 'desktop') {
      // On a phone the filters sit behind a button, refused the same way (covered by the same style rule).
      it('lets no filter click be lost before the page is live, and takes them once it is', async () => {
        const { page, harness } = shop;
        const scripts = await holdScripts(page);
        try {
          const lvl0 = harness.products[0].hierarchicalCategories.lvl0;
          await page.goto(`/c/${slugify(lvl0)}`, { waitUntil: 'commit' });
          const brand = page.locator('.ais-RefinementList-item').first();
          await brand.waitFor();
          const address = page.url();
          // A shopper's click, wherever the pointer lands: not Playwright's, which waits for an element to take it.
          const box = (await brand.locator('.ais-RefinementList-label').boundingBox())!;
          await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
          expect(await page.evaluate(() => document.documentElement.dataset.hydrated)).toBeUndefined();
          expect(await brand.locator('input[type=checkbox]').isChecked()).toBe(false);
          expect(page.url()).toBe(address);
          scripts.release();
          await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
          const before = await hitNames(page);
          await brand.locator('.ais-RefinementList-label').click();
          await expect.poll(() => brand.locator('input[type=checkbox]').isChecked()).toBe(true);
          await expect.poll(() => page.url()).not.toBe(address);
          await expect.poll(() => hitNames(page)).not.toEqual(before);
        } finally {
          await scripts.restore();
        }
      });
    }

    it('sends a click on a server-rendered hit as an event the server accepts', async () => {
      const { page, harness } = shop;
      const word = harness.products[2].name.split(' ').slice(-1)[0];
      await page.goto(`/search?q=${encodeURIComponent(word)}`);
      await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
      const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/1/events' && (response.request().postData() ?? '').includes('Product Clicked'));
      await page.locator('.vt-hit-link').first().click();
      const response = await answered;
      // The rendered hits have no queryID: the click goes without a position rather than refused (422).
      expect(response.status()).toBe(200);
      const [event] = (JSON.parse(response.request().postData()!) as { events: Array<Record<string, unknown>> }).events;
      expect(event).toMatchObject({ eventType: 'click', eventName: 'Product Clicked', index: 'products' });
      expect(event.positions).toBeUndefined();
      expect(event.queryID).toBeUndefined();
    });

    it('keeps the product page\'s buttons disabled until the page is live, so no click is lost', async () => {
      const { page, harness } = shop;
      const scripts = await holdScripts(page);
      try {
        await page.goto(productPath(harness.products[5]), { waitUntil: 'commit' });
        const addToCart = page.getByRole('button', { name: 'Add to cart' });
        await addToCart.waitFor();
        expect(await addToCart.isDisabled()).toBe(true);
        expect(await page.getByRole('button', { name: 'Increase quantity' }).isDisabled()).toBe(true);
        scripts.release();
        await expect.poll(() => addToCart.isEnabled()).toBe(true);
        await page.getByRole('button', { name: 'Increase quantity' }).click();
        await addToCart.click();
        await expect.poll(() => page.locator('.vt-cart-count').textContent()).toBe('2');
      } finally {
        await scripts.restore();
      }
    });

    it('hydrates a product page without reading the record or listing its variants again', async () => {
      const { page, harness } = shop;
      const product = productWithVariants(harness.products);
      const searches = recordSearchRequests(page);
      const response = await page.goto(productPath(product));
      expect(response?.status()).toBe(200);
      // The variant picker is in the server's page, above the buttons it would otherwise push down.
      expect(await response!.text()).toMatch(/<nav class="vt-variants"[^>]*>.*<div class="vt-buy">/s);
      await expect.poll(() => isHydrated(page)).toBe(true);
      await page.waitForLoadState('networkidle');
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(product.name);
      expect(await page.locator('.vt-variants [aria-current="page"]').count()).toBe(1);
      expect(searches).toEqual([]);
      expect(await page.title()).toBe(`${product.name} – Vitrine`);
    });

    it('keeps the title right through in-app navigation', async () => {
      const { page, harness } = shop;
      const lvl0 = harness.products[0].hierarchicalCategories.lvl0;
      await page.goto(`/c/${slugify(lvl0)}`);
      await expect.poll(() => isHydrated(page)).toBe(true);
      expect(await page.title()).toBe(`${lvl0} – Vitrine`);
      const firstHit = page.locator('.vt-hit-link').first();
      const name = (await page.locator('.vt-hit-name').first().textContent())!;
      await firstHit.click();
      await expect.poll(() => page.title()).toBe(`${name} – Vitrine`);
      await page.locator('.vt-cart-link').click();
      await expect.poll(() => page.title()).toBe('Your cart – Vitrine');
      await page.goBack();
      await expect.poll(() => page.title()).toBe(`${name} – Vitrine`);
      await page.goBack();
      await expect.poll(() => page.title()).toBe(`${lvl0} – Vitrine`);
    });

    it('answers an unknown address, category or product with a 404 page that has a search box', async () => {
      const { page, harness } = shop;
      for (const path of ['/nope', '/c/no-such-category', '/p/no-such-product-zz404']) {
        const response = await page.goto(path);
        expect(response?.status(), path).toBe(404);
        await expect.poll(() => isHydrated(page)).toBe(true);
        expect(await page.getByRole('heading', { level: 1 }).textContent()).toMatch(/not found/);
        expect(await page.title()).toMatch(/not found – Vitrine/);
      }
      const box = page.locator('.vt-not-found-search .ais-SearchBox-input');
      const word = harness.products[3].name.split(' ').slice(-1)[0];
      await box.fill(word);
      await box.press('Enter');
      await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe(word);
      await expect.poll(async () => (await hitNames(page)).length).toBeGreaterThan(0);
    });
  });
}
