/**
 * The search page against the real server: query and highlighting, facets (refine, show more, facet search),
 * pagination, price range, categories with breadcrumb and readable paths, the infinite view, the
 * keystroke-to-results time, and the pictures of results found while typing (shown at the pause).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { hitNames, openShopPage, startHarness, typeQuery } from './harness.ts';
import type { Harness } from './harness.ts';

let harness: Harness;
let page: Page;

beforeAll(async () => {
  harness = await startHarness();
  page = await harness.newPage();
});

afterAll(async () => {
  await harness?.close();
});

function panel(title: string) {
  return page.locator('section.vt-panel', { has: page.getByRole('heading', { name: title, exact: true }) });
}

async function openSearch(path = '/') {
  await openShopPage(page, path);
  await page.locator('.vt-hit').first().waitFor();
}

describe('search page', () => {
  it('shows hits matching the query, with the match highlighted', async () => {
    await openSearch();
    const input = page.locator('.vt-header-search .ais-SearchBox-input');
    expect(await input.getAttribute('maxlength')).toBe('512');
    expect(await page.locator('.vt-header-search .ais-SearchBox-submit').getAttribute('title')).toBe('Submit the search query');
    expect(await page.locator('.vt-header-search .ais-SearchBox-reset').getAttribute('title')).toBe('Clear the search query');
    await typeQuery(page, 'floor lamp');
    await expect.poll(() => hitNames(page)).not.toEqual([]);
    await expect.poll(async () => (await hitNames(page)).every((name) => /lamp/i.test(name))).toBe(true);
    // Names for "floor lam" match /lamp/ too: wait for the highlights of the whole query.
    const marked = async () => (await page.locator('.vt-hit-name mark').allTextContents()).map((text) => text.toLowerCase());
    await expect.poll(marked).toContain('lamp');
    await expect.poll(() => page.locator('.ais-Stats-text').textContent()).toMatch(/^[\d,]+ results?$/);
  });

  it('measures keystroke-to-results time from performance marks', async () => {
    await openSearch();
    // The last keystroke of the query and the first results for that query, both on the page's clock.
    await page.evaluate(() => {
      // Room for every request of the test (the default buffer of 250 entries fills up with product images).
      performance.setResourceTimingBufferSize(10_000);
      const input = document.querySelector<HTMLInputElement>('.vt-header-search .ais-SearchBox-input')!;
      input.addEventListener('input', () => performance.mark('test:keystroke', { detail: input.value }));
    });
    await typeQuery(page, 'wallet');
    const measure = () =>
      page.evaluate(() => {
        const keystroke = performance.getEntriesByName('test:keystroke').at(-1) as PerformanceMark | undefined;
        const results = (performance.getEntriesByName('vitrine:results') as PerformanceMark[]).find(
          (mark) => keystroke && mark.startTime > keystroke.startTime && (mark.detail as { query?: string } | null)?.query === 'wallet',
        );
        if (!keystroke || !results) return null;
        // The search request for the full query, to tell network + server time from the rest.
        const request = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
          .filter((entry) => entry.name.includes('/queries') && entry.startTime > keystroke.startTime)
          .at(-1);
        return {
          total: results.startTime - keystroke.startTime,
          beforeRequest: request ? request.startTime - keystroke.startTime : NaN,
          request: request ? request.responseEnd - request.startTime : NaN,
          afterResponse: request ? results.startTime - request.responseEnd : NaN,
        };
      });
    await expect.poll(measure).not.toBeNull();
    const measured = (await measure())!;
    console.log(
      `keystroke-to-results: ${measured.total.toFixed(1)} ms from the last key of "wallet" to rendered results ` +
        `(keystroke to request ${measured.beforeRequest.toFixed(1)} ms, request ${measured.request.toFixed(1)} ms, ` +
        `response to rendered ${measured.afterResponse.toFixed(1)} ms)`,
    );
    expect(measured.total).toBeGreaterThan(0);
    expect(measured.total).toBeLessThan(2000);
  });

  it('shows the pictures of results found while typing once typing pauses, in boxes of the same size', async () => {
    await openSearch();
    await typeQuery(page, 'desk lamp');
    await expect.poll(async () => (await hitNames(page)).every((name) => /lamp/i.test(name))).toBe(true);
    const pictures = page.locator('.vt-hit-image');
    const before = (await pictures.first().boundingBox())!;
    // Every result's picture, with no further key: the pause shows them all.
    await expect.poll(async () => (await pictures.evaluateAll((images) => images.every((image) => image.getAttribute('src')?.startsWith('/images/'))))).toBe(true);
    const after = (await pictures.first().boundingBox())!;
    expect([after.x, after.y, after.width, after.height]).toEqual([before.x, before.y, before.width, before.height]);
    expect(after.width).toBeGreaterThan(100);
  });

  it('refines by brand and writes the brand to the URL', async () => {
    await openSearch();
    const firstBrand = panel('Brand').locator('.ais-RefinementList-item').first();
    const brand = (await firstBrand.locator('.ais-RefinementList-labelText').textContent())!;
    await firstBrand.locator('input[type=checkbox]').check();
    await expect.poll(async () => [...new Set(await page.locator('.vt-hit-brand').allTextContents())]).toEqual([brand]);
    await expect.poll(() => new URL(page.url()).searchParams.get('brand')).toBe(brand);
    await expect.poll(() => page.locator('.ais-CurrentRefinements-categoryLabel').allTextContents()).toContain(brand);
  });

  it('shows 10 brands, 20 after "Show more", 10 again after "Show less"', async () => {
    await openSearch();
    const items = panel('Brand').locator('.ais-RefinementList-item');
    await expect.poll(() => items.count()).toBe(10);
    await panel('Brand').getByRole('button', { name: 'Show more' }).click();
    await expect.poll(() => items.count()).toBe(20);
    await panel('Brand').getByRole('button', { name: 'Show less' }).click();
    await expect.poll(() => items.count()).toBe(10);
  });

  it('searches brand values and says "No results." when none match', async () => {
    await openSearch();
    const brands = panel('Brand');
    const someBrand = (await brands.locator('.ais-RefinementList-labelText').nth(3).textContent())!;
    await brands.locator('.ais-SearchBox-input').fill(someBrand.slice(0, 4));
    await expect.poll(() => brands.locator('.ais-RefinementList-labelText').allTextContents()).toContain(someBrand);
    await brands.locator('.ais-SearchBox-input').fill('zzqx');
    await expect.poll(() => brands.locator('.ais-RefinementList-noResults').textContent()).toBe('No results.');
  });

  it('paginates with the default labels and writes the page to the URL', async () => {
    await openSearch();
    const pagination = page.locator('.ais-Pagination');
    // The shop shows one variant per model (`distinct`): as many pages of 20 as the server counts models.
    const answer = await fetch(`${harness.baseURL}/1/indexes/products/query`, {
      method: 'POST',
      headers: { 'x-algolia-application-id': harness.appId, 'x-algolia-api-key': harness.searchApiKey },
      body: JSON.stringify({ query: '', distinct: true, hitsPerPage: 20 }),
    });
    const { nbPages } = (await answer.json()) as { nbPages: number };
    expect(nbPages).toBeGreaterThanOrEqual(5);
    for (const label of ['First Page', 'Previous Page', 'Next Page', `Last Page, Page ${nbPages}`, 'Page 1', 'Page 4']) {
      await expect.poll(() => pagination.locator(`[aria-label="${label}"]`).count(), { message: label }).toBe(1);
    }
    // Padding 3 around page 1: pages 1 to 4 and up to three more are listed.
    expect(await pagination.locator('.ais-Pagination-item--page').count()).toBe(Math.min(7, nbPages));
    const firstNames = await hitNames(page);
    await pagination.locator('[aria-label="Next Page"]').click();
    await expect.poll(() => new URL(page.url()).searchParams.get('page')).toBe('2');
    await expect.poll(() => page.locator('.ais-Pagination-item--selected').textContent()).toBe('2');
    expect(await hitNames(page)).not.toEqual(firstNames);
  });

  it('filters by price with the range input (step 0.01, "to", "Go")', async () => {
    await openSearch();
    const range = panel('Price');
    await expect.poll(() => range.locator('.ais-RangeInput-input--min').getAttribute('step')).toBe('0.01');
    expect(await range.locator('.ais-RangeInput-separator').textContent()).toBe('to');
    await range.locator('.ais-RangeInput-input--min').fill('100');
    await range.locator('.ais-RangeInput-input--max').fill('300');
    await range.getByRole('button', { name: 'Go' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('price')).toBe('100:300');
    // The URL and the hits are updated by different events: wait for hits, all of them in the range.
    const pricesOutOfRange = async () => {
      const prices = (await page.locator('.vt-price').allTextContents()).map((price) => Number(price.replace(/[^0-9.]/g, '')));
      return prices.length === 0 ? ['no hits'] : prices.filter((value) => value < 100 || value > 300);
    };
    await expect.poll(pricesOutOfRange).toEqual([]);
  });

  it('browses categories with a breadcrumb, a readable path that survives a reload, and the title', async () => {
    await openSearch();
    const menu = panel('Category');
    await menu.getByRole('link', { name: /^Home & Kitchen/ }).click();
    await menu.getByRole('link', { name: /^Lighting/ }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/c/home-kitchen/lighting');
    await expect.poll(() => page.locator('.ais-Breadcrumb-item').allTextContents()).toEqual(['Home', '>Home & Kitchen', '>Lighting']);
    await expect.poll(() => page.title()).toBe('Lighting – Vitrine');
    const names = await hitNames(page);
    await page.reload();
    await expect.poll(() => page.locator('.ais-Breadcrumb-item--selected').textContent()).toContain('Lighting');
    await expect.poll(() => hitNames(page)).toEqual(names);
    await page.locator('.ais-Breadcrumb-link', { hasText: 'Home' }).first().click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/');
    // Back restores the category.
    await page.goBack();
    await expect.poll(() => page.locator('.ais-Breadcrumb-item--selected').textContent()).toContain('Lighting');
  });

  it('sorts by price through the replicas, and by relevant sort with its own stats text', async () => {
    await openSearch('/?q=set');
    const sort = page.locator('.ais-SortBy-select');
    await sort.selectOption({ label: 'Price: low to high' });
    await expect.poll(() => new URL(page.url()).searchParams.get('sort')).toBe('price_asc');
    const prices = async () => (await page.locator('.vt-price').allTextContents()).map((text) => Number(text.replace(/[^0-9.]/g, '')));
    await expect.poll(async () => {
      const values = await prices();
      return values.length > 1 && values.every((value, index) => index === 0 || values[index - 1] <= value);
    }).toBe(true);
    await sort.selectOption({ label: 'Price: high to low' });
    await expect.poll(async () => {
      const values = await prices();
      return values.length > 1 && values.every((value, index) => index === 0 || values[index - 1] >= value);
    }).toBe(true);
    await sort.selectOption({ label: 'Best matches, lowest price first' });
    await expect.poll(() => new URL(page.url()).searchParams.get('sort')).toBe('relevant_price_asc');
    await expect.poll(() => page.locator('.ais-Stats-text').textContent()).toMatch(/^[\d,]+ best match(es)? of [\d,]+ results?$|^[\d,]+ results?$/);
    expect(await sort.locator('option').allTextContents()).not.toContainEqual(expect.stringMatching(/\(relevant\)/i));
  });

  it('changes the page size and filters by rating and free shipping', async () => {
    await openSearch();
    await page.locator('.ais-HitsPerPage-select').selectOption({ label: '40 per page' });
    await expect.poll(() => page.locator('.vt-hit').count()).toBe(40);
    await expect.poll(() => new URL(page.url()).searchParams.get('per_page')).toBe('40');
    await panel('Rating').getByRole('button', { name: /4 & up/ }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('rating')).toBe('4');
    const ratings = async () =>
      (await page.locator('.vt-hit .vt-stars').evaluateAll((stars) => stars.map((star) => star.getAttribute('aria-label') ?? ''))).map((label) =>
        Number(/Rated (\d)/.exec(label)?.[1]),
      );
    await expect.poll(async () => (await ratings()).every((rating) => rating >= 4)).toBe(true);
    // By keyboard (the sticky header can cover the bottom of the sidebar for a pointer click).
    await panel('Shipping').getByRole('checkbox').focus();
    await page.keyboard.press('Space');
    await expect.poll(() => new URL(page.url()).searchParams.get('free_shipping')).toBe('true');
    await expect.poll(async () => {
      const hits = await page.locator('.vt-hit').count();
      return hits > 0 && (await page.locator('.vt-hit .vt-badge').count()) === hits;
    }).toBe(true);
    await page.getByRole('button', { name: 'Clear refinements' }).first().click();
    await expect.poll(() => new URL(page.url()).searchParams.get('rating')).toBeNull();
    expect(new URL(page.url()).searchParams.get('per_page')).toBe('40');
  });

  it('opens the infinite view from the URL, with "Show more results" and "Show previous results"', async () => {
    await openSearch('/?view=infinite');
    await expect.poll(() => page.locator('.ais-InfiniteHits-item').count()).toBe(20);
    await page.getByRole('button', { name: 'Show more results' }).click();
    await expect.poll(() => page.locator('.ais-InfiniteHits-item').count()).toBe(40);
    await openSearch('/?view=infinite&page=3');
    await expect.poll(() => page.getByRole('button', { name: 'Show previous results' }).isVisible()).toBe(true);
    expect(await page.locator('.ais-Pagination').count()).toBe(0);
  });
});
