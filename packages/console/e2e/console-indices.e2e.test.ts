/**
 * The merchant console's sign-in and its Indices and Records screens, against the real server: a wrong key is
 * refused, the admin key sees every screen, a restricted key only its own, and each action reaches the server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startHarness } from '../../storefront/e2e/harness.ts';
import type { Harness } from '../../storefront/e2e/harness.ts';
import { api, expectStatus, openScreen, signIn } from './console-helpers.ts';

let harness: Harness;
let page: Page;

beforeAll(async () => {
  harness = await startHarness();
  page = await harness.newPage();
});

afterAll(async () => {
  await harness?.close();
});

const indexRow = (name: string) => page.locator(`tr[data-index="${name}"]`);

describe('console sign-in', () => {
  it('refuses a wrong key with the server’s reason, and keeps it out of the URL', async () => {
    await page.goto('/admin');
    await page.getByLabel('Admin API key').fill('not-a-key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Invalid Application-ID or API key');
    expect(page.url()).not.toContain('not-a-key');
  });

  it('signs in with the admin key, shows every screen, and signs out', async () => {
    const urls: string[] = [];
    const onRequest = (request: { url(): string }) => void urls.push(request.url());
    page.on('request', onRequest);
    await signIn(page, harness.adminApiKey);
    page.off('request', onRequest);
    // The admin key goes in headers only, never in an address a proxy's access log would keep.
    expect(urls.length).toBeGreaterThan(0);
    expect(urls.filter((url) => url.includes(harness.adminApiKey))).toEqual([]);
    const links = await page.getByRole('navigation', { name: 'Console' }).getByRole('link').allTextContents();
    expect(links).toEqual(['Indices', 'Records', 'Import', 'Configuration', 'Embedders', 'Synonyms', 'Rules', 'Recommend rules', 'API keys', 'Personalization', 'Learning', 'Analytics', 'A/B tests', 'Activity']);
    expect(await page.evaluate(() => sessionStorage.getItem('vitrine.admin.apiKey'))).toBe(harness.adminApiKey);
    expect(await page.evaluate(() => JSON.stringify(localStorage))).not.toContain(harness.adminApiKey);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Admin API key').waitFor();
    expect(await page.evaluate(() => sessionStorage.getItem('vitrine.admin.apiKey'))).toBeNull();
  });

  it('shows a restricted key only what it may do, and names the missing ACL', async () => {
    const { json } = await api<{ key: string }>(harness, 'POST', '/1/keys', { acl: ['search'], description: 'search only' });
    const other = await harness.newPage();
    await signIn(other, json.key);
    const links = await other.getByRole('navigation', { name: 'Console' }).getByRole('link').allTextContents();
    expect(links).toEqual(['Records', 'Learning', 'Activity']);
    await other.goto('/admin/keys');
    await expect.poll(() => other.getByRole('alert').textContent()).toContain('needs the admin API key');
    await other.goto('/admin/indices');
    await expect.poll(() => other.getByRole('alert').textContent()).toContain('"listIndexes" permission');
    // Records are readable but offer no editing.
    await other.goto('/admin/records');
    await expect.poll(() => other.getByRole('table', { name: 'Records' }).locator('tbody tr').count()).toBeGreaterThan(0);
    expect(await other.getByRole('button', { name: 'Add record' }).count()).toBe(0);
  });
});

describe('indices screen', () => {
  it('lists indices with record counts and replicas', async () => {
    await signIn(page, harness.adminApiKey);
    await expect.poll(() => indexRow('products').locator('td').first().textContent()).toBe('300');
    expect(await indexRow('products').locator('td').nth(3).textContent()).toContain('products_price_asc');
    expect(await indexRow('products_price_asc').locator('th').textContent()).toContain('replica of products');
    // A replica's records are its primary's: it offers no Clear (the server would refuse it).
    expect(await indexRow('products').getByRole('button', { name: 'Clear' }).count()).toBe(1);
    expect(await indexRow('products_price_asc').getByRole('button', { name: 'Clear' }).count()).toBe(0);
  });

  it('creates, copies, clears and deletes an index, deletion confirmed by typing its name', async () => {
    await page.getByLabel('New index name').fill('scratch');
    await page.getByRole('button', { name: 'Create index' }).click();
    await expectStatus(page, 'Index scratch created.');
    await indexRow('scratch').waitFor();

    await page.getByLabel('Copy destination').fill('products_copy');
    await indexRow('products').getByRole('button', { name: 'Copy' }).click();
    await page.getByLabel('Type products to confirm').fill('products');
    await page.locator('.vt-console-confirm').getByRole('button', { name: /^Copy it/ }).click();
    await expectStatus(page, 'Copied products to products_copy.');
    await expect.poll(() => indexRow('products_copy').locator('td').first().textContent()).toBe('300');

    await indexRow('products_copy').getByRole('button', { name: 'Clear' }).click();
    await page.getByLabel('Type products_copy to confirm').fill('products_copy');
    await page.locator('.vt-console-confirm').getByRole('button', { name: 'Clear it' }).click();
    await expectStatus(page, 'All records of products_copy deleted.');
    expect((await api<{ nbHits: number }>(harness, 'POST', '/1/indexes/products_copy/query', { query: '' })).json.nbHits).toBe(0);

    await indexRow('products_copy').getByRole('button', { name: 'Delete' }).click();
    const confirm = page.locator('.vt-console-confirm').getByRole('button', { name: 'Delete it' });
    await page.getByLabel('Type products_copy to confirm').fill('products_cop');
    expect(await confirm.isDisabled()).toBe(true);
    await page.getByLabel('Type products_copy to confirm').fill('products_copy');
    await confirm.click();
    await expectStatus(page, 'Index products_copy deleted.');
    await expect.poll(() => indexRow('products_copy').count()).toBe(0);
    expect((await api(harness, 'GET', '/1/indexes/products_copy/settings')).status).toBe(404);
  });
});

describe('records screen', () => {
  it('searches with the index’s own facets', async () => {
    await openScreen(page, 'Records');
    const count = page.locator('.vt-console-inline [role="status"]');
    await expect.poll(() => count.textContent()).toBe('300 records');
    const facets = page.getByRole('complementary', { name: 'Facets' });
    // The facets come from the index's settings, read after the first search answer: wait for them.
    await expect.poll(() => facets.getByRole('heading', { name: 'brand' }).count()).toBe(1);
    const brand = harness.products[0].brand;
    await facets.getByRole('checkbox', { name: new RegExp(`^${brand} `) }).first().check();
    const expected = harness.products.filter((product) => product.brand === brand).length;
    await expect.poll(() => count.textContent()).toBe(`${expected} records`);
    await facets.getByRole('checkbox', { name: new RegExp(`^${brand} `) }).first().uncheck();
    await page.getByLabel('Search records').fill(harness.products[5].name);
    await expect.poll(() => page.getByRole('table', { name: 'Records' }).locator('tbody td').allTextContents()).toContain(harness.products[5].name);
  });

  it('edits a record as JSON, refuses invalid JSON, and says when the edit is published', async () => {
    const product = harness.products[5];
    await page.getByRole('button', { name: product.objectID, exact: true }).click();
    const editor = page.getByLabel('Record JSON');
    await expect.poll(() => editor.inputValue()).toContain(`"objectID": "${product.objectID}"`);
    await editor.fill('{"name": ');
    await page.getByRole('button', { name: 'Save record' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Not valid JSON');
    await editor.fill(JSON.stringify({ ...product, name: 'Renamed by the console' }));
    await page.getByRole('button', { name: 'Save record' }).click();
    await expectStatus(page, `Record ${product.objectID} saved and published.`);
    const { json } = await api<{ name: string }>(harness, 'GET', `/1/indexes/products/${product.objectID}`);
    expect(json.name).toBe('Renamed by the console');
  });

  it('adds a record and deletes it', async () => {
    await page.getByRole('button', { name: 'Add record' }).click();
    await page.getByLabel('Record JSON').fill('{"objectID": "console-new", "name": "<b>Added</b> here"}');
    await page.getByRole('button', { name: 'Save record' }).click();
    await expectStatus(page, 'Record console-new saved and published.');
    expect((await api<{ name: string }>(harness, 'GET', '/1/indexes/products/console-new')).json.name).toBe('<b>Added</b> here');
    await page.getByLabel('Search records').fill('Added here');
    await page.getByRole('button', { name: 'console-new', exact: true }).click();
    await page.getByRole('button', { name: 'Delete record' }).click();
    await expectStatus(page, 'Record console-new deleted and published.');
    expect((await api(harness, 'GET', '/1/indexes/products/console-new')).status).toBe(404);
  });
});
