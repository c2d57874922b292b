/**
 * The console's API keys, Analytics, Activity and Rules screens against the real server: a key created in the
 * console, restricted to one index, is refused on another; the dashboard lives in the console; the tasks the
 * console started show as published, next to the server's API logs holding the console's own requests (keys
 * masked); a rule made by pinning a preview result applies, then goes.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Harness } from '../../storefront/e2e/harness.ts';
import { api, expectStatus, openScreen, signIn, useSignedInConsole } from './console-helpers.ts';

let harness: Harness;
let page: Page;

const session = useSignedInConsole({ products: 60 });
beforeAll(() => {
  ({ harness, page } = session);
});

const keyRows = () => page.getByRole('table', { name: 'API keys' }).locator('tbody th').allTextContents();

describe('API keys screen', () => {
  it('creates a key restricted to one index, shown once, and refused on another index', async () => {
    await openScreen(page, 'API keys');
    await page.getByRole('button', { name: 'New key' }).click();
    const form = page.getByRole('form', { name: 'New key' });
    await form.getByLabel('Description').fill('products only');
    await form.getByLabel('browse', { exact: true }).check();
    await form.getByLabel('Indices').fill('products');
    await form.getByLabel('Max hits per query').fill('5');
    await form.getByLabel('Validity (seconds)').fill('3600');
    await form.getByRole('button', { name: 'Create key' }).click();
    await expectStatus(page, 'Key created. Copy its value now: it is not shown again.');
    const value = (await page.getByTestId('new-key').textContent())!.trim();
    expect(value).toMatch(/^[0-9a-f]{32,}$/);
    await expect.poll(keyRows).toContain('products only');

    const allowed = await api<{ hits: unknown[] }>(harness, 'POST', '/1/indexes/products/query', { query: '' }, value);
    expect(allowed.status).toBe(200);
    expect(allowed.json.hits).toHaveLength(5);
    const refused = await api<{ message: string }>(harness, 'POST', '/1/indexes/products_price_asc/query', { query: '' }, value);
    expect(refused.status).toBe(403);

    // Signed in with it, the console offers its screens and explains the refusal on another index.
    const other = await harness.newPage();
    await signIn(other, value, '/admin/records?index=products');
    await expect.poll(() => other.getByRole('table', { name: 'Records' }).locator('tbody tr').count()).toBe(5);
    await other.goto('/admin/records?index=products_price_asc');
    await other.getByRole('navigation', { name: 'Console' }).waitFor();
    await expect.poll(() => other.getByRole('alert').first().textContent()).toContain('may not search this index');

    await page.getByRole('button', { name: 'I have copied it' }).click();
    expect(await page.getByTestId('new-key').count()).toBe(0);
  });

  it('edits, deletes and restores a key', async () => {
    await page.getByRole('button', { name: 'Edit products only' }).click();
    const form = page.getByRole('form', { name: 'Edit key' });
    expect(await form.getByLabel('Indices').inputValue()).toBe('products');
    await form.getByLabel('Description').fill('products, renamed');
    await form.getByLabel('Query parameters').fill('filters=price > 10');
    await form.getByRole('button', { name: 'Save key' }).click();
    await expectStatus(page, 'Key saved.');
    await expect.poll(keyRows).toContain('products, renamed');
    const { json } = await api<{ keys: Array<{ description: string; queryParameters: string; indexes: string[] }> }>(harness, 'GET', '/1/keys');
    expect(json.keys.find((key) => key.description === 'products, renamed')).toMatchObject({ queryParameters: 'filters=price > 10', indexes: ['products'] });

    await page.getByRole('button', { name: 'Delete products, renamed' }).click();
    await expectStatus(page, 'Key “products, renamed” deleted; it can be restored below.');
    await expect.poll(keyRows).not.toContain('products, renamed');
    await page.getByRole('button', { name: 'Restore products, renamed' }).click();
    await expectStatus(page, 'Key “products, renamed” restored.');
    await expect.poll(keyRows).toContain('products, renamed');
  });
});

describe('analytics, activity and rules screens', () => {
  it('shows the analytics dashboard inside the console, and at /admin/analytics', async () => {
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Analytics', exact: true }).click();
    await expect.poll(() => page.locator('figure.vt-chart').count()).toBe(4);
    expect(await page.getByRole('navigation', { name: 'Console' }).count()).toBe(1);
    expect(new URL(page.url()).pathname).toBe('/admin/analytics');
  });

  it('lists the tasks this console started as published, and the API logs with the request that saved it', async () => {
    const { objectID, name } = harness.products[0];
    await page.goto('/admin/records?index=products');
    // Found by name: the first page of the index need not hold it.
    await page.getByLabel('Search records').fill(name);
    await page.getByRole('button', { name: objectID, exact: true }).click();
    await expect.poll(() => page.getByLabel('Record JSON').inputValue()).toContain(objectID);
    await page.getByRole('button', { name: 'Save record' }).click();
    await expectStatus(page, 'saved and published');
    await openScreen(page, 'Activity');
    const rows = page.getByRole('table', { name: 'Recent tasks' }).locator('tbody tr');
    await expect.poll(() => rows.first().textContent()).toContain(`Save record ${objectID}`);
    expect(await rows.first().locator('td').last().textContent()).toBe('Published');

    // The server's logs (GET /1/logs) hold the console's own write, as the server answered it.
    const logs = page.getByRole('table', { name: 'API logs' });
    const requests = () => logs.locator('tbody th').allTextContents();
    await expect.poll(requests).toContain(`PUT /1/indexes/products/${encodeURIComponent(objectID)}`);
    const saved = logs.locator('tbody tr').filter({ hasText: `PUT /1/indexes/products/${encodeURIComponent(objectID)}` }).first();
    expect(await saved.locator('td').nth(1).textContent()).toBe('products');
    expect(await saved.locator('td').nth(2).textContent()).toBe('200');
    // A later request appears after "Refresh", newest first.
    await api(harness, 'POST', '/1/indexes/products/query', { query: 'activity-check' });
    await page.getByRole('button', { name: 'Refresh', exact: true }).click();
    await expect.poll(async () => (await requests())[0]).toBe('POST /1/indexes/products/query');
    expect(await page.locator('body').textContent()).not.toContain(harness.adminApiKey);
  });

  it('creates a rule from the preview by pinning a result, sees it applied, and deletes it', async () => {
    // A query with several results, so that pinning the last one changes the order.
    let query = '';
    let expected: string[] = [];
    for (const product of harness.products) {
      const { json } = await api<{ hits: Array<{ objectID: string }> }>(harness, 'POST', '/1/indexes/products/query', { query: product.brand, hitsPerPage: 10 });
      if (json.hits.length >= 3) {
        query = product.brand;
        expected = json.hits.map((hit) => hit.objectID);
        break;
      }
    }
    expect(query).not.toBe('');
    await openScreen(page, 'Rules');
    const preview = page.getByRole('region', { name: 'Preview' });
    await preview.getByLabel('Preview query').fill(query);
    const pins = preview.getByRole('button', { name: /^Pin / });
    // The preview shows this query's results (not an earlier answer) before one is picked.
    const shown = async () => (await pins.evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label')))).map((label) => (label ?? '').replace(/^Pin /, ''));
    await expect.poll(shown).toEqual(expected);
    const last = expected[expected.length - 1];

    await page.getByRole('button', { name: 'New rule', exact: true }).click();
    await pins.last().click();
    // The form took the pin; its JSON (the advanced mode) says the same.
    await page.getByRole('button', { name: 'JSON', exact: true }).click();
    const draft = JSON.parse(await page.getByLabel('Rule JSON').inputValue()) as { objectID: string; consequence: { promote: Array<{ objectID: string; position: number }> } };
    expect(draft.consequence.promote).toEqual([{ objectID: last, position: 0 }]);
    await page.getByRole('button', { name: 'Save rule' }).click();
    await expectStatus(page, `Rule ${draft.objectID} saved and published`);

    await expect.poll(() => page.getByTestId('applied-rules').textContent()).toBe(`Applied rules: ${draft.objectID}`);
    await expect.poll(() => pins.first().getAttribute('aria-label')).toBe(`Pin ${last}`);
    const stored = await api<{ objectID: string }>(harness, 'GET', `/1/indexes/products/rules/${encodeURIComponent(draft.objectID)}`);
    expect(stored.status).toBe(200);

    await page.getByRole('button', { name: `Delete ${draft.objectID}` }).click();
    await expectStatus(page, `Rule ${draft.objectID} deleted and published`);
    expect((await api(harness, 'GET', `/1/indexes/products/rules/${encodeURIComponent(draft.objectID)}`)).status).toBe(404);
    await expect.poll(() => page.getByTestId('applied-rules').textContent()).toBe('Applied rules: none');
  });
});
