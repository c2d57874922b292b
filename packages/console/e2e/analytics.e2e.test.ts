/**
 * The analytics dashboard at /admin/analytics against the real insights plugin and the demo's generated shop
 * history: a wrong key shows the server's refusal in an alert, the admin key shows the four charts (as
 * accessible SVG with a data table) and non-empty tables that agree with the Analytics API, and the key stays
 * in sessionStorage, out of the URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startHarness } from '../../storefront/e2e/harness.ts';
import type { Harness } from '../../storefront/e2e/harness.ts';

let harness: Harness;
let page: Page;

beforeAll(async () => {
  harness = await startHarness({ history: {} });
  page = await harness.newPage();
});

afterAll(async () => {
  await harness?.close();
});

async function analytics<T>(path: string, params: Record<string, string>): Promise<T> {
  const response = await fetch(`${harness.baseURL}${path}?${new URLSearchParams(params)}`, {
    headers: { 'x-algolia-application-id': harness.appId, 'x-algolia-api-key': harness.adminApiKey },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

const table = (title: string) => page.getByRole('region', { name: title });
const rowsOf = (title: string) => table(title).locator('tbody tr');

describe('analytics dashboard', () => {
  it('asks for the key and shows a refused key in an alert', async () => {
    await page.goto('/admin/analytics');
    await page.getByLabel('Admin API key').fill('not-the-key');
    await page.getByRole('button', { name: 'Show analytics' }).click();
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.textContent()).toContain('HTTP 403');
    expect(await alert.textContent()).toContain('Invalid Application-ID or API key');
    expect(await alert.textContent()).not.toContain('not-the-key');
    // The form is offered again; nothing was put in the address bar.
    expect(await page.getByLabel('Admin API key').isVisible()).toBe(true);
    expect(page.url()).not.toContain('not-the-key');
  });

  it('shows the charts and tables with the admin key', async () => {
    await page.getByLabel('Admin API key').fill(harness.adminApiKey);
    await page.getByRole('button', { name: 'Show analytics' }).click();
    // Signed in, the console learns what the key may do and lays out its screens: the charts settle after that.
    await page.getByRole('navigation', { name: 'Console' }).waitFor();
    await expect.poll(() => page.locator('.vt-chart-caption').allTextContents()).toEqual(['Searches per day', 'Click-through rate', 'Conversion rate', 'No-result rate']);
    expect(await page.getByRole('alert').count()).toBe(0);
    // Each chart is an image with a title and a description, and has a data table: 7 days by default.
    const searchesChart = page.locator('figure.vt-chart').first();
    const svg = searchesChart.locator('svg[role="img"]');
    expect(await svg.locator('title').first().textContent()).toBe('Searches per day');
    expect(await svg.locator('desc').textContent()).toMatch(/^Searches per day from \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}: total [\d,]+; highest/);
    expect(await svg.locator('.vt-chart-data rect').count()).toBe(7);
    expect(await searchesChart.locator('details tbody tr').count()).toBe(7);
    const ctrChart = page.locator('figure.vt-chart').nth(1);
    expect(await ctrChart.locator('.vt-chart-data path').getAttribute('d')).toMatch(/^M/);

    for (const title of ['Top searches', 'Searches without results', 'Searches without clicks', 'Top hits', 'Top filters', 'Revenue']) {
      await expect.poll(() => rowsOf(title).count(), { message: title }).toBeGreaterThan(0);
    }
    // The top search matches the Analytics API for the same period.
    const today = new Date().toISOString().slice(0, 10);
    const week = new Date(Date.now() - 6 * 86_400_000).toISOString().slice(0, 10);
    const api = await analytics<{ searches: Array<{ search: string; count: number }> }>('/2/searches', {
      index: 'products', startDate: week, endDate: today, limit: '10',
    });
    const firstRow = rowsOf('Top searches').first();
    expect(await firstRow.locator('th').textContent()).toBe(api.searches[0].search);
    expect(await firstRow.locator('td').first().textContent()).toBe(api.searches[0].count.toLocaleString('en-US'));
    // Top hits show product names, not bare objectIDs.
    const productNames = new Set(harness.products.map((product) => product.name));
    expect(productNames.has((await rowsOf('Top hits').first().locator('th').textContent())!)).toBe(true);
    // The demo history sells in the shop's currency.
    expect(await rowsOf('Revenue').first().locator('th').textContent()).toBe('USD');

    // The key is in this tab's session only.
    expect(page.url()).toBe(`${harness.baseURL}/admin/analytics`);
    expect(await page.evaluate(() => sessionStorage.getItem('vitrine.admin.apiKey'))).toBe(harness.adminApiKey);
    expect(await page.evaluate(() => JSON.stringify(localStorage))).not.toContain(harness.adminApiKey);
  });

  it('switches to 30 days and keeps the key across a reload', async () => {
    await page.getByLabel('Period').selectOption('30');
    await expect.poll(() => page.locator('figure.vt-chart').first().locator('.vt-chart-data rect').count()).toBe(30);
    await page.reload();
    await expect.poll(() => page.locator('figure.vt-chart').count()).toBe(4);
    // Reloaded with the key in the session, the dashboard is a console screen: the console's index picker and
    // Sign out serve, not a second of each.
    expect(await page.getByLabel('Index').count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Forget key' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Sign out' }).click();
    expect(await page.evaluate(() => sessionStorage.getItem('vitrine.admin.apiKey'))).toBeNull();
    expect(await page.getByLabel('Admin API key').isVisible()).toBe(true);
  });
});
