/**
 * The console's Recommend rules screen against the real server: a rule written as JSON for one model is saved
 * and published, listed with what it does, applied to the recommendations the shop asks for, and deleted; a
 * rule the server refuses shows the server's reason and leaves nothing behind.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Harness } from '../../storefront/e2e/harness.ts';
import { api, expectStatus, openScreen, useSignedInConsole } from './console-helpers.ts';

let harness: Harness;
let page: Page;

const session = useSignedInConsole({ products: 60 });
beforeAll(() => {
  ({ harness, page } = session);
});

const rulePath = (objectID: string) => `/1/indexes/products/trending-items/recommend/rules/${encodeURIComponent(objectID)}`;
const firstTrending = async () => {
  const { json } = await api<{ results: Array<{ hits: Array<{ objectID: string }> }> }>(harness, 'POST', '/1/indexes/*/recommendations', {
    requests: [{ indexName: 'products', model: 'trending-items', threshold: 0, maxRecommendations: 3 }],
  }, harness.searchApiKey);
  return json.results[0].hits[0]?.objectID;
};

describe('Recommend rules screen', () => {
  it('saves a rule for a model, lists it, applies it to recommendations, and deletes it', async () => {
    const pinned = harness.products[harness.products.length - 1].objectID;
    await openScreen(page, 'Recommend rules');
    await page.getByLabel('Model').selectOption('trending-items');
    await page.getByRole('button', { name: 'New rule', exact: true }).click();
    const rule = { objectID: 'pin-last', description: 'Last product first', consequence: { promote: [{ objectID: pinned, position: 0 }] } };
    await page.getByLabel('Recommend rule JSON').fill(JSON.stringify(rule));
    await page.getByRole('button', { name: 'Save rule' }).click();
    await expectStatus(page, 'Recommend rule pin-last saved and published');

    const row = page.getByRole('table', { name: 'Recommend rules' }).getByRole('row', { name: /Last product first/ });
    await expect.poll(() => row.textContent()).toContain(`pins ${pinned}@0`);
    expect((await api<{ objectID: string }>(harness, 'GET', rulePath('pin-last'))).json).toMatchObject(rule);
    expect(await firstTrending()).toBe(pinned);

    await page.getByRole('button', { name: 'Delete pin-last' }).click();
    await expectStatus(page, 'Recommend rule pin-last deleted and published');
    expect((await api(harness, 'GET', rulePath('pin-last'))).status).toBe(404);
    await expect.poll(() => row.count()).toBe(0);
  });

  it("shows the server's reason for a rule it refuses, and keeps nothing", async () => {
    await openScreen(page, 'Recommend rules');
    await page.getByLabel('Model').selectOption('trending-items');
    await page.getByRole('button', { name: 'New rule', exact: true }).click();
    // A search rule's shape: Recommend rules have one `condition`.
    await page.getByLabel('Recommend rule JSON').fill(JSON.stringify({ objectID: 'search-style', conditions: [{ pattern: 'lamp' }], consequence: {} }));
    await page.getByRole('button', { name: 'Save rule' }).click();
    await expect.poll(() => page.getByRole('alert').allTextContents().then((all) => all.join(' '))).toMatch(/unknown attribute "conditions"/);
    expect((await api(harness, 'GET', rulePath('search-style'))).status).toBe(404);
  });
});
