/**
 * From a search to an order: a hit opens the product page, 'Add to cart' fills the localStorage cart, the mock
 * checkout places the order; the server receives the click, view and conversion events with a valid anonymous
 * userToken and the search's queryID. Also: HTML in a record stays inert text, in hits and on the product page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { fillCheckoutForm, hitNames, startHarness, typeQuery } from './harness.ts';
import type { Harness } from './harness.ts';

const hostile = {
  objectID: 'hostile-1',
  name: 'Hostile <script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2"> Gadget',
  description: 'Sneaky <b>bold</b> text <img src=y onerror="alert(1)"> and <a href="javascript:alert(2)">a link</a>.',
  brand: '<i>Evil</i> Corp',
  categories: ['Electronics'],
  hierarchicalCategories: { lvl0: 'Electronics', lvl1: 'Electronics > Audio', lvl2: 'Electronics > Audio > Speakers' },
  price: 13.37,
  rating: 1,
  reviewCount: 0,
  color: 'Black',
  free_shipping: false,
  popularity: 0,
  image: '/images/products/speakers-black.svg',
  slug: 'hostile-gadget',
};

let harness: Harness;
let page: Page;
const dialogs: string[] = [];
const pageErrors: string[] = [];

beforeAll(async () => {
  harness = await startHarness({ extraRecords: [hostile] });
  page = await harness.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
});

afterAll(async () => {
  await harness?.close();
});

type Event = Record<string, unknown>;
const events = () => harness.server.insights.listEvents().map((stored) => stored.event as Event);

describe('product page, cart and checkout', () => {
  it('opens a hit, adds it to the cart, checks out, and sends click, view and conversion events', async () => {
    await page.goto('/');
    await typeQuery(page, 'wallet');
    // Wait for the answer to the whole word: the first hit of an earlier prefix ("wa") may be something else.
    await expect.poll(async () => /wallet/i.test((await hitNames(page))[0] ?? '')).toBe(true);
    const name = (await page.locator('.vt-hit-name').first().textContent())!;
    await page.locator('.vt-hit-link').first().click();

    await expect.poll(() => new URL(page.url()).pathname).toMatch(/^\/p\/[a-z0-9-]+-[^/]+$/);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(name);
    const product = harness.products.find((candidate) => candidate.name === name)!;
    expect(await page.locator('.vt-product-description').textContent()).toBe(product.description);
    expect(await page.locator('.vt-product-image').getAttribute('src')).toBe(product.image);

    await page.getByRole('button', { name: 'Add to cart' }).click();
    await expect.poll(() => page.locator('.vt-cart-count').textContent()).toBe('1');
    // The product page survives a reload (SPA fallback), the cart survives too (localStorage).
    await page.reload();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(name);
    await expect.poll(() => page.locator('.vt-cart-count').textContent()).toBe('1');

    await page.locator('.vt-cart-link').click();
    await expect.poll(() => page.getByRole('heading', { name: 'Your cart' }).isVisible()).toBe(true);
    // Clearing the field to type a new number doesn't drop the line; the new number applies.
    const quantity = page.getByRole('textbox', { name: `Quantity of ${name}` });
    await quantity.fill('');
    expect(await page.locator('.vt-cart-count').textContent()).toBe('1');
    await quantity.fill('2');
    await expect.poll(() => page.locator('.vt-cart-count').textContent()).toBe('2');
    const total = (Math.round(product.price * 2 * 100) / 100).toLocaleString('en-US', { minimumFractionDigits: 2 });
    await expect.poll(() => page.locator('.vt-summary-subtotal').textContent()).toContain(total);

    await page.getByRole('link', { name: 'Checkout' }).click();
    await fillCheckoutForm(page);
    await page.getByRole('button', { name: 'Place order' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Thank you!' }).isVisible()).toBe(true);
    const orders = await page.evaluate(() => JSON.parse(localStorage.getItem('vitrine.orders') ?? '[]') as Array<{ total: number; lines: unknown[] }>);
    expect(orders).toHaveLength(1);
    expect(orders[0].lines).toHaveLength(1);
    await expect.poll(() => page.locator('.vt-cart-count').textContent()).toBe('0');

    // Events, as the server stored them.
    const userToken = await page.evaluate(() => localStorage.getItem('vitrine.userToken'));
    expect(userToken).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    await expect.poll(() => events().filter((event) => event.eventType === 'conversion').length).toBeGreaterThanOrEqual(2);
    const stored = events();
    const click = stored.find((event) => event.eventType === 'click')!;
    expect(click).toMatchObject({ eventName: 'Product Clicked', index: 'products', objectIDs: [product.objectID], positions: [1], userToken });
    expect(click.queryID).toMatch(/^[a-f0-9]{32}$/);
    // One view per product page load (and the reload); InstantSearch's automatic per-result-set views are not sent.
    const views = stored.filter((event) => event.eventType === 'view');
    expect(views.map((event) => event.eventName)).toEqual(['Product Viewed', 'Product Viewed']);
    expect(views[0]).toMatchObject({ index: 'products', objectIDs: [product.objectID], userToken });
    expect(stored.filter((event) => event.eventType === 'click').map((event) => event.eventName)).toEqual(['Product Clicked']);
    const addToCart = stored.find((event) => event.eventSubtype === 'addToCart')!;
    expect(addToCart).toMatchObject({ eventType: 'conversion', objectIDs: [product.objectID], queryID: click.queryID, currency: 'USD', value: product.price, userToken });
    const purchase = stored.find((event) => event.eventSubtype === 'purchase')!;
    expect(purchase).toMatchObject({ eventType: 'conversion', objectIDs: [product.objectID], currency: 'USD', userToken });
    expect(purchase.value).toBeCloseTo(product.price * 2, 2);
    expect(purchase.objectData).toEqual([{ price: product.price, quantity: 2, queryID: click.queryID }]);
    // InstantSearch's own usage reports never reach the server.
    expect(stored.some((event) => event.eventType === 'instantsearch')).toBe(false);
  });

  it('comes back to the same search from a hit opened right after typing', async () => {
    await page.goto('/');
    await page.locator('.vt-hit').first().waitFor();
    await typeQuery(page, 'floor lamp');
    await expect.poll(async () => (await hitNames(page)).every((name) => /lamp/i.test(name))).toBe(true);
    // Usually within the 400 ms URL write delay: the pending write must not be lost on leaving the page.
    const urlAtClick = page.url();
    await page.locator('.vt-hit-link').first().click();
    await expect.poll(() => new URL(page.url()).pathname).toMatch(/^\/p\//);
    await page.getByRole('button', { name: '← Back to results' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe('floor lamp');
    await expect.poll(() => page.locator('.vt-header-search .ais-SearchBox-input').inputValue()).toBe('floor lamp');
    await expect.poll(async () => (await hitNames(page)).every((name) => /lamp/i.test(name))).toBe(true);
    console.log(`hit opened ${urlAtClick.includes('q=floor') ? 'after' : 'before'} the URL write`);
  });

  it('shows "No reviews yet" instead of stars for a product without reviews, in hits and on its page', async () => {
    const unreviewed = harness.products.find((p) => p.reviewCount === 0)!;
    const reviewed = harness.products.find((p) => p.reviewCount > 0 && p.brand === unreviewed.brand) ?? harness.products.find((p) => p.reviewCount > 0)!;
    await page.goto('/');
    for (const product of [unreviewed, reviewed]) {
      await page.locator('.vt-header-search .ais-SearchBox-input').fill('');
      await typeQuery(page, product.name);
      const exactName = new RegExp(`^${product.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
      const hit = page.locator('.vt-hit').filter({ has: page.locator('.vt-hit-name', { hasText: exactName }) });
      await expect.poll(() => hit.count()).toBe(1);
      const stars = hit.locator('.vt-stars');
      if (product.reviewCount === 0) expect(await stars.textContent()).toBe('No reviews yet');
      else expect(await stars.getAttribute('aria-label')).toBe(`Rated ${product.rating} out of 5, ${product.reviewCount} reviews`);
    }
    await page.goto(`/p/${unreviewed.slug}-${unreviewed.objectID}`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(unreviewed.name);
    expect(await page.locator('.vt-product-info .vt-stars').textContent()).toBe('No reviews yet');
  });

  it('renders HTML and scripts in records as inert text', async () => {
    await page.goto('/');
    await typeQuery(page, 'hostile');
    const hit = page.locator('.vt-hit', { hasText: 'Hostile' });
    await expect.poll(() => hit.count()).toBe(1);
    expect(await hit.locator('.vt-hit-name').textContent()).toBe(hostile.name);
    expect(await hit.locator('.vt-hit-brand').textContent()).toBe(hostile.brand);
    await hit.locator('.vt-hit-link').click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(hostile.name);
    expect(await page.locator('.vt-product-description').textContent()).toBe(hostile.description);
    expect(await page.locator('img[src="x"], img[src="y"], script:not([src]):not([type]), a[href^="javascript:"]').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(dialogs).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it('says so when a product does not exist', async () => {
    await page.goto('/p/nothing-here-doesnotexist');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Product not found');
  });
});
