/**
 * Where a keystroke's main-thread time goes: types queries into the search page as `bench:keystroke` does
 * (one key every 120 ms) while Chromium records a trace (devtools timeline, user timing, network) and a CPU
 * profile of the page, then prints, per key, keydown → its request sent, its answer → its results shown
 * (`vitrine:results`) and keydown → results, and the renderer main thread's busy time up to the results by kind
 * (script, style, layout, paint, image decode, GC); what runs before the request leaves and after its answer
 * comes, over all keys; then, over the slow keys, the busiest trace events, the functions with the
 * most self time and the components (nearest capitalised function on the stack) with the most time.
 *
 * For names worth reading, serve a build made with `npx vite build --minify false` (storefront folder).
 *
 *   node --conditions=source --import tsx packages/storefront/bench/keystroke-trace.ts [--url http://host:port]
 *     [--path /?dropdown=off] [--queries 'table lamp,wallet'] [--slow 60] [--out trace.json]
 *     (`--out` also writes the CPU profile to trace.json.cpuprofile, which Chromium's DevTools open)
 *
 * Without `--url` it builds if needed and starts `vitrine start` with 10,000 demo products, as the benchmark.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { buildIfNeeded, sleep, startVitrine, stopVitrine } from './vitrine-process.ts';

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { url?: string; requestId?: string } };
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    path: { type: 'string', default: '/' },
    queries: { type: 'string', default: 'table lamp,wallet,tablet 128,throw blanket,bike light,hammer' },
    slow: { type: 'string', default: '60' },
    out: { type: 'string' },
  },
});
const keyIntervalMs = 120;
const slowMs = Number(values.slow);

/** What a trace event's self time counts as. */
function kind(name: string): string {
  if (/GC|Scavenge|MarkCompact|MinorMS/i.test(name)) return 'gc';
  if (/^(UpdateLayoutTree|RecalculateStyles|ParseAuthorStyleSheet|ScheduleStyleRecalculation)$/.test(name)) return 'style';
  if (/^(Layout|UpdateLayerTree|IntersectionObserverController::computeIntersections)$/.test(name)) return 'layout';
  if (/Decode|ImageDecodeTask|ResizeImage/.test(name)) return 'image decode';
  if (/^(Paint|PrePaint|PaintImage|Layerize|Commit|CompositeLayers|UpdateLayer|RasterTask|PaintSetup)$/.test(name)) return 'paint';
  if (/^(FunctionCall|EvaluateScript|v8\.|V8\.|EventDispatch|TimerFire|FireAnimationFrame|RunMicrotasks|v8\.callFunction|v8\.run|XHRReadyStateChange|ParseHTML)/.test(name)) return 'script';
  return 'other';
}

/** Self time (µs) per event name of the complete events on one thread within [from, to]. */
function selfTimes(events: TraceEvent[], from: number, to: number): Map<string, number> {
  const inside = events.filter((event) => event.ts < to && event.ts + (event.dur ?? 0) > from).sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const totals = new Map<string, number>();
  const stack: Array<{ event: TraceEvent; end: number; children: number }> = [];
  const clip = (event: TraceEvent) => Math.min(to, event.ts + (event.dur ?? 0)) - Math.max(from, event.ts);
  const close = (entry: { event: TraceEvent; children: number }) => {
    const self = clip(entry.event) - entry.children;
    totals.set(entry.event.name, (totals.get(entry.event.name) ?? 0) + Math.max(0, self));
  };
  for (const event of inside) {
    while (stack.length > 0 && stack[stack.length - 1].end <= event.ts) close(stack.pop()!);
    if (stack.length > 0) stack[stack.length - 1].children += clip(event);
    stack.push({ event, end: event.ts + (event.dur ?? 0), children: 0 });
  }
  while (stack.length > 0) close(stack.pop()!);
  return totals;
}

function byKind(totals: Map<string, number>): Map<string, number> {
  const kinds = new Map<string, number>();
  for (const [name, us] of totals) {
    // The task wrapper's own time is scheduling, not work of a kind.
    const k = /RunTask|ThreadControllerImpl|ThreadPool_RunTask/.test(name) ? 'task' : kind(name);
    kinds.set(k, (kinds.get(k) ?? 0) + us);
  }
  return kinds;
}

/** The profile's samples as (time, node) with each node's parent, to attribute self and component time. */
function indexProfile(profile: Profile) {
  const parent = new Map<number, number>();
  const nodes = new Map<number, ProfileNode>();
  for (const node of profile.nodes) {
    nodes.set(node.id, node);
    for (const child of node.children ?? []) parent.set(child, node.id);
  }
  const samples: Array<{ at: number; node: number; dt: number }> = [];
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i];
    samples.push({ at, node: profile.samples[i], dt: profile.timeDeltas[i + 1] ?? 0 });
  }
  const label = (node: ProfileNode) => {
    const file = node.callFrame.url.split('/').pop() ?? '';
    return `${node.callFrame.functionName || '(anonymous)'} ${file}:${node.callFrame.lineNumber + 1}`;
  };
  const component = (id: number): string => {
    for (let current: number | undefined = id; current !== undefined; current = parent.get(current)) {
      const name = nodes.get(current)!.callFrame.functionName;
      if (/^[A-Z][A-Za-z0-9]+$/.test(name) && !/^(Object|Array|Promise|Map|Set|JSON|Reflect)$/.test(name)) return name;
    }
    return '(no component)';
  };
  return {
    within(from: number, to: number) {
      const self = new Map<string, number>();
      const components = new Map<string, number>();
      for (const sample of samples) {
        if (sample.at < from || sample.at >= to) continue;
        const node = nodes.get(sample.node)!;
        if (/^\((idle|program|garbage collector)\)$/.test(node.callFrame.functionName)) continue;
        self.set(label(node), (self.get(label(node)) ?? 0) + sample.dt);
        const name = component(sample.node);
        components.set(name, (components.get(name) ?? 0) + sample.dt);
      }
      return { self, components };
    },
  };
}

function add(into: Map<string, number>, from: Map<string, number>) {
  for (const [key, value] of from) into.set(key, (into.get(key) ?? 0) + value);
}

const top = (map: Map<string, number>, n: number) =>
  [...map].sort((a, b) => b[1] - a[1]).slice(0, n).map(([key, us]) => `${(us / 1000).toFixed(1).padStart(7)} ms  ${key}`).join('\n');

const dataDir = await mkdtemp(join(tmpdir(), 'vitrine-keystroke-trace-'));
let vitrine: { child: ChildProcess; url: string } | undefined;
let browser: Browser | undefined;
try {
  if (values.url === undefined) {
    buildIfNeeded();
    vitrine = await startVitrine(dataDir, Number(process.env.VITRINE_DEMO_SIZE ?? 10_000));
  }
  const url = values.url ?? vitrine!.url;
  browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const context = await browser.newContext({ baseURL: url, viewport: { width: 1366, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript(() => {
    document.addEventListener('keydown', () => performance.mark('bench:keydown'), true);
  });
  await page.goto(values.path!, { waitUntil: 'networkidle' });
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
  const input = page.locator('.vt-header-search .ais-SearchBox-input');
  const shown = (text: string) =>
    page.waitForFunction(
      (query) => (performance.getEntriesByName('vitrine:results') as PerformanceMark[]).some((mark) => (mark.detail as { query?: string } | null)?.query === query),
      text,
    );
  const typeQuery = async (query: string) => {
    await input.focus();
    await input.fill('');
    await shown('');
    await sleep(500);
    const started = performance.now();
    for (let i = 0; i < query.length; i++) {
      await sleep(started + i * keyIntervalMs - performance.now());
      await page.keyboard.press(query[i] === ' ' ? 'Space' : query[i]);
    }
    await shown(query);
    await sleep(300);
  };
  await typeQuery('warm');

  const cdp = await context.newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await browser.startTracing(page, {
    categories: ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing', 'v8', 'v8.execute', 'disabled-by-default-v8.gc', 'loading'],
  });
  await cdp.send('Profiler.start');
  const queries = values.queries!.split(',');
  for (const query of queries) await typeQuery(query);
  const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: Profile };
  const trace = await browser.stopTracing();
  if (values.out) {
    await writeFile(values.out, trace);
    await writeFile(`${values.out}.cpuprofile`, JSON.stringify(profile));
  }
  const events = (JSON.parse(trace.toString()) as { traceEvents: TraceEvent[] }).traceEvents;

  // The page's renderer main thread: the one that recorded the keydown marks.
  const marks = events.filter((event) => event.cat.includes('blink.user_timing'));
  const keyMark = marks.find((event) => event.name === 'bench:keydown');
  if (!keyMark) throw new Error('no keydown marks in the trace');
  const main = events.filter((event) => event.pid === keyMark.pid && event.tid === keyMark.tid && event.ph === 'X');
  const keys = marks.filter((event) => event.name === 'bench:keydown' && event.ph !== 'e').map((event) => event.ts);
  const results = marks.filter((event) => event.name === 'vitrine:results' && event.ph !== 'e').map((event) => event.ts);
  const sends = events
    .filter((event) => event.name === 'ResourceSendRequest' && event.args?.data?.url?.includes('/queries'))
    .map((event) => ({ ts: event.ts, id: event.args?.data?.requestId }));
  const finished = new Map(events.filter((event) => event.name === 'ResourceFinish').map((event) => [event.args?.data?.requestId, event.ts]));
  const profiled = indexProfile(profile);
  const slowTotals = new Map<string, number>();
  const slowSelf = new Map<string, number>();
  const slowComponents = new Map<string, number>();
  const beforeRequest = new Map<string, number>();
  const beforeRequestSelf = new Map<string, number>();
  const afterAnswer = new Map<string, number>();
  const afterAnswerSelf = new Map<string, number>();
  let slowKeys = 0;
  let k = 0;
  console.log('key  to request  answer→results  to results  main thread until results: task/script/style/layout/paint/decode/gc/other (ms)');
  for (const query of queries) {
    for (let i = 0; i < query.length; i++, k++) {
      const at = keys[k];
      const next = keys[k + 1] ?? Infinity;
      const request = sends.find(({ ts }) => ts > at && ts < next);
      const sent = request?.ts;
      const answered = request ? finished.get(request.id) : undefined;
      // Results of this key or a later one (a newer key's results can come first).
      const shownAt = results.find((ts) => ts > at);
      if (shownAt === undefined) continue;
      const totals = selfTimes(main, at, shownAt);
      const kinds = byKind(totals);
      const ms = (us: number | undefined) => ((us ?? 0) / 1000).toFixed(1);
      const latency = (shownAt - at) / 1000;
      console.log(
        `${JSON.stringify(query.slice(0, i + 1)).padEnd(16)} ${(sent ? ms(sent - at) : '-').padStart(6)} ` +
          `${(answered && answered < shownAt ? ms(shownAt - answered) : '-').padStart(8)} ${latency.toFixed(1).padStart(8)}   ` +
          ['task', 'script', 'style', 'layout', 'paint', 'image decode', 'gc', 'other'].map((name) => ms(kinds.get(name))).join(' / '),
      );
      if (sent) {
        add(beforeRequest, selfTimes(main, at, sent));
        add(beforeRequestSelf, profiled.within(at, sent).self);
      }
      if (answered !== undefined && answered < shownAt) {
        add(afterAnswer, selfTimes(main, answered, shownAt));
        add(afterAnswerSelf, profiled.within(answered, shownAt).self);
      }
      if (latency >= slowMs) {
        slowKeys += 1;
        add(slowTotals, totals);
        const { self, components } = profiled.within(at, shownAt);
        add(slowSelf, self);
        add(slowComponents, components);
      }
    }
  }
  console.log(`\nKeydown → request sent, all keys: main thread self time by trace event\n${top(beforeRequest, 12)}`);
  console.log(`\nKeydown → request sent, all keys: script self time by function\n${top(beforeRequestSelf, 15)}`);
  console.log(`\nAnswer → results shown, all keys: main thread self time by trace event\n${top(afterAnswer, 12)}`);
  console.log(`\nAnswer → results shown, all keys: script self time by function\n${top(afterAnswerSelf, 20)}`);
  console.log(`\n${slowKeys} keys slower than ${slowMs} ms: main thread self time by trace event\n${top(slowTotals, 20)}`);
  console.log(`\nSlow keys: script self time by function\n${top(slowSelf, 25)}`);
  console.log(`\nSlow keys: script time by component (nearest capitalised function on the stack)\n${top(slowComponents, 25)}`);
  await context.close();
} finally {
  await browser?.close();
  if (vitrine) await stopVitrine(vitrine.child);
  await rm(dataDir, { recursive: true, force: true });
}
