/**
 * The search box's dropdown shows products (image, name, price) beside the query suggestions and recent
 * searches, reachable with the arrow keys through `aria-activedescendant`, each named for screen readers. The
 * results, suggestions and products of a keystroke come in one request.
 */
import { describe, expect, it } from 'vitest';
import { demoIndexName } from '@vitrine/demo';
import { desktop, phone, typeQuery, useShop } from './harness.ts';

describe('products in the search box dropdown', () => {
  const shop = useShop({ history: {} });
  const input = () => shop.page.locator('.vt-header-search .ais-SearchBox-input');
  const group = (name: string) => shop.page.getByRole('listbox', { name: 'Search suggestions' }).getByRole('group', { name });

  it('lists products beside the searches, and Enter on one opens its page', async () => {
    const { page, harness } = shop;
    const word = harness.products[3].name.split(/\s+/).find((candidate) => /^[a-z]{4,}$/i.test(candidate))!.toLowerCase();
    await page.goto('/');
    await page.locator('.vt-hit').first().waitFor();
    // A recent search, so both groups have something to show.
    await typeQuery(page, word);
    await input().press('Enter');
    await input().fill('');
    await typeQuery(page, word.slice(0, 3));

    const products = group('Products').getByRole('option');
    await expect.poll(() => products.count()).toBeGreaterThan(0);
    await expect.poll(() => group('Searches').getByRole('option').count()).toBeGreaterThan(0);
    const first = products.first();
    expect(await first.locator('img').getAttribute('alt')).toBe('');
    expect(await first.locator('.vt-suggestion-price').textContent()).toMatch(/^\$[\d,]+\.\d{2}$/);
    const name = (await first.locator('.vt-suggestion-product-name').textContent())!;
    // Beside, not below, on a desktop screen.
    const searchesBox = (await group('Searches').boundingBox())!;
    const productsBox = (await group('Products').boundingBox())!;
    expect(productsBox.x).toBeGreaterThan(searchesBox.x + searchesBox.width - 1);

    // ↓ through the searches to the first product: the input points at it, and it is announced by name and price.
    const searchCount = await group('Searches').getByRole('option').count();
    for (let i = 0; i <= searchCount; i++) await input().press('ArrowDown');
    const activeId = await input().getAttribute('aria-activedescendant');
    expect(activeId).toBe(await first.getAttribute('id'));
    expect(await first.getAttribute('aria-selected')).toBe('true');
    const snapshot = await page.locator(`[id="${activeId}"]`).ariaSnapshot();
    expect(snapshot).toContain(name);
    await input().press('Enter');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(name);
  });

  it('stacks products under the searches on a phone', async () => {
    const { page, harness } = shop;
    await page.setViewportSize(phone);
    const word = harness.products[3].name.split(/\s+/).find((candidate) => /^[a-z]{4,}$/i.test(candidate))!.toLowerCase();
    await page.goto('/');
    await page.locator('.vt-hit').first().waitFor();
    await typeQuery(page, word.slice(0, 3));
    await expect.poll(() => group('Products').getByRole('option').count()).toBeGreaterThan(0);
    await expect.poll(() => group('Searches').getByRole('option').count()).toBeGreaterThan(0);
    const searchesBox = (await group('Searches').boundingBox())!;
    const productsBox = (await group('Products').boundingBox())!;
    expect(productsBox.y).toBeGreaterThanOrEqual(searchesBox.y + searchesBox.height - 1);
  });

  it('sends one request per keystroke: results, suggestions and products together', async () => {
    const { page, harness } = shop;
    await page.setViewportSize(desktop);
    const word = harness.products[5].name.split(/\s+/).find((candidate) => /^[a-z]{5,}$/i.test(candidate))!.toLowerCase();
    const typed = word.slice(0, 5);
    await page.goto('/');
    await page.locator('.vt-hit').first().waitFor();
    const bodies: Array<{ requests: Array<{ indexName: string; query?: string; hitsPerPage?: number }> }> = [];
    // Answers by the text they answer (they may arrive out of order).
    const answers = new Map<string | undefined, Promise<unknown>>();
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/1/indexes/*/queries') bodies.push(request.postDataJSON());
    });
    page.on('response', (response) => {
      if (new URL(response.url()).pathname !== '/1/indexes/*/queries') return;
      const body = response.request().postDataJSON() as (typeof bodies)[number];
      answers.set(body.requests[0].query, response.json());
    });
    // The focus asks for the dropdown of the text already there (none): one request, before any keystroke.
    await input().focus();
    await expect.poll(() => group('Searches').getByRole('option').count()).toBeGreaterThan(0);
    await expect.poll(() => bodies.length).toBe(1);
    bodies.length = 0;

    await input().pressSequentially(typed, { delay: 120 });
    await expect.poll(() => group('Products').getByRole('option').count()).toBeGreaterThan(0);
    await expect.poll(() => page.locator('.vt-hit').count()).toBeGreaterThan(0);
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe(typed);
    expect(bodies.map((body) => body.requests.find((request) => request.indexName === demoIndexName)?.query)).toEqual(
      [...typed].map((_, i) => typed.slice(0, i + 1)),
    );
    for (const { requests } of bodies) {
      const [results] = requests;
      expect(results).toMatchObject({ indexName: demoIndexName, hitsPerPage: 20 });
      expect(requests.filter((request) => request.indexName === `${demoIndexName}_query_suggestions`)).toHaveLength(1);
      expect(requests.filter((request) => request.indexName === demoIndexName && request.hitsPerPage === 4)).toHaveLength(1);
      expect(new Set(requests.map((request) => request.query))).toEqual(new Set([results.query]));
    }
    // What the dropdown shows is the last keystroke's answer.
    const answer = (await answers.get(typed)) as { results: Array<{ hits: Array<{ name: string }> }> };
    const previews = answer.results[bodies.at(-1)!.requests.findIndex((request) => request.hitsPerPage === 4)];
    await expect.poll(() => group('Products').locator('.vt-suggestion-product-name').allTextContents()).toEqual(previews.hits.map((hit) => hit.name));
  });
});
