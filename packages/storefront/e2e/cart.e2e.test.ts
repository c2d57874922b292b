/**
 * Cart and checkout: unit prices, quantity steppers that never show a total for a half-typed number, delivery
 * and tax lines, a summary matching the cart badge, checkout validation messages, a confirmation listing the
 * items, and a phone layout where nothing overlaps.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { productPath } from '../src/lib/catalog.ts';
import { phone, useShop } from './harness.ts';
import type { Harness } from './harness.ts';

const money = (text: string | null) => Number((text ?? '').replace(/[^0-9.]/g, ''));

/** Puts `quantity` of the first two products into the cart through their product pages. */
async function fillCart(page: Page, harness: Harness) {
  const [first, second] = harness.products;
  await page.goto(productPath(first));
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await page.goto(productPath(second));
  await page.getByRole('button', { name: 'Increase quantity' }).click();
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await expect.poll(() => page.locator('.vt-cart-count').textContent()).toBe('3');
  await page.locator('.vt-cart-link').click();
  await expect.poll(() => page.locator('.vt-cart-line').count()).toBe(2);
  return [first, second];
}

describe('cart and checkout', () => {
  const shop = useShop();

  it('shows unit prices, steps quantities, and adds delivery and tax to a summary that matches the badge', async () => {
    const { page, harness } = shop;
    const [first, second] = await fillCart(page, harness);
    const line = page.locator('.vt-cart-line', { hasText: second.name });
    expect(await line.locator('.vt-cart-line-price').textContent()).toBe(`$${second.price.toFixed(2)} each`);
    expect(await page.locator('.vt-summary-items').textContent()).toBe(await page.locator('.vt-cart-count').textContent());

    const field = page.getByRole('textbox', { name: `Quantity of ${second.name}` });
    const subtotal = await page.locator('.vt-summary-subtotal').textContent();
    // Half-typed: nothing changes yet, no total computed from an empty or out-of-range field.
    await field.fill('');
    await field.pressSequentially('0');
    expect(await page.locator('.vt-summary-subtotal').textContent()).toBe(subtotal);
    expect(await page.locator('.vt-cart-count').textContent()).toBe('3');
    await field.fill('5');
    await expect.poll(() => page.locator('.vt-cart-count').textContent()).toBe('6');
    expect(await page.locator('.vt-summary-items').textContent()).toBe('6');
    await field.fill('150');
    await field.blur();
    expect(await field.inputValue()).toBe('5');
    await page.getByRole('button', { name: `Decrease quantity of ${second.name.toLowerCase()}` }).click();
    await expect.poll(() => page.locator('.vt-cart-count').textContent()).toBe('5');

    const expectedSubtotal = Math.round((first.price + second.price * 4) * 100) / 100;
    expect(money(await page.locator('.vt-summary-subtotal').textContent())).toBeCloseTo(expectedSubtotal, 2);
    const shipping = await page.locator('.vt-summary-shipping').textContent();
    const parts = [expectedSubtotal, shipping === 'Free' ? 0 : money(shipping), money(await page.locator('.vt-summary-tax').textContent())];
    expect(money(await page.locator('.vt-summary-total').textContent())).toBeCloseTo(parts.reduce((sum, part) => sum + part, 0), 2);
  });

  it('says what is wrong with the checkout form, then confirms the order with its items', async () => {
    const { page, harness } = shop;
    const [first, second] = harness.products;
    await page.locator('.vt-cart-link').click();
    await page.getByRole('link', { name: 'Checkout' }).click();
    await page.getByRole('button', { name: 'Place order' }).click();
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.textContent()).toContain('Please correct these 5 fields');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('name');
    expect(await page.getByLabel('Full name').getAttribute('aria-invalid')).toBe('true');

    await page.getByLabel('Full name').fill('Ada Shopper');
    await page.getByLabel('Email').fill('ada@');
    await page.getByLabel('Street address').fill('1 Main Street');
    await page.getByLabel('City').fill('Springfield');
    await page.getByLabel('Postcode').fill('12345');
    await page.getByRole('button', { name: 'Place order' }).click();
    await expect.poll(() => page.locator('#vt-checkout-email-error').textContent()).toBe('Enter an email address like name@example.com.');
    expect(await page.getByLabel('Email').getAttribute('aria-describedby')).toBe('vt-checkout-email-error');
    const total = await page.locator('.vt-summary-total').textContent();

    await page.getByLabel('Email').fill('ada@example.test');
    await page.getByRole('button', { name: 'Place order' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Thank you!' }).isVisible()).toBe(true);
    expect(await page.locator('.vt-confirmation-name').allTextContents()).toEqual([first.name, second.name]);
    expect(await page.locator('.vt-confirmation').textContent()).toContain(`is placed: ${total}`);
    await expect.poll(() => page.locator('.vt-cart-count').textContent()).toBe('0');
  });
});

describe('cart on a phone', () => {
  const shop = useShop({}, phone);

  it('lays out each line without overlaps or sideways scrolling', async () => {
    const { page, harness } = shop;
    await fillCart(page, harness);
    const parts = ['.vt-cart-line-image', '.vt-cart-line-name', '.vt-cart-line-price', '.vt-stepper', '.vt-cart-line-total', '.vt-cart-line-remove'];
    for (const line of await page.locator('.vt-cart-line').all()) {
      const boxes = await Promise.all(parts.map(async (selector) => (await line.locator(selector).boundingBox())!));
      for (let a = 0; a < boxes.length; a++) {
        for (let b = a + 1; b < boxes.length; b++) {
          const [p, q] = [boxes[a], boxes[b]];
          const overlap = p.x < q.x + q.width - 1 && q.x < p.x + p.width - 1 && p.y < q.y + q.height - 1 && q.y < p.y + p.height - 1;
          expect(overlap, `${parts[a]} overlaps ${parts[b]}`).toBe(false);
        }
      }
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
  });
});
