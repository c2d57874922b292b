/**
 * The console's Personalization screen against the real server: a strategy saved from its JSON (and a bad one
 * refused with the server's reason), a shopper's profile looked up after their events and a build, and deleted.
 */
import { describe, expect, it } from 'vitest';
import { demoIndexName } from '@vitrine/demo';
import { api, expectStatus, openScreen, useSignedInConsole } from './console-helpers.ts';

const session = useSignedInConsole();
const STRATEGY = { eventsScoring: [{ eventName: 'Product Clicked', eventType: 'click', score: 40 }], facetsScoring: [{ facetName: 'brand', score: 100 }], personalizationImpact: 70 };

describe('console personalization', () => {
  it('saves a strategy from its JSON, and refuses a bad one with the server\'s reason', async () => {
    const { page, harness } = session;
    await openScreen(page, 'Personalization');
    const json = page.getByLabel('Personalization strategy (JSON)');
    // No strategy yet: the screen offers one made of the storefront's events.
    await expect.poll(() => json.inputValue()).toContain('Product Added To Cart');
    await json.fill(JSON.stringify({ ...STRATEGY, facetsScoring: [{ facetName: 'material', score: 10 }] }));
    await page.getByRole('button', { name: 'Save strategy' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('"material" is not in the attributesForFaceting of any index');
    await json.fill(JSON.stringify(STRATEGY));
    await page.getByRole('button', { name: 'Save strategy' }).click();
    await expectStatus(page, 'Strategy saved');
    expect((await api(harness, 'GET', '/1/strategies/personalization')).json).toEqual(STRATEGY);
  });

  it('looks a shopper\'s profile up, and deletes it', async () => {
    const { page, harness } = session;
    const product = harness.products[0];
    const events = [{ eventType: 'click', eventName: 'Product Clicked', index: demoIndexName, userToken: 'console-shopper', objectIDs: [product.objectID] }];
    expect((await api(harness, 'POST', '/1/events', { events })).status).toBe(200);
    expect((await api(harness, 'POST', '/1/vitrine/recommend/build', {})).status).toBe(200);
    await page.getByLabel('User token').fill('console-shopper');
    await page.getByRole('button', { name: 'Look up' }).click();
    const table = page.getByRole('table', { name: 'Affinities of console-shopper' });
    await expect.poll(() => table.locator('tbody tr').first().locator('th, td').allTextContents()).toEqual(['brand', String(product.brand), '100']);
    await page.getByRole('button', { name: 'Delete profile' }).click();
    await expect.poll(() => page.getByText('No profile for this user token.').count()).toBe(1);
    expect((await api(harness, 'GET', '/1/profiles/personalization/console-shopper')).status).toBe(404);
  });
});
