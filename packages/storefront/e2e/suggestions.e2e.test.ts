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
/** The most popular suggestion (typed by its first three letters), and another that starts differently. */
let popular: { query: string; category?: string; prefix: string };
let other: { query: string; prefix: string };

beforeAll(async () => {
  harness = await startHarness({ history: {} });
  page = await harness.newPage();
  const suggestions = await harness.suggestions();
  const [first] = suggestions;
  popular = { ...first, prefix: first.query.slice(0, 3) };
  const second = suggestions.find((s) => !s.query.startsWith(popular.prefix) && !popular.query.startsWith(s.query.slice(0, 4)))!;
  other = { query: second.query, prefix: second.query.slice(0, 4) };
  expect(popular.category).toBeDefined();
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
    await typeQuery(page, popular.prefix);
    await expect.poll(() => input().getAttribute('aria-expanded')).toBe('true');
    // The history searched this query most; its results are mostly in its top category.
    await expect.poll(optionTexts).toContain(popular.query);
    expect(await optionTexts()).toContain(`${popular.query} in ${popular.category}`);
    const first = options().first();
    expect(await first.locator('mark').first().textContent()).toBe(popular.prefix);
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
    await typeQuery(page, popular.prefix);
    const inCategory = `${popular.query} in ${popular.category}`;
    await expect.poll(optionTexts).toContain(inCategory);
    const texts = await optionTexts();
    // Recent searches come first; walk down to the category entry.
    for (let i = 0; i <= texts.indexOf(inCategory); i++) await input().press('ArrowDown');
    await input().press('Enter');
    await expect.poll(() => new URL(page.url()).pathname).toMatch(/^\/c\/[a-z0-9-]+$/);
    expect(new URL(page.url()).searchParams.get('q')).toBe(popular.query);
    const crumbs = () => page.locator('.ais-Breadcrumb-item').allTextContents();
    await expect.poll(async () => (await crumbs()).some((crumb) => crumb.endsWith(popular.category!))).toBe(true);
  });

  it('shows recent searches, and removes one', async () => {
    await page.goto('/');
    await page.locator('.vt-hit').first().waitFor();
    await input().focus();
    await expect.poll(() => page.locator('.vt-suggestion--recent').count()).toBeGreaterThan(0);
    expect(await page.locator('.vt-suggestion--recent .vt-suggestion-text').allTextContents()).toEqual([popular.query]);
    // Typed text that is no recent search shows none.
    await typeQuery(page, other.prefix);
    await expect.poll(() => page.locator('.vt-suggestion--recent').count()).toBe(0);
    await expect.poll(optionTexts).toContain(other.query);
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
    await typeQuery(page, other.query);
    await input().press('Enter');
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe(other.query);
    await input().focus();
    await input().fill('');
    await expect.poll(() => page.locator('.vt-suggestion--recent .vt-suggestion-text').allTextContents()).toEqual([other.query]);
    await input().press('Escape');
    await expect.poll(() => input().getAttribute('aria-expanded')).toBe('false');
    await input().press('ArrowDown');
    await expect.poll(() => input().getAttribute('aria-expanded')).toBe('true');
    await input().press('ArrowDown');
    await input().press('Delete');
    await expect.poll(() => page.locator('.vt-suggestion--recent').count()).toBe(0);
  });
});
