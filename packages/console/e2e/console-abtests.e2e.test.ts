/**
 * The console's A/B tests screen against the real server: a test started from the form (one index, variant B
 * with search parameters; a bad form refused with what to fix), shoppers' searches and clicks seen in its
 * figures, then stopped and deleted.
 */
import { describe, expect, it } from 'vitest';
import { demoIndexName } from '@vitrine/demo';
import { api, expectStatus, openScreen, useSignedInConsole } from './console-helpers.ts';

const session = useSignedInConsole();

interface Answer { queryID: string; abTestVariantID?: number; hits: Array<{ objectID: string }> }

describe('console A/B tests', () => {
  it('starts a test from the form, shows its figures, stops and deletes it', async () => {
    const { page, harness } = session;
    await openScreen(page, 'A/B tests');
    await expect.poll(() => page.getByText('No A/B test yet.').count()).toBe(1);

    await page.getByRole('button', { name: 'New A/B test' }).click();
    const form = page.getByRole('form', { name: 'New A/B test' });
    await form.getByLabel('Name').fill('Cheap only');
    await form.getByLabel('Variant B is').selectOption('params');
    await form.getByLabel('Variant B: search parameters').fill('{"filters": "price < 50"}');
    await form.getByLabel('Traffic to variant A (%)').fill('100');
    await form.getByRole('button', { name: 'Start the test' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('whole percentage from 1 to 99');
    await form.getByLabel('Traffic to variant A (%)').fill('50');
    await form.getByRole('button', { name: 'Start the test' }).click();
    await expectStatus(page, 'Test “Cheap only” started.');
    const { json: listed } = await api<{ abtests: Array<{ abTestID: number; variants: Array<Record<string, unknown>> }> }>(harness, 'GET', '/2/abtests');
    expect(listed.abtests[0].variants[1]).toMatchObject({ index: demoIndexName, customSearchParameters: { filters: 'price < 50' } });

    // Shoppers search (tracked) and the first of each clicks its first hit.
    const events = [];
    for (let i = 0; i < 8; i++) {
      const { json } = await api<Answer>(harness, 'POST', `/1/indexes/${demoIndexName}/query`, { query: '', clickAnalytics: true, userToken: `ab-${i}` }, harness.searchApiKey);
      events.push({ eventType: 'click', eventName: 'Product Clicked', index: demoIndexName, userToken: `ab-${i}`, queryID: json.queryID, objectIDs: [json.hits[0].objectID], positions: [1] });
    }
    expect((await api(harness, 'POST', '/1/events', { events })).status).toBe(200);

    await page.getByRole('button', { name: 'Refresh figures' }).click();
    await page.getByRole('button', { name: 'Show Cheap only' }).click();
    const variants = page.getByRole('table', { name: 'Variants of Cheap only' });
    // Searches (column 4) and clicks (column 7) of both variants add up to the 8 searches and clicks.
    const total = async (column: number) => (await variants.locator(`tbody tr td:nth-child(${column})`).allTextContents()).reduce((sum, text) => sum + Number(text), 0);
    await expect.poll(() => total(4)).toBe(8);
    await expect.poll(() => total(7)).toBe(8);
    await expect.poll(() => page.getByText(/Clicks: Not enough data yet/).count()).toBe(1);
    await expect.poll(() => page.getByRole('img', { name: /Rates by variant/ }).count()).toBe(1);

    await page.getByRole('button', { name: 'Stop Cheap only' }).click();
    await expectStatus(page, 'Test “Cheap only” stopped');
    expect((await api<{ status: string }>(harness, 'GET', `/2/abtests/${listed.abtests[0].abTestID}`)).json.status).toBe('stopped');
    await page.getByRole('button', { name: 'Delete Cheap only' }).click();
    await page.getByLabel('Type Cheap only to confirm').fill('Cheap only');
    await page.getByRole('button', { name: 'Delete this test and its figures' }).click();
    await expectStatus(page, 'Test “Cheap only” deleted.');
    expect((await api(harness, 'GET', `/2/abtests/${listed.abtests[0].abTestID}`)).status).toBe(404);
  });
});
