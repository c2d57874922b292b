/**
 * Does the shop learn from its shoppers, and is it fooled by noise? (`npm run bench:learning`, issue 45.)
 *
 * A real server (the server entry in a child process, as the other HTTP benchmarks start it) with the demo
 * catalogue and its settings (dynamic re-ranking enabled), and simulated shoppers (`learning-shoppers.ts`) whose
 * preferences the server never sees: they search through the HTTP API as the storefront does (multi-queries with
 * `clickAnalytics` and their user token, 20 hits a page), click with position bias and buy, sending the
 * Insights events the storefront sends. Then a model build (`POST /1/vitrine/recommend/build`), and:
 * 1. NDCG@10 against the hidden truth for held-out shoppers (never seen in training), learning off
 *    (`enableReRanking: false`) and on, per query and in all;
 * 2. an A/B test, learning off against on, over new shoppers split by user token: the conversion rate of
 *    each variant (searches with a purchase over searches), its uplift and the two-proportion test. When the
 *    server has the A/B testing API (`/2/abtests`), the test runs there (the server splits the traffic and
 *    reports its own figures, printed too); else the bench splits the users itself and says so.
 * The same runs again with random shoppers (clicks and purchases blind to the products): the uplift must not be
 * significant and the ranking must not move (the share of held-out searches whose first ten changed).
 *
 *   node --conditions=source --import tsx packages/server/bench/learning.ts [--seed 1] [--size 5000]
 *     [--queries 24] [--train 2500] [--eval-users 40] [--ab 2400]
 *
 * Do not run it while tests run: the machine's cores are shared.
 */
import { parseArgs } from 'node:util';
import { ADMIN_KEY, APP_ID, SEARCH_KEY, removeDir, spawnServer, tempDir } from '../src/test-support.ts';
import { seedCatalogue } from './workload.ts';
import { generateProducts } from '@vitrine/demo';
import { interact, ndcgAt10, pick, POOL, seeded, TRUTH_PER_QUERY, twoProportions } from './learning-shoppers.ts';
import type { Interaction, Item, Shopper, World } from './learning-shoppers.ts';

const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: '1' },
    size: { type: 'string', default: '5000' },
    queries: { type: 'string', default: '24' },
    train: { type: 'string', default: '2500' },
    'eval-users': { type: 'string', default: '40' },
    ab: { type: 'string', default: '2400' },
  },
});
const SEED = Number(values.seed);
const SIZE = Number(values.size);

type Mode = 'preferences' | 'random';
type Hit = Item & { _rankingInfo?: { promotedByReRanking?: boolean } };

async function call(url: string, method: string, path: string, body: unknown, key = ADMIN_KEY): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${url}${path}`, {
    method, headers: { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': key, 'content-type': 'text/plain' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? {} : JSON.parse(text) };
}

/** A search as the storefront sends it (a multi-query, the search key); resolves to the first result. */
async function search(url: string, params: Record<string, unknown>): Promise<{ hits: Hit[]; queryID?: string; abTestVariantID?: number }> {
  const { status, body } = await call(url, 'POST', '/1/indexes/*/queries', { requests: [{ indexName: 'products', hitsPerPage: 20, facets: ['brand', 'color'], ...params }] }, SEARCH_KEY);
  if (status !== 200) throw new Error(`search failed: ${status} ${JSON.stringify(body)}`);
  return (body.results as Array<{ hits: Hit[]; queryID?: string; abTestVariantID?: number }>)[0];
}

/** The Insights events of a search's interaction, as the storefront sends them. */
async function sendEvents(url: string, shopper: Shopper, queryID: string | undefined, interaction: Interaction): Promise<void> {
  const events = [
    ...interaction.clicks.map(({ item, position }) => ({ eventType: 'click', eventName: 'Hit Clicked', index: 'products', userToken: shopper.token, queryID, objectIDs: [item.objectID], positions: [position] })),
    ...interaction.purchases.map((item) => ({ eventType: 'conversion', eventSubtype: 'purchase', eventName: 'Purchased', index: 'products', userToken: shopper.token, queryID, objectIDs: [item.objectID] })),
  ];
  if (events.length === 0) return;
  const { status, body } = await call(url, 'POST', '/1/events', { events }, SEARCH_KEY);
  if (status !== 200) throw new Error(`events refused: ${status} ${JSON.stringify(body)}`);
}

/** Queries: words of the catalogue's names found in 40 to 400 products, chosen by the seed. */
function chooseQueries(random: () => number, count: number): string[] {
  const counts = new Map<string, number>();
  for (const product of generateProducts(SIZE)) {
    for (const word of new Set(product.name.toLowerCase().split(/[^a-z]+/))) if (word.length > 3) counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  const candidates = [...counts].filter(([, n]) => n >= 40 && n <= 400).map(([word]) => word).sort();
  const chosen = new Set<string>();
  while (chosen.size < Math.min(count, candidates.length)) chosen.add(pick(candidates, random));
  return [...chosen];
}

async function buildWorld(url: string, random: () => number): Promise<World> {
  const world: World = { queries: chooseQueries(random, Number(values.queries)), truth: new Map(), pools: new Map() };
  for (const query of world.queries) {
    const { hits } = await search(url, { query, hitsPerPage: POOL, analytics: false, enableReRanking: false });
    const pool = hits.map(({ objectID, brand, color }) => ({ objectID, brand, color }));
    const truth = new Set<string>();
    while (truth.size < Math.min(TRUTH_PER_QUERY, pool.length)) truth.add(pick(pool, random).objectID);
    world.pools.set(query, pool);
    world.truth.set(query, truth);
  }
  return world;
}

function shoppers(world: World, prefix: string, count: number, random: () => number): Shopper[] {
  const items = [...world.pools.values()].flat();
  return Array.from({ length: count }, (_, i) => ({ token: `${prefix}-${i}`, brand: pick(items, random).brand, color: pick(items, random).color }));
}

/** Searches of `count` sessions by `people` (one query each, searched and acted on). */
async function shop(url: string, world: World, people: Shopper[], count: number, random: () => number, mode: Mode): Promise<void> {
  for (let i = 0; i < count; i++) {
    const shopper = pick(people, random);
    const query = pick(world.queries, random);
    const result = await search(url, { query, clickAnalytics: true, userToken: shopper.token });
    await sendEvents(url, shopper, result.queryID, interact(world, shopper, query, result.hits, random, mode));
  }
}

/** Milliseconds of a search over HTTP, and its hits. */
async function timed(url: string, params: Record<string, unknown>, times: number[]): Promise<Hit[]> {
  const began = performance.now();
  const { hits } = await search(url, params);
  times.push(performance.now() - began);
  return hits;
}

function percentile(times: number[], p: number): string {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))].toFixed(2);
}

/**
 * NDCG@10 of held-out shoppers, learning off and on, the share of searches whose first ten differ, and each
 * variant's search latency over HTTP (the two asked alternately, the same queries).
 */
async function evaluate(url: string, world: World, people: Shopper[]): Promise<{ off: number; on: number; changed: number; promoted: number; latency: string }> {
  const offTimes: number[] = [];
  const onTimes: number[] = [];
  let off = 0;
  let on = 0;
  let changed = 0;
  let promoted = 0;
  let n = 0;
  for (const shopper of people) {
    for (const query of world.queries) {
      const base = { query, analytics: false, clickAnalytics: false, userToken: shopper.token, getRankingInfo: true };
      const without = await timed(url, { ...base, enableReRanking: false }, offTimes);
      const learned = await timed(url, base, onTimes);
      off += ndcgAt10(world, shopper, query, without);
      on += ndcgAt10(world, shopper, query, learned);
      if (without.slice(0, 10).map((h) => h.objectID).join() !== learned.slice(0, 10).map((h) => h.objectID).join()) changed++;
      promoted += learned.filter((hit) => hit._rankingInfo?.promotedByReRanking === true).length;
      n++;
    }
  }
  const latency = `search latency over HTTP, learning off p50 ${percentile(offTimes, 0.5)} / p99 ${percentile(offTimes, 0.99)} ms, on p50 ${percentile(onTimes, 0.5)} / p99 ${percentile(onTimes, 0.99)} ms (${n} each)`;
  return { off: off / n, on: on / n, changed: changed / n, promoted: promoted / n, latency };
}

/** The A/B test: the server's when it has the API, else users split here by token. */
async function abTest(url: string, world: World, people: Shopper[], count: number, random: () => number, mode: Mode): Promise<string> {
  const created = await call(url, 'POST', '/2/abtests', {
    name: 'learning off vs on', endAt: new Date(Date.now() + 86_400_000).toISOString(),
    // The second variant carries the custom parameters (as Algolia requires of a test on one index): learning off.
    variants: [{ index: 'products', trafficPercentage: 50 }, { index: 'products', trafficPercentage: 50, customSearchParameters: { enableReRanking: false } }],
  });
  const serverTest = created.status === 200 ? Number(created.body.abTestID) : null;
  const outcomes = [{ successes: 0, trials: 0 }, { successes: 0, trials: 0 }];
  for (let i = 0; i < count; i++) {
    const shopper = pick(people, random);
    const query = pick(world.queries, random);
    // Without the server's split: a stable split by token, learning turned off per search in variant A.
    const ownVariant = Number(shopper.token.split('-').pop()) % 2;
    const params = { query, clickAnalytics: true, userToken: shopper.token, ...(serverTest === null && ownVariant === 0 ? { enableReRanking: false } : {}) };
    const result = await search(url, params);
    // Outcome 0 is learning off, 1 on (the server's variant 2 is off).
    const variant = serverTest === null ? ownVariant : result.abTestVariantID === 2 ? 0 : 1;
    const interaction = interact(world, shopper, query, result.hits, random, mode);
    await sendEvents(url, shopper, result.queryID, interaction);
    outcomes[variant].trials++;
    if (interaction.purchases.length > 0) outcomes[variant].successes++;
  }
  const [a, b] = outcomes;
  const rate = (o: { successes: number; trials: number }) => o.successes / o.trials;
  const { z, pValue } = twoProportions(a, b);
  const lines = [
    `  A/B (${serverTest === null ? 'no /2/abtests on this server: users split here by token, the test computed here' : `the server's A/B test ${serverTest}`}): ` +
      `conversion off ${(100 * rate(a)).toFixed(2)}% (${a.successes}/${a.trials}), on ${(100 * rate(b)).toFixed(2)}% (${b.successes}/${b.trials}), ` +
      `uplift ${(100 * (rate(b) / rate(a) - 1)).toFixed(1)}%, z ${z.toFixed(2)}, p ${pValue.toFixed(4)} (${pValue < 0.05 ? 'significant' : 'not significant'} at 5%)`,
  ];
  if (serverTest !== null) {
    const report = await call(url, 'GET', `/2/abtests/${serverTest}`, undefined);
    const variants = (report.body.variants as Array<Record<string, unknown>> | undefined) ?? [];
    const figures = variants.map((v, i) => `variant ${i + 1} (${i === 0 ? 'on' : 'off'}) conversion ${v.conversionRate} over ${v.trackedSearchCount} tracked searches`).join(', ');
    lines.push(`  the server's figures: ${figures}; conversion significance ${JSON.stringify(report.body.conversionSignificance ?? variants[1]?.conversionSignificance ?? null)}`);
    await call(url, 'POST', `/2/abtests/${serverTest}/stop`, undefined);
  }
  return lines.join('\n');
}

async function run(mode: Mode): Promise<void> {
  const dataDir = tempDir('vitrine-learning-');
  const server = await spawnServer({ VITRINE_DATA_DIR: dataDir, VITRINE_SEARCH_THREADS: '1' });
  try {
    await seedCatalogue(server.url, SIZE);
    const random = seeded(SEED);
    const world = await buildWorld(server.url, random);
    const training = shoppers(world, 'train', 400, random);
    const began = performance.now();
    await shop(server.url, world, training, Number(values.train), random, mode);
    const shopping = performance.now() - began;
    // An analytics read writes the searches still in memory (their impressions), as the periodic flush would.
    await call(server.url, 'GET', '/2/searches?index=products', undefined);
    const build = await call(server.url, 'POST', '/1/vitrine/recommend/build', {});
    if (build.status !== 200) throw new Error(`build failed: ${build.status} ${JSON.stringify(build.body)}`);
    const held = shoppers(world, 'held', Number(values['eval-users']), random);
    const scores = await evaluate(server.url, world, held);
    const ab = await abTest(server.url, world, shoppers(world, 'ab', 600, random), Number(values.ab), random, mode);
    console.log(`${mode === 'random' ? 'random shoppers (control)' : 'shoppers with hidden preferences'}: ${world.queries.length} queries, ${values.train} training searches (${(shopping / 1000).toFixed(1)} s), build ${build.body.buildMs} ms`);
    console.log(`  NDCG@10 of ${held.length} held-out shoppers × ${world.queries.length} queries: learning off ${scores.off.toFixed(4)}, on ${scores.on.toFixed(4)} ` +
      `(${(100 * (scores.on / scores.off - 1)).toFixed(1)}%); first ten changed in ${(100 * scores.changed).toFixed(1)}% of searches, ${scores.promoted.toFixed(2)} hits re-ranked per search`);
    console.log(`  ${scores.latency}`);
    console.log(ab);
  } finally {
    await server.kill();
    removeDir(dataDir);
  }
}

console.log(`bench:learning seed ${SEED}, ${SIZE} demo products`);
await run('preferences');
await run('random');
