/**
 * The console's Configuration and Synonyms screens against the real server: settings edited in the form are
 * saved as one task and change searches, a replica gets its sort order, and a synonym created in the console
 * changes what a query finds in the live preview.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Harness } from '../../storefront/e2e/harness.ts';
import { api, expectStatus, openScreen, useSignedInConsole } from './console-helpers.ts';

let harness: Harness;
let page: Page;

const session = useSignedInConsole();
beforeAll(() => {
  ({ harness, page } = session);
});

type Settings = Record<string, unknown> & { customRanking?: string[]; attributesForFaceting?: string[]; ranking?: string[]; replicas?: string[] };
const settingsOf = async (index: string) => (await api<Settings>(harness, 'GET', `/1/indexes/${index}/settings`)).json;
const search = async (index: string, body: Record<string, unknown>) => (await api<{ nbHits: number; hits: Array<Record<string, unknown>> }>(harness, 'POST', `/1/indexes/${index}/query`, body)).json;

describe('configuration screen', () => {
  it('shows the settings, with each replica’s sort order', async () => {
    await openScreen(page, 'Configuration');
    const searchable = page.getByRole('list', { name: 'Searchable attributes' });
    await expect.poll(() => searchable.getByRole('textbox').first().inputValue()).toBe('name');
    expect(await page.getByLabel('Searchable attributes 5 mode').inputValue()).toBe('unordered');
    expect(await page.getByLabel('Attributes for faceting 1 mode').inputValue()).toBe('searchable');
    await expect.poll(() => page.getByLabel('Sort products_price_desc by').inputValue()).toBe('price');
    expect(await page.getByLabel('Sort products_price_desc direction').inputValue()).toBe('desc');
    // Every setting has its one-line explanation.
    expect(await page.locator('.vt-console-field small').count()).toBeGreaterThanOrEqual(10);
  });

  it('saves ranking, facets, typos and a new sorted replica as settings tasks that change searches', async () => {
    await page.getByRole('button', { name: 'Add to custom ranking' }).click();
    await page.getByLabel('Custom ranking 3', { exact: true }).fill('price');
    await page.getByLabel('Custom ranking 3 mode').selectOption('asc');
    await page.getByRole('button', { name: 'Move price up in custom ranking' }).click();
    await page.getByRole('button', { name: 'Move price up in custom ranking' }).click();
    await page.getByRole('button', { name: 'Add to attributes for faceting' }).click();
    await page.getByLabel('Attributes for faceting 10', { exact: true }).fill('stock');
    await page.getByLabel('Attributes for faceting 10 mode').selectOption('filterOnly');
    await page.getByLabel('Typo tolerance').selectOption('false');
    await page.getByRole('button', { name: 'Add to replicas' }).click();
    await page.getByLabel('Replicas 4', { exact: true }).fill('products_by_rating');
    await page.getByLabel('Sort products_by_rating by').fill('rating');
    await page.getByLabel('Sort products_by_rating direction').selectOption('desc');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expectStatus(page, 'Settings saved and published.');

    const settings = await settingsOf('products');
    expect(settings.customRanking).toEqual(['asc(price)', 'desc(popularity)', 'desc(rating)']);
    expect(settings.attributesForFaceting).toContain('filterOnly(stock)');
    expect(settings.typoTolerance).toBe(false);
    expect(settings.replicas).toContain('products_by_rating');
    // The custom ranking orders an empty query by price; typos no longer match.
    const prices = (await search('products', { query: '', hitsPerPage: 300 })).hits.map((hit) => hit.price as number);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    const name = harness.products[0].name.split(' ').find((word) => word.length >= 5)!.toLowerCase();
    const typo = name.slice(0, 2) + name[3] + name[2] + name.slice(4);
    expect((await search('products', { query: typo })).nbHits).toBe(0);
    // The new replica exists and is sorted by rating, best first.
    expect((await settingsOf('products_by_rating')).ranking?.[0]).toBe('desc(rating)');
    const ratings = (await search('products_by_rating', { query: '', hitsPerPage: 300 })).hits.map((hit) => hit.rating as number);
    expect(ratings.length).toBe(300);
    expect(ratings).toEqual([...ratings].sort((a, b) => b - a));
  });
});

describe('synonyms screen', () => {
  it('creates a synonym that changes a search, edits and deletes it', async () => {
    await openScreen(page, 'Synonyms');
    const word = harness.products[0].name.split(' ').find((part) => part.length >= 4)!.toLowerCase();
    const expected = (await search('products', { query: word })).nbHits;
    expect(expected).toBeGreaterThan(0);
    const preview = page.getByRole('region', { name: 'Preview' });
    await preview.getByLabel('Preview query').fill('zorblax');
    await expect.poll(() => preview.getByTestId('preview-count').textContent()).toBe('0 results');

    await page.getByRole('button', { name: 'New synonym' }).click();
    const form = page.getByRole('form', { name: 'Synonym' });
    await form.getByLabel('Synonym type').selectOption('onewaysynonym');
    await form.getByLabel('Input', { exact: true }).fill('zorblax');
    await form.getByLabel(/^Synonyms/).fill(word);
    await form.getByRole('button', { name: 'Save synonym' }).click();
    await expectStatus(page, /Synonym syn-\d+ saved and published\./);
    // The made-up word now finds the products named with the real one (as a whole word: no prefix or typo on synonyms).
    await expect.poll(() => preview.getByTestId('preview-count').textContent()).not.toBe('0 results');
    const found = await search('products', { query: 'zorblax' });
    expect(found.nbHits).toBeGreaterThan(0);
    expect(await preview.getByTestId('preview-count').textContent()).toBe(`${found.nbHits.toLocaleString('en-US')} results`);
    // One-way: the word does not find the input.
    expect(await page.getByRole('table', { name: 'Synonyms' }).locator('tbody th').allTextContents()).toEqual([`zorblax → ${word}`]);

    await page.getByLabel('Search synonyms').fill('nothing-like-it');
    await expect.poll(() => page.getByRole('table', { name: 'Synonyms' }).locator('tbody tr').count()).toBe(0);
    await page.getByLabel('Search synonyms').fill('zorblax');
    await expect.poll(() => page.getByRole('table', { name: 'Synonyms' }).locator('tbody tr').count()).toBe(1);

    await page.getByRole('button', { name: /^Edit syn-/ }).click();
    await form.getByLabel('Input', { exact: true }).fill('zorblaxes');
    await form.getByRole('button', { name: 'Save synonym' }).click();
    await expectStatus(page, /Synonym syn-\d+ saved and published\./);
    await page.getByLabel('Search synonyms').fill('');
    await expect.poll(() => page.getByRole('table', { name: 'Synonyms' }).locator('tbody th').allTextContents()).toEqual([`zorblaxes → ${word}`]);

    await page.getByRole('button', { name: /^Delete syn-/ }).click();
    await expectStatus(page, /Synonym syn-\d+ deleted and published\./);
    await expect.poll(() => page.getByRole('table', { name: 'Synonyms' }).locator('tbody tr').count()).toBe(0);
    expect((await search('products', { query: 'zorblaxes' })).nbHits).toBe(0);
  });
});
