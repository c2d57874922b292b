/**
 * The search box's dropdown through the real insights plugin: query suggestions built from the seeded search
 * history (highlighted, the first one also "in <category>"), recent searches kept in localStorage and removable,
 * the ARIA combobox pattern, and keyboard selection running the search.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startHarness, typeQuery } from './harness.ts';
import type { Harness } from './harness.ts';

let harness: Harness;
let page: Page;

beforeAll(async () => {
  harness = await startHarness({ history: {} });
  page = await harness.newPage();
});

afterAll(async () => {
  await harness?.close();
});

const input = () => page.locator('.vt-header-search .ais-SearchBox-input');
const options = () => page.getByRole('listbox', { name: 'Search suggestions' }).getByRole('option');
const optionTexts = () => options().allTextContents();

describe('search suggestions', () => {
  it('suggests queries as the shopper types, with ARIA combobox semantics', async () => {
    await page.goto('/');
    await page.locator('.vt-hit').first().waitFor();
    expect(await input().getAttribute('role')).toBe('combobox');
    expect(await input().getAttribute('maxlength')).toBe('512');
    expect(await input().getAttribute('placeholder')).toBe('Search products, brands, categories…');
    await typeQuery(page, 'wal');
    await expect.poll(() => input().getAttribute('aria-expanded')).toBe('true');
    // The history searched "wallets" most among the "wal…" queries; its results are in Fashion.
    await expect.poll(optionTexts).toContain('wallets');
    expect(await optionTexts()).toContain('wallets in Fashion');
    const first = options().first();
    expect(await first.locator('mark').first().textContent()).toBe('wal');
    const listId = await input().getAttribute('aria-controls');
    expect(await page.locator(`[id="${listId}"]`).getAttribute('role')).toBe('listbox');
    expect(await input().getAttribute('aria-activedescendant')).toBeNull();
  });

  it('moves with the arrow keys and runs the chosen suggestion on Enter', async () => {
    await input().press('ArrowDown');
    const activeId = await input().getAttribute('aria-activedescendant');
    expect(activeId).toBeTruthy();
    const active = page.locator(`[id="${activeId}"]`);
    expect(await active.getAttribute('aria-selected')).toBe('true');
    const chosen = (await active.textContent())!;
    await input().press('Enter');
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe(chosen);
    await expect.poll(() => input().inputValue()).toBe(chosen);
    await expect.poll(() => input().getAttribute('aria-expanded')).toBe('false');
    await expect.poll(() => page.locator('.vt-hit').count()).toBeGreaterThan(0);
  });

  it('offers the first suggestion within its top category', async () => {
    await page.goto('/');
    await page.locator('.vt-hit').first().waitFor();
    await typeQuery(page, 'wal');
    await expect.poll(optionTexts).toContain('wallets in Fashion');
    const texts = await optionTexts();
    // Recent searches come first; walk down to the category entry.
    for (let i = 0; i <= texts.indexOf('wallets in Fashion'); i++) await input().press('ArrowDown');
    await input().press('Enter');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/c/fashion');
    expect(new URL(page.url()).searchParams.get('q')).toBe('wallets');
  });

  it('shows recent searches, and removes one', async () => {
    await page.goto('/');
    await page.locator('.vt-hit').first().waitFor();
    await input().focus();
    await expect.poll(() => page.locator('.vt-suggestion--recent').count()).toBeGreaterThan(0);
    expect(await page.locator('.vt-suggestion--recent .vt-suggestion-text').allTextContents()).toEqual(['wallets']);
    // Typed text that is no recent search shows none.
    await typeQuery(page, 'dres');
    await expect.poll(() => page.locator('.vt-suggestion--recent').count()).toBe(0);
    await expect.poll(optionTexts).toContain('dresses');
    await input().fill('');
    await expect.poll(() => page.locator('.vt-suggestion--recent').count()).toBe(1);
    await page.locator('.vt-suggestion--recent .vt-suggestion-remove').click();
    await expect.poll(() => page.locator('.vt-suggestion--recent').count()).toBe(0);
    expect(await page.evaluate(() => localStorage.getItem('vitrine.recentSearches'))).toBe('[]');
    // The box kept the focus through the click.
    expect(await input().evaluate((element) => element === document.activeElement)).toBe(true);
  });

  it('remembers a typed search submitted with Enter, closes on Escape and removes with Delete', async () => {
    await input().fill('');
    await typeQuery(page, 'dresses');
    await input().press('Enter');
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe('dresses');
    await input().focus();
    await input().fill('');
    await expect.poll(() => page.locator('.vt-suggestion--recent .vt-suggestion-text').allTextContents()).toEqual(['dresses']);
    await input().press('Escape');
    await expect.poll(() => input().getAttribute('aria-expanded')).toBe('false');
    await input().press('ArrowDown');
    await expect.poll(() => input().getAttribute('aria-expanded')).toBe('true');
    await input().press('ArrowDown');
    await input().press('Delete');
    await expect.poll(() => page.locator('.vt-suggestion--recent').count()).toBe(0);
  });
});
