/**
 * Timing and failure behaviour: the URL is written 400 ms after the last change (not before), the stalled
 * indicator appears only after 200 ms, an unreachable server gives the shop's own notice and retries until it
 * recovers, keeping the typed query, and an empty
 * result explains which refinement to drop. Slowness and failures are injected with Playwright's request
 * interception on the multi-query route: test control over a real server, not a mock of it.
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
  // Timestamps on the page's own clock: each input event, each history write, and the first moment the
  // search box's loading indicator is shown.
  await page.addInitScript(() => {
    const log = { inputs: [] as number[], pushes: [] as Array<{ at: number; url: string }>, stalledAt: [] as number[] };
    (window as unknown as { __log: typeof log }).__log = log;
    const push = history.pushState.bind(history);
    history.pushState = (data, unused, url) => {
      log.pushes.push({ at: performance.now(), url: String(url) });
      push(data, unused, url);
    };
    document.addEventListener('input', () => log.inputs.push(performance.now()), true);
    new MutationObserver(() => {
      const indicator = document.querySelector('.vt-header-search .ais-SearchBox-loadingIndicator');
      const shown = indicator !== null && !indicator.hasAttribute('hidden');
      if (shown && (log.stalledAt.length === 0 || log.stalledAt.length % 2 === 0)) log.stalledAt.push(performance.now());
      if (!shown && log.stalledAt.length % 2 === 1) log.stalledAt.push(performance.now());
    }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['hidden'] });
  });
});

afterAll(async () => {
  await harness?.close();
});

type Log = { inputs: number[]; pushes: Array<{ at: number; url: string }>; stalledAt: number[] };
const readLog = () => page.evaluate(() => (window as unknown as { __log: Log }).__log);

async function openSearch(path = '/') {
  await page.unrouteAll({ behavior: 'wait' });
  await openShopPage(page, path);
  await page.locator('.vt-hit').first().waitFor();
}

describe('search status and URL timing', () => {
  it('writes the URL 400 ms after the last keystroke, not before', async () => {
    await openSearch();
    // A probe 150 ms after each keystroke records what the address bar said then.
    await page.evaluate(() => {
      const probes: Array<{ at: number; href: string }> = [];
      (window as unknown as { __probes: typeof probes }).__probes = probes;
      document.addEventListener('input', () => {
        setTimeout(() => probes.push({ at: performance.now(), href: location.href }), 150);
      });
    });
    await typeQuery(page, 'kettle');
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe('kettle');
    const log = await readLog();
    const queryWrites = log.pushes.filter((entry) => entry.url.includes('q='));
    expect(queryWrites.at(-1)!.url).toContain('q=kettle');
    // Each write is scheduled by a keystroke's state change, 400 ms later at the earliest: no key in between.
    for (const write of queryWrites) {
      const lastInputBefore = log.inputs.filter((at) => at < write.at).at(-1)!;
      expect(write.at - lastInputBefore).toBeGreaterThanOrEqual(399);
    }
    // One history entry for the whole word, not one per key; only a pause of 400 ms between two keys (a loaded
    // machine's) may make one more.
    const pauses = log.inputs.slice(1).filter((at, i) => at - log.inputs[i] >= 390).length;
    expect(queryWrites.length).toBeLessThanOrEqual(1 + pauses);
    const write = queryWrites[0];
    // Every probe that ran before the first write saw an address bar without the query (a loaded machine may
    // run a timer late, past the write: such probes say nothing, but the first keystrokes' probes come well before).
    const probes = await page.evaluate(() => (window as unknown as { __probes: Array<{ at: number; href: string }> }).__probes);
    const beforeWrite = probes.filter((probe) => probe.at < write.at);
    expect(beforeWrite.length).toBeGreaterThan(0);
    for (const probe of beforeWrite) expect(probe.href).not.toContain('q=');
  });

  it('restores earlier searches with back and forward', async () => {
    await openSearch();
    const input = page.locator('.vt-header-search .ais-SearchBox-input');
    await typeQuery(page, 'kettle');
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe('kettle');
    await input.fill('');
    await typeQuery(page, 'wallet');
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe('wallet');
    await expect.poll(() => page.title()).toBe('“wallet” – Vitrine');
    // The search box still has focus, as after typing and pressing the browser's back button.
    await page.goBack();
    await expect.poll(() => input.inputValue()).toBe('kettle');
    await expect.poll(async () => (await hitNames(page)).every((name) => /kettle/i.test(name))).toBe(true);
    await page.goForward();
    await expect.poll(() => input.inputValue()).toBe('wallet');
  });

  it('shows the stalled indicator only after 200 ms, and hides it with the results', async () => {
    await openSearch();
    await page.route('**/1/indexes/*/queries*', async (route) => {
      // A slow server: answers 450 ms late (well under the client's 1 s connect timeout, so it is not retried).
      await new Promise((resolve) => setTimeout(resolve, 450));
      await route.continue();
    });
    const before = (await readLog()).stalledAt.length;
    await typeQuery(page, 'x');
    await expect.poll(async () => (await readLog()).stalledAt.length).toBeGreaterThanOrEqual(before + 1);
    const log = await readLog();
    const shownAt = log.stalledAt[before];
    expect(shownAt - log.inputs.at(-1)!).toBeGreaterThanOrEqual(199);
    await expect.poll(() => page.locator('.vt-stalled').isVisible()).toBe(true);
    await expect.poll(async () => (await readLog()).stalledAt.length).toBeGreaterThanOrEqual(before + 2);
    await expect.poll(() => page.locator('.vt-stalled').isVisible()).toBe(false);
    await page.unrouteAll({ behavior: 'wait' });
  });

  it('survives an outage: its own message, stale hits marked, the typed query kept, retries that back off, recovery', async () => {
    await openSearch();
    const input = page.locator('.vt-header-search .ais-SearchBox-input');
    await typeQuery(page, 'lamp');
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe('lamp');
    await expect.poll(async () => (await hitNames(page)).length).toBeGreaterThan(0);
    let failing = true;
    const attempts: number[] = [];
    // The server becomes unreachable: every search request fails at the network level.
    await page.route('**/1/indexes/*/queries*', (route) => {
      if (!failing) return route.continue();
      attempts.push(Date.now());
      return route.abort('connectionrefused');
    });
    await typeQuery(page, ' desk');
    const notice = page.locator('.vt-search-error');
    await expect.poll(() => page.getByRole('alert').isVisible()).toBe(true);
    const text = (await notice.textContent())!;
    expect(text).toContain('We can’t reach our product search right now.');
    expect(text).not.toMatch(/unreachable|algolia|application id|support/i);
    // The hits on screen are the older search's, and marked so.
    expect(await page.locator('.vt-results-body').getAttribute('data-stale')).toBe('true');
    expect(await page.locator('.vt-results-body').evaluate((element) => (element as HTMLElement).inert)).toBe(true);

    // "Try again now" takes the focus from the box: the box must still say what the shopper typed. Reached by
    // the keyboard: the box's dropdown, still open with its last answer, may cover the notice (as it would a
    // shopper's pointer), and leaving the box closes it.
    const beforeClick = attempts.length;
    const retry = notice.getByRole('button', { name: 'Try again now' });
    await retry.focus();
    await retry.press('Enter');
    await expect.poll(() => attempts.length).toBeGreaterThan(beforeClick);
    await expect.poll(() => notice.isVisible()).toBe(true);
    expect(await input.inputValue()).toBe('lamp desk');

    // It retries by itself, 1 s after that failure, then 2 s after the next: the pauses double. Lower bounds
    // only: a loaded machine makes every pause longer, never shorter than the timer's.
    const seen = attempts.length;
    await expect.poll(() => attempts.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(seen + 2);
    const [manual, first, second] = attempts.slice(seen - 1, seen + 2);
    expect(first - manual).toBeGreaterThanOrEqual(950);
    expect(second - first).toBeGreaterThanOrEqual(1950);
    expect(await input.inputValue()).toBe('lamp desk');

    // The server is back: the next automatic retry searches for "lamp desk", not for the older "lamp".
    failing = false;
    await expect.poll(() => notice.count(), { timeout: 20_000 }).toBe(0);
    expect(await page.locator('.vt-results-body').getAttribute('data-stale')).toBe('false');
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe('lamp desk');
    expect(await input.inputValue()).toBe('lamp desk');
    await page.unrouteAll({ behavior: 'wait' });
  });

  it('on no results, lists each refinement with the results without it', async () => {
    // A brand that sells no lamps, searched for "lamp".
    const lampBrands = new Set(harness.products.filter((product) => /lamp/i.test(product.name)).map((product) => product.brand));
    const brand = harness.products.map((product) => product.brand).find((candidate) => !lampBrands.has(candidate))!;
    await openShopPage(page, `/?q=lamp&brand=${encodeURIComponent(brand)}`);
    const noResults = page.locator('.vt-no-results');
    await expect.poll(() => noResults.getByRole('heading').textContent()).toBe('No results for “lamp”');
    const item = noResults.locator('li', { hasText: `Brand: ${brand}` });
    await expect.poll(() => item.locator('.vt-no-results-count').textContent()).toMatch(/^[1-9]\d* results? without it$/);
    await item.getByRole('button').click();
    await expect.poll(async () => (await hitNames(page)).length).toBeGreaterThan(0);
    await expect.poll(() => new URL(page.url()).searchParams.get('brand')).toBeNull();
  });
});
