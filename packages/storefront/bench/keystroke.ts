/**
 * `npm run bench:keystroke`: what a shopper typing feels, in the product as users run it. Starts the compiled
 * `vitrine start` on a temporary data folder with `VITRINE_DEMO_SIZE` demo products (default 10,000; building
 * first when the build is missing or older than the sources), then types 20 fixed queries into the home page's
 * search box in headless Chromium (`CHROME_PATH`, default /usr/bin/chromium), one key every 120 ms, clearing
 * the box between queries. Two pages, each opened once: the page as shipped and `/?dropdown=off` (the search box
 * without its dropdown: the baseline); each query is typed into both, in alternating order, so both see the
 * same machine.
 *
 * Prints, for each: requests to `/1/indexes/*\/queries` per keystroke (the focus's own request for the dropdown
 * is not a keystroke's; the no-results page's follow-up after an empty answer is counted apart); the time from
 * a key's `keydown` to the `vitrine:results` mark of the results for the text it made (`SearchStatus`: set once
 * they are rendered), p50/p95, keystrokes whose results were never shown (a newer keystroke's came first)
 * counted apart; where the median keystroke's time goes (keydown → its request sent, the request, the answer →
 * results rendered), and the slowest twentieth's; and, with the dropdown, keydown to its answer rendered
 * (`vitrine:dropdown`). Target: 1 request per keystroke, p95 ≤ 50 ms, and p95 ≤ 1.2× the baseline's.
 *
 * `-- --url http://host:port` types into a shop already running instead (no build, no start);
 * `KEYSTROKE_DETAIL=1` prints every key's time.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { buildIfNeeded, sleep, startVitrine, stopVitrine } from './vitrine-process.ts';

const size = Number(process.env.VITRINE_DEMO_SIZE ?? 10_000);
const keyIntervalMs = 120;
const queries = [
  'table lamp', 'wallet', 'tablet 128', 'throw blanket', 'bike light', 'hammer', 'running shoes', 'headphones',
  'coffee maker', 'science kit', 'foundation', 'blouse', 'backpack', 'desk chair', 'sofa', 'laptop', 'yoga mat',
  'kettle', 'sunglasses', 'bamboo',
];
const searchPath = '/1/indexes/*/queries';

interface Typed {
  keystrokes: number;
  requests: number;
  followUps: number;
  /** keydown → results rendered, per keystroke whose results were shown. */
  latencies: number[];
  /** keydown → the dropdown's answer for the text rendered (`vitrine:dropdown`), the page as shipped only. */
  dropdownLatencies: number[];
  /** Where a shown keystroke's time went: keydown → its request sent, the request, its answer → results rendered. */
  parts: Array<{ toRequest: number; request: number; toResults: number; queued: number; waiting: number; receiving: number }>;
  superseded: number;
}

/**
 * One shopper's page: opened once, then each query typed into the box after clearing it, as a shopper searches
 * one thing after another.
 */
async function openShop(browser: Browser, baseURL: string, path: string) {
  const context = await browser.newContext({ baseURL, viewport: { width: 1366, height: 900 } });
  const page: Page = await context.newPage();
  await page.addInitScript(() => {
    document.addEventListener('keydown', () => performance.mark('bench:keydown'), true);
    // Room for every request of the run (product images fill the default 250 entries).
    performance.setResourceTimingBufferSize(1_000_000);
  });
  await page.goto(path, { waitUntil: 'networkidle' });
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
  let requests = 0;
  let followUps = 0;
  let pending = 0;
  page.on('request', (request) => {
    if (new URL(request.url()).pathname !== searchPath) return;
    pending += 1;
    // The no-results page's own follow-up (which shorter queries find something: counts only) comes after
    // an empty answer, with or without the dropdown: counted apart.
    const { requests: queries } = request.postDataJSON() as { requests: Array<{ hitsPerPage?: number }> };
    if (queries.every((query) => query.hitsPerPage === 0)) followUps += 1;
    else requests += 1;
  });
  const settle = () => (pending -= 1);
  page.on('requestfinished', (request) => new URL(request.url()).pathname === searchPath && settle());
  page.on('requestfailed', (request) => new URL(request.url()).pathname === searchPath && settle());
  const input = page.locator('.vt-header-search .ais-SearchBox-input');
  const settled = async () => {
    await sleep(50);
    while (pending > 0) await sleep(10);
  };
  const shown = (text: string) =>
    page.waitForFunction(
      (query) => (performance.getEntriesByName('vitrine:results') as PerformanceMark[]).some((mark) => (mark.detail as { query?: string } | null)?.query === query),
      text,
    );

  return {
    close: () => context.close(),
    /** Clears the box (the home page's own requests, a pause), then types `query` one key every `keyIntervalMs`. */
    async type(query: string): Promise<Typed> {
      // Focus (the page as shipped asks for the dropdown of what the box holds) and clearing are no keystrokes.
      await input.focus();
      await input.fill('');
      await shown('');
      await settled();
      await sleep(300);
      requests = 0;
      followUps = 0;
      const since = await page.evaluate(() => performance.now());
      const started = performance.now();
      for (let i = 0; i < query.length; i++) {
        await sleep(started + i * keyIntervalMs - performance.now());
        await page.keyboard.press(query[i] === ' ' ? 'Space' : query[i]);
      }
      // Done once the whole query's results are shown and no search is in flight.
      await shown(query);
      await settled();
      const { keys, results, dropdowns, fetches } = await page.evaluate(([from, pathname]) => ({
        keys: performance.getEntriesByName('bench:keydown').filter((mark) => mark.startTime > from).map((mark) => mark.startTime),
        results: (performance.getEntriesByName('vitrine:results') as PerformanceMark[])
          .filter((mark) => mark.startTime > from)
          .map((mark) => ({ at: mark.startTime, query: (mark.detail as { query?: string } | null)?.query })),
        dropdowns: (performance.getEntriesByName('vitrine:dropdown') as PerformanceMark[])
          .filter((mark) => mark.startTime > from)
          .map((mark) => ({ at: mark.startTime, query: (mark.detail as { query?: string } | null)?.query })),
        fetches: (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
          .filter((entry) => entry.startTime > from && new URL(entry.name).pathname === pathname)
          .map((entry) => ({ start: entry.startTime, requestStart: entry.requestStart, responseStart: entry.responseStart, end: entry.responseEnd })),
      }), [since, searchPath] as const);
      if (keys.length !== query.length) throw new Error(`${query.length} keys pressed, ${keys.length} keydown events`);
      const latencies: number[] = [];
      const dropdownLatencies: number[] = [];
      const parts: Typed['parts'] = [];
      let superseded = 0;
      keys.forEach((at, i) => {
        const text = query.slice(0, i + 1);
        const dropdown = dropdowns.find((shown) => shown.at > at && shown.query === text);
        if (dropdown) dropdownLatencies.push(dropdown.at - at);
        const mark = results.find((result) => result.at > at && result.query === text);
        if (!mark) {
          superseded += 1;
          return;
        }
        latencies.push(mark.at - at);
        // The request this key sent: the first one started after it and before the next key.
        const sent = fetches.find((fetched) => fetched.start > at && fetched.start < (keys[i + 1] ?? Infinity) && fetched.end < mark.at);
        if (sent)
          parts.push({
            toRequest: sent.start - at,
            request: sent.end - sent.start,
            toResults: mark.at - sent.end,
            // Resource Timing's phases of the request: before it was sent (a free connection), to its first byte, the rest.
            queued: sent.requestStart - sent.start,
            waiting: sent.responseStart - sent.requestStart,
            receiving: sent.end - sent.responseStart,
          });
      });
      if (process.env.KEYSTROKE_DETAIL) console.log(`${path} ${JSON.stringify(query)}: ${keys.map((at, i) => (results.find((result) => result.at > at && result.query === query.slice(0, i + 1))?.at ?? NaN) - at).map((ms) => ms.toFixed(0)).join(' ')}`);
      return { keystrokes: query.length, requests, followUps, latencies, dropdownLatencies, parts, superseded };
    },
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function summary(runs: Typed[]) {
  const keystrokes = runs.reduce((sum, run) => sum + run.keystrokes, 0);
  const requests = runs.reduce((sum, run) => sum + run.requests, 0);
  const latencies = runs.flatMap((run) => run.latencies).sort((a, b) => a - b);
  const dropdownLatencies = runs.flatMap((run) => run.dropdownLatencies).sort((a, b) => a - b);
  const parts = runs.flatMap((run) => run.parts);
  const median = (part: keyof Typed['parts'][number], of = parts) => percentile(of.map((entry) => entry[part]).sort((a, b) => a - b), 50);
  // The slowest twentieth of the keys (the p95's neighbours): which part makes them slow.
  const total = (entry: Typed['parts'][number]) => entry.toRequest + entry.request + entry.toResults;
  const slowFrom = percentile(parts.map(total).sort((a, b) => a - b), 95);
  const slow = parts.filter((entry) => total(entry) >= slowFrom);
  return {
    slow: { keys: slow.length, toRequest: median('toRequest', slow), request: median('request', slow), waiting: median('waiting', slow), toResults: median('toResults', slow) },
    toRequest: median('toRequest'),
    request: median('request'),
    toResults: median('toResults'),
    queued: median('queued'),
    waiting: median('waiting'),
    receiving: median('receiving'),
    keystrokes,
    requests,
    followUps: runs.reduce((sum, run) => sum + run.followUps, 0),
    perKeystroke: requests / keystrokes,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    dropdownP50: percentile(dropdownLatencies, 50),
    dropdownP95: percentile(dropdownLatencies, 95),
    dropdownShown: dropdownLatencies.length,
    superseded: runs.reduce((sum, run) => sum + run.superseded, 0),
  };
}

// `-- --url http://host:port`: a shop already running (no build, no start), e.g. to compare builds.
const { values } = parseArgs({ options: { url: { type: 'string' } } });
if (values.url === undefined) buildIfNeeded();
const dataDir = await mkdtemp(join(tmpdir(), 'vitrine-bench-keystroke-'));
let vitrine: { child: ChildProcess; url: string } | undefined;
let browser: Browser | undefined;
try {
  if (values.url === undefined) console.log(`Starting vitrine start with ${size.toLocaleString('en-US')} demo products…`);
  vitrine = values.url === undefined ? await startVitrine(dataDir, size) : undefined;
  const url = values.url ?? vitrine!.url;
  browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const shipped: Typed[] = [];
  const baseline: Typed[] = [];
  const pages = { shipped: await openShop(browser, url, '/'), baseline: await openShop(browser, url, '/?dropdown=off') };
  // One untimed query on each page first: the server's and the browser's first searches warm caches and code.
  await pages.shipped.type('warm');
  await pages.baseline.type('warm');
  for (const [i, query] of queries.entries()) {
    const order = i % 2 === 0 ? (['shipped', 'baseline'] as const) : (['baseline', 'shipped'] as const);
    for (const which of order) (which === 'shipped' ? shipped : baseline).push(await pages[which].type(query));
  }
  await pages.shipped.close();
  await pages.baseline.close();
  const withDropdown = summary(shipped);
  const without = summary(baseline);
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  const line = (label: string, s: ReturnType<typeof summary>) => {
    console.log(
      `${label.padEnd(22)} ${s.perKeystroke.toFixed(2)} requests/keystroke (${s.requests} for ${s.keystrokes} keys, ` +
        `and ${s.followUps} follow-ups of the no-results page)  keystroke→results p50 ${ms(s.p50)}  p95 ${ms(s.p95)}  ` +
        `(${s.superseded} keys' results never shown: a newer key's came first)`,
    );
    console.log(`${''.padEnd(22)} medians: keydown→request sent ${ms(s.toRequest)}, request ${ms(s.request)} (queued ${ms(s.queued)}, to the first byte ${ms(s.waiting)}, the rest ${ms(s.receiving)}), answer→results rendered ${ms(s.toResults)}`);
    console.log(`${''.padEnd(22)} the slowest ${s.slow.keys} keys, medians: keydown→request sent ${ms(s.slow.toRequest)}, request ${ms(s.slow.request)} (to the first byte ${ms(s.slow.waiting)}), answer→results rendered ${ms(s.slow.toResults)}`);
    if (s.dropdownShown > 0) console.log(`${''.padEnd(22)} keystroke→dropdown rendered p50 ${ms(s.dropdownP50)}  p95 ${ms(s.dropdownP95)} (${s.dropdownShown} keys)`);
  };
  console.log(`\n${queries.length} queries, one key every ${keyIntervalMs} ms, ${size.toLocaleString('en-US')} products, ${new Date().toISOString()}`);
  line('with the dropdown', withDropdown);
  line('baseline (no dropdown)', without);
  console.log(`ratio p50 ${(withDropdown.p50 / without.p50).toFixed(2)}×  p95 ${(withDropdown.p95 / without.p95).toFixed(2)}×`);
  const met = withDropdown.perKeystroke <= 1 && withDropdown.p95 <= 50 && withDropdown.p95 <= 1.2 * without.p95;
  console.log(`target (≤ 1 request/keystroke, p95 ≤ 50 ms and ≤ 1.2× baseline): ${met ? 'met' : 'NOT met'}`);
} finally {
  await browser?.close();
  if (vitrine) await stopVitrine(vitrine.child);
  await rm(dataDir, { recursive: true, force: true });
}
