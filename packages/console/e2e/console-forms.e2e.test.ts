/**
 * Rules and synonyms made the way merchants make them, without typing JSON, and seen where shoppers see them:
 * a banner rule with a pin picked in the live preview shows on the shop's search page; a synonym edited in the
 * form changes what the shop finds. The JSON view follows the form and the form follows the JSON; a rule the
 * form cannot show opens as JSON and says why.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { hitNames, typeQuery } from '../../storefront/e2e/harness.ts';
import { api, expectStatus, openScreen, useSignedInConsole } from './console-helpers.ts';

const session = useSignedInConsole();

/** Searches the shop as a shopper does (the search page, the header's box, Enter), in a page of its own. */
async function shopSearch(query: string): Promise<Page> {
  const shopper = await session.harness.newPage();
  await shopper.goto('/');
  await typeQuery(shopper, query);
  await shopper.keyboard.press('Enter');
  return shopper;
}

type Hit = { objectID: string; name: string };
const query = async (body: Record<string, unknown>) => (await api<{ nbHits: number; hits: Hit[] }>(session.harness, 'POST', '/1/indexes/products/query', body)).json;

describe('the console’s frame', () => {
  it('is the console’s own: its navigation, index picker and key, no shop header, search box or cart', async () => {
    const { page } = session;
    await page.getByRole('navigation', { name: 'Console' }).waitFor();
    expect(await page.getByRole('heading', { level: 1 }).allTextContents()).toEqual(['Merchant console']);
    expect(await page.locator('.vt-console-header select').inputValue()).toBe('products');
    expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(1);
    expect(await page.locator('.vt-header, .vt-header-search, .vt-cart-link, footer').count()).toBe(0);
  });
});

describe('rules made with the form', () => {
  it('shows a banner and a pinned result on the shop’s search page', async () => {
    const { harness, page } = session;
    // A brand with several products, so that pinning the last of them changes what comes first.
    let brand = '';
    let expected: Hit[] = [];
    for (const product of harness.products) {
      const { hits } = await query({ query: product.brand, hitsPerPage: 10 });
      if (hits.length >= 3) {
        brand = product.brand;
        expected = hits;
        break;
      }
    }
    expect(brand).not.toBe('');
    const pinned = expected[expected.length - 1];
    await openScreen(page, 'Rules');
    const preview = page.getByRole('region', { name: 'Preview' });
    await preview.getByLabel('Preview query').fill(brand);
    const pins = preview.getByRole('button', { name: /^Pin / });
    await expect.poll(() => pins.count()).toBe(expected.length);

    await page.getByRole('button', { name: 'New rule', exact: true }).click();
    const form = page.getByRole('form', { name: 'Rule' });
    // A rule started from the preview applies to the query typed there.
    expect(await form.getByLabel('Query text').inputValue()).toBe(brand);
    await form.getByLabel('Banner title').fill('Made in the console');
    await form.getByLabel('Banner text').fill('No JSON was typed');
    await form.getByLabel('Banner link').fill('/help');
    await preview.getByRole('button', { name: `Pin ${pinned.objectID}` }).click();
    expect(await form.getByRole('list', { name: 'Pinned results' }).getByRole('listitem').allTextContents()).toEqual([expect.stringContaining(pinned.objectID)]);

    // The JSON view says what the form says.
    await form.getByRole('button', { name: 'JSON', exact: true }).click();
    const json = JSON.parse(await form.getByLabel('Rule JSON').inputValue()) as { objectID: string; conditions: unknown; consequence: Record<string, unknown> };
    expect(json.conditions).toEqual([{ pattern: brand, anchoring: 'is' }]);
    expect(json.consequence).toEqual({
      promote: [{ objectID: pinned.objectID, position: 0 }],
      userData: { type: 'banner', title: 'Made in the console', text: 'No JSON was typed', link: '/help' },
    });
    await form.getByRole('button', { name: 'Form', exact: true }).click();
    await form.getByRole('button', { name: 'Save rule' }).click();
    await expectStatus(page, `Rule ${json.objectID} saved and published`);
    await expect.poll(() => page.getByTestId('applied-rules').textContent()).toBe(`Applied rules: ${json.objectID}`);

    const shopper = await shopSearch(brand);
    const banner = shopper.locator('.vt-banner');
    await expect.poll(() => banner.count()).toBe(1);
    expect(await banner.locator('.vt-banner-title').textContent()).toBe('Made in the console');
    expect(await banner.locator('.vt-banner-text').textContent()).toBe('No JSON was typed');
    expect(await banner.getByRole('link').getAttribute('href')).toBe('/help');
    await expect.poll(async () => (await hitNames(shopper))[0]).toBe(pinned.name);
    await shopper.close();
  });

  it('takes an edit made in the JSON back into the form', async () => {
    const { page } = session;
    await page.getByRole('button', { name: 'New rule', exact: true }).click();
    const form = page.getByRole('form', { name: 'Rule' });
    await form.getByRole('button', { name: 'JSON', exact: true }).click();
    const text = form.getByLabel('Rule JSON');
    const rule = JSON.parse(await text.inputValue()) as { consequence: Record<string, unknown> };
    await text.fill(JSON.stringify({ ...rule, consequence: { ...rule.consequence, params: { renderingContent: { redirect: { url: '/help' } } } } }));
    await form.getByRole('button', { name: 'Form', exact: true }).click();
    expect(await form.getByLabel('Redirect to').inputValue()).toBe('/help');
    await form.getByRole('button', { name: 'Close' }).click();
  });

  it('opens a rule the form cannot show as JSON, saying why', async () => {
    const { harness, page } = session;
    const rule = { objectID: 'two-conditions', conditions: [{ pattern: 'desk', anchoring: 'is' }, { pattern: 'table', anchoring: 'is' }], consequence: { hide: [{ objectID: harness.products[0].objectID }] } };
    const saved = await api<{ taskID: number }>(harness, 'PUT', '/1/indexes/products/rules/two-conditions', rule);
    expect(saved.status).toBe(200);
    await page.getByLabel('Search rules').fill('two-conditions');
    await page.getByRole('button', { name: 'Edit two-conditions' }).click();
    const form = page.getByRole('form', { name: 'Rule' });
    expect(JSON.parse(await form.getByLabel('Rule JSON').inputValue())).toMatchObject(rule);
    expect(await form.getByTestId('form-blocked').textContent()).toContain('it has 2 conditions (the form edits one)');
    expect(await form.getByRole('button', { name: 'Form', exact: true }).isDisabled()).toBe(true);
    await form.getByRole('button', { name: 'Close' }).click();
  });
});

describe('synonyms edited with the form', () => {
  it('changes what the shop finds', async () => {
    const { harness, page } = session;
    const word = harness.products[0].name.split(' ').find((part) => part.length >= 4)!.toLowerCase();
    expect((await query({ query: 'quuxly' })).nbHits).toBe(0);
    const created = await api(harness, 'PUT', '/1/indexes/products/synonyms/made-up', { objectID: 'made-up', type: 'onewaysynonym', input: 'zorblax', synonyms: [word] });
    expect(created.status).toBe(200);

    await openScreen(page, 'Synonyms');
    await page.getByRole('button', { name: 'Edit made-up' }).click();
    const form = page.getByRole('form', { name: 'Synonym' });
    expect(await form.getByLabel('Input', { exact: true }).inputValue()).toBe('zorblax');
    await form.getByLabel('Input', { exact: true }).fill('quuxly');
    await form.getByRole('button', { name: 'JSON', exact: true }).click();
    expect(JSON.parse(await form.getByLabel('Synonym JSON').inputValue())).toEqual({ objectID: 'made-up', type: 'onewaysynonym', input: 'quuxly', synonyms: [word] });
    await form.getByRole('button', { name: 'Form', exact: true }).click();
    await form.getByRole('button', { name: 'Save synonym' }).click();
    await expectStatus(page, 'Synonym made-up saved and published.');

    const shopper = await shopSearch('quuxly');
    // The made-up word now finds products, in the shop as through the API; the old input no longer does.
    await expect.poll(async () => (await hitNames(shopper)).length).toBeGreaterThan(0);
    expect((await query({ query: 'quuxly' })).nbHits).toBeGreaterThan(0);
    await shopper.close();
    expect((await query({ query: 'zorblax' })).nbHits).toBe(0);
  });
});
