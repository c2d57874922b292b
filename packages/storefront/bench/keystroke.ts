/**
 * `npm run bench:keystroke`: what a shopper typing feels, in the product as users run it. Starts the compiled
 * `vitrine start` on a temporary data folder with `VITRINE_DEMO_SIZE` demo products (default 10,000; building
 * first when the build is missing or older than the sources), then types 20 fixed queries into the home page's
 * search box in headless Chromium (`CHROME_PATH`, default /usr/bin/chromium), one key every 120 ms, each query
 * on a fresh page. Each query is typed twice, into the page as shipped and into `/?dropdown=off` (the search box
 * without its dropdown: the baseline), in alternating order so both see the same machine.
 *
 * Prints, for each: requests to `/1/indexes/*\/queries` per keystroke (the focus's own request for the dropdown
 * is not a keystroke's; the no-results page's follow-up after an empty answer is counted apart), and the time
 * from a key's `keydown` to the `vitrine:results` mark of the results for the text it made (`SearchStatus`: set
 * once they are rendered), p50/p95; keystrokes whose results were never shown (a newer keystroke's came first)
 * are counted apart. Target: 1 request per keystroke, p95 ≤ 50 ms, and
 * p95 ≤ 1.2× the baseline's.
 */
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';

const root = join(import.meta.dirname, '..', '..', '..');
const size = Number(process.env.VITRINE_DEMO_SIZE ?? 10_000);
const keyIntervalMs = 120;
const queries = [
  'table lamp', 'wallet', 'tablet 128', 'throw blanket', 'bike light', 'hammer', 'running shoes', 'headphones',
  'coffee maker', 'science kit', 'foundation', 'blouse', 'backpack', 'desk chair', 'sofa', 'laptop', 'yoga mat',
  'kettle', 'sunglasses', 'bamboo',
];
const searchPath = '/1/indexes/*/queries';

/** Newest modification time under `dir` (sources), 0 when it does not exist. */
function newest(dir: string): number {
  if (!existsSync(dir)) return 0;
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) latest = Math.max(latest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return latest;
}

function buildIfNeeded(): void {
  const built = [join(root, 'packages/storefront/dist/index.html'), join(root, 'packages/storefront/dist-server/entry-server.js'), join(root, 'packages/cli/dist/main.js')];
  const builtAt = Math.min(...built.map((file) => (existsSync(file) ? statSync(file).mtimeMs : 0)));
  const sources = readdirSync(join(root, 'packages')).map((name) => newest(join(root, 'packages', name, 'src')));
  if (builtAt > Math.max(...sources)) return;
  console.log('Building (npm run build): the build is missing or older than the sources…');
  const result = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('npm run build failed');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `vitrine start` with the demo catalogue; resolves once `/1/isalive` answers 200 (catalogue and history loaded). */
async function startVitrine(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = { ...process.env, VITRINE_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', VITRINE_DEMO_SIZE: String(size) };
  const child = spawn(process.execPath, [join(root, 'packages/cli/bin/vitrine.js'), 'start'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`vitrine start exited (${child.exitCode}):\n${output}`);
    const status = await fetch(`${url}/1/isalive`).then((response) => response.status, () => 0);
    if (status === 200) return { child, url };
    await sleep(100);
  }
}

async function stopVitrine(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

interface Typed {
  keystrokes: number;
  requests: number;
  followUps: number;
  /** keydown → results rendered, per keystroke whose results were shown. */
  latencies: number[];
  superseded: number;
}

/** Types `query` into a fresh page at `path`, one key every `keyIntervalMs`, and reads what it took. */
async function typeQuery(browser: Browser, baseURL: string, path: string, query: string): Promise<Typed> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1366, height: 900 } });
  const page: Page = await context.newPage();
  try {
    await page.addInitScript(() => {
      document.addEventListener('keydown', () => performance.mark('bench:keydown'), true);
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
    // The focus asks for the dropdown of the empty box (the page as shipped): settled before the first key.
    await page.locator('.vt-header-search .ais-SearchBox-input').focus();
    if (!path.includes('dropdown=off')) while (requests === 0 || pending > 0) await sleep(10);
    requests = 0;
    followUps = 0;

    const started = performance.now();
    for (let i = 0; i < query.length; i++) {
      await sleep(started + i * keyIntervalMs - performance.now());
      await page.keyboard.press(query[i] === ' ' ? 'Space' : query[i]);
    }
    // Done once the whole query's results are shown and no search is in flight.
    await page.waitForFunction(
      (text) => (performance.getEntriesByName('vitrine:results') as PerformanceMark[]).some((mark) => (mark.detail as { query?: string } | null)?.query === text),
      query,
    );
    while (pending > 0) await sleep(10);

    const { keys, results } = await page.evaluate(() => ({
      keys: performance.getEntriesByName('bench:keydown').map((mark) => mark.startTime),
      results: (performance.getEntriesByName('vitrine:results') as PerformanceMark[]).map((mark) => ({
        at: mark.startTime,
        query: (mark.detail as { query?: string } | null)?.query,
      })),
    }));
    if (keys.length !== query.length) throw new Error(`${query.length} keys pressed, ${keys.length} keydown events`);
    const latencies: number[] = [];
    let superseded = 0;
    keys.forEach((at, i) => {
      const text = query.slice(0, i + 1);
      const shown = results.find((mark) => mark.at > at && mark.query === text);
      if (shown) latencies.push(shown.at - at);
      else superseded += 1;
    });
    return { keystrokes: query.length, requests, followUps, latencies, superseded };
  } finally {
    await context.close();
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function summary(runs: Typed[]) {
  const keystrokes = runs.reduce((sum, run) => sum + run.keystrokes, 0);
  const requests = runs.reduce((sum, run) => sum + run.requests, 0);
  const latencies = runs.flatMap((run) => run.latencies).sort((a, b) => a - b);
  return {
    keystrokes,
    requests,
    followUps: runs.reduce((sum, run) => sum + run.followUps, 0),
    perKeystroke: requests / keystrokes,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    superseded: runs.reduce((sum, run) => sum + run.superseded, 0),
  };
}

buildIfNeeded();
const dataDir = await mkdtemp(join(tmpdir(), 'vitrine-bench-keystroke-'));
let vitrine: { child: ChildProcess; url: string } | undefined;
let browser: Browser | undefined;
try {
  console.log(`Starting vitrine start with ${size.toLocaleString('en-US')} demo products…`);
  vitrine = await startVitrine(dataDir);
  browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const shipped: Typed[] = [];
  const baseline: Typed[] = [];
  // One untimed query on each page first: the server's and the browser's first searches warm caches and code.
  await typeQuery(browser, vitrine.url, '/', 'warm');
  await typeQuery(browser, vitrine.url, '/?dropdown=off', 'warm');
  for (const [i, query] of queries.entries()) {
    const order = i % 2 === 0 ? (['shipped', 'baseline'] as const) : (['baseline', 'shipped'] as const);
    for (const which of order) {
      if (which === 'shipped') shipped.push(await typeQuery(browser, vitrine.url, '/', query));
      else baseline.push(await typeQuery(browser, vitrine.url, '/?dropdown=off', query));
    }
  }
  const withDropdown = summary(shipped);
  const without = summary(baseline);
  const line = (label: string, s: ReturnType<typeof summary>) =>
    console.log(
      `${label.padEnd(22)} ${s.perKeystroke.toFixed(2)} requests/keystroke (${s.requests} for ${s.keystrokes} keys, ` +
        `and ${s.followUps} follow-ups of the no-results page)  ` +
        `keystroke→results p50 ${s.p50.toFixed(1)} ms  p95 ${s.p95.toFixed(1)} ms  (${s.superseded} keys' results never shown: a newer key's came first)`,
    );
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
