/**
 * Measures the search log and the analytics queries at scale (not a test): logs N searches (default a million)
 * over 30 days — 5,000 distinct queries with a long tail, two tags, ten top hits each, a third tracked — then
 * times each analytics query over the whole period. Searches come at random moments of the 30 days (every
 * flush touches every day: the most rows per flush), or with `--ordered` in time order, as a server logs them.
 * Prints the time spent in flushes (they run on the event loop: the longest is what a search may wait for).
 * Run: node --import tsx packages/insights/bench/analytics.ts [N] [--ordered]
 */
import { Analytics } from '../src/analytics.ts';
import type { AnalyticsQuery } from '../src/analytics.ts';
import { openInsightsDb } from '../src/db.ts';
import { dayOf } from '../src/days.ts';
import { SearchLog } from '../src/search-log.ts';
import { removeDir, tempDir } from '../src/test-support.ts';

const total = Number(process.argv.slice(2).find((arg) => !arg.startsWith('--')) ?? 1_000_000);
const ordered = process.argv.includes('--ordered');
const now = Date.UTC(2025, 5, 30, 12);
const dir = tempDir('vitrine-insights-bench-');
const db = openInsightsDb(dir);
const log = new SearchLog(db, () => now, 60_000, 1000);
// mulberry32: a seeded generator that is uniform enough for a realistic spread of queries and users.
let state = 7;
const random = () => {
  state = (state + 0x6d2b79f5) >>> 0;
  let x = Math.imul(state ^ (state >>> 15), state | 1);
  x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
  return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
};

// Time spent writing (a flush blocks the event loop, so its longest run is what a search may wait for).
const flushes: number[] = [];
const flush = log.flush.bind(log);
log.flush = () => {
  const start = performance.now();
  flush();
  flushes.push(performance.now() - start);
};

let started = performance.now();
for (let i = 0; i < total; i++) {
  const q = Math.floor(Math.pow(5001, random()) - 1);
  log.record({
    index: 'products', query: `query ${q}`, nbHits: q % 17 === 0 ? 0 : 50 + (q % 300),
    queryID: random() < 0.33 ? i.toString(16).padStart(32, '0') : undefined,
    userToken: `user-${Math.floor(random() * 50_000)}`,
    facetFilters: random() < 0.2 ? [`brand:brand-${q % 40}`] : undefined,
    objectIDs: Array.from({ length: 10 }, (_, k) => String((q * 7 + k) % 20_000)),
    analyticsTags: [random() < 0.6 ? 'mobile' : 'desktop'],
    timestamp: ordered ? now - 30 * 86_400_000 + Math.floor((i / total) * 30 * 86_400_000) : now - Math.floor(random() * 30 * 86_400_000),
  });
}
log.close();
const writeMs = performance.now() - started;
console.log(`logged ${total} searches in ${(writeMs / 1000).toFixed(1)} s (${Math.round(total / (writeMs / 1000))}/s)`);
const flushMs = flushes.reduce((a, b) => a + b, 0);
console.log(`${flushes.length} flushes: ${(flushMs / 1000).toFixed(1)} s in all, longest ${Math.max(...flushes).toFixed(0)} ms; recording ${((writeMs - flushMs) / 1000).toFixed(1)} s`);

const analytics = new Analytics(db);
const q: AnalyticsQuery = {
  index: 'products', fromDay: dayOf(now) - 29, toDay: dayOf(now), tags: { sql: '1', params: [] }, limit: 10, offset: 0,
  clickAnalytics: true, revenueAnalytics: true, orderBy: 'searchCount', direction: 'desc',
};
const cases: Array<[string, () => unknown]> = [
  ['searches (click+revenue)', () => analytics.topSearches(q)],
  ['searches/count', () => analytics.searchesCount(q)],
  ['searches/noResults', () => analytics.noResults(q)],
  ['searches/noClicks', () => analytics.noClicks(q)],
  ['clickThroughRate', () => analytics.clickThroughRate(q)],
  ['hits (click+revenue)', () => analytics.topHits(q)],
  ['hits?search=', () => analytics.topHits({ ...q, search: 'query 3' })],
  ['filters', () => analytics.topFilterAttributes(q)],
  ['users/count', () => analytics.usersCount(q)],
  ['searches tags=mobile', () => analytics.topSearches({ ...q, tags: { sql: 'instr(tags, ?) > 0', params: ['|mobile|'] } })],
];
for (const [name, run] of cases) {
  started = performance.now();
  run();
  console.log(`${name}: ${(performance.now() - started).toFixed(0)} ms`);
}
const rows = (table: string) => (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
console.log(`rows: query_daily ${rows('query_daily')}, hit_daily ${rows('hit_daily')}, hit_query_daily ${rows('hit_query_daily')}, user_daily ${rows('user_daily')}, tracked ${rows('tracked')}`);
db.close();
removeDir(dir);
