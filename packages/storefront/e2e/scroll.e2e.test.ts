/**
 * Scroll positions: choosing another page of results shows it from the top of the results; Back from a product
 * page returns to where the shopper was, and in the infinite view with every hit already loaded.
 */
import { describe, expect, it } from 'vitest';
import { desktop, hitNames, useShop } from './harness.ts';

const shop = useShop();

const scrollY = () => shop.page.evaluate(() => Math.round(window.scrollY));
const resultsTop = () => shop.page.evaluate(() => Math.round(document.getElementById('main')!.getBoundingClientRect().top));

/** Scrolls the n-th hit (0-based) to the middle of the screen, opens it, and comes Back; returns what was on screen. */
async function openHitAndComeBack(index: number) {
  const hit = shop.page.locator('.vt-hit').nth(index);
  await hit.evaluate((element) => element.scrollIntoView({ block: 'center' }));
  const before = { y: await scrollY(), name: (await hit.locator('.vt-hit-name').textContent())! };
  expect(before.y).toBeGreaterThan(1000);
  await hit.locator('.vt-hit-link').click();
  await expect.poll(() => shop.page.getByRole('heading', { level: 1 }).textContent()).toBe(before.name);
  expect(await scrollY()).toBe(0);
  await shop.page.goBack();
  return before;
}

describe('scroll', () => {
  it('shows the next page of results from the top of the results', async () => {
    await shop.page.goto('/');
    await shop.page.locator('.vt-hit').first().waitFor();
    const firstPage = await hitNames(shop.page);
    await shop.page.getByRole('link', { name: 'Page 2' }).scrollIntoViewIfNeeded();
    expect(await resultsTop()).toBeLessThan(-500);
    await shop.page.getByRole('link', { name: 'Page 2' }).click();
    await expect.poll(async () => (await hitNames(shop.page))[0]).not.toBe(firstPage[0]);
    const top = await resultsTop();
    expect(top).toBeGreaterThanOrEqual(-1);
    expect(top).toBeLessThan(desktop.height / 2);
  });

  it('comes Back from a product to the same place in the results', async () => {
    await shop.page.goto('/?page=2');
    await shop.page.locator('.vt-hit').first().waitFor();
    const before = await openHitAndComeBack(14);
    await expect.poll(scrollY).toBe(before.y);
    expect(new URL(shop.page.url()).searchParams.get('page')).toBe('2');
    const hit = shop.page.locator('.vt-hit', { hasText: before.name });
    expect(await hit.evaluate((element) => element.getBoundingClientRect().top > 0 && element.getBoundingClientRect().bottom < innerHeight)).toBe(true);
  });

  it('comes Back to the infinite list with every hit it had loaded', async () => {
    await shop.page.goto('/?view=infinite');
    await shop.page.locator('.vt-hit').first().waitFor();
    for (const count of [40, 60]) {
      await shop.page.getByRole('button', { name: 'Show more results' }).click();
      await expect.poll(() => shop.page.locator('.vt-hit').count()).toBe(count);
    }
    const before = await openHitAndComeBack(49);
    await expect.poll(() => shop.page.locator('.vt-hit').count()).toBe(60);
    await expect.poll(scrollY).toBe(before.y);
    expect((await hitNames(shop.page))[49]).toBe(before.name);
  });
});
