/**
 * What each of the costliest valid requests (`test/fixtures/costly-requests.ts`) costs the server alone: a server
 * as `vitrine start` runs it on two cores (one search thread) with the built storefront (for the sitemap), over
 * the demo catalogue, each kind sent `--repeat` times in a row on one connection; prints each kind's status and
 * its median and slowest latency. A latency here is time the server spent on that request (nothing else runs).
 *
 *   node --import tsx packages/server/bench/request-costs.ts [--size 10000] [--repeat 7]
 *
 * Needs `npm run build` (the storefront's renderer). Do not run it while tests run: the machine's cores are shared.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { APP_ID, SEARCH_KEY, removeDir, spawnServer, tempDir } from '../src/test-support.ts';
import { junkParamsRequest, longListRequest, longQueryRequest, sitemapRequest, type CostlyRequest } from '../test/fixtures/costly-requests.ts';
import { seedCatalogue } from './workload.ts';

const { values } = parseArgs({ options: { size: { type: 'string', default: '10000' }, repeat: { type: 'string', default: '7' } } });

const dataDir = tempDir('vitrine-costs-');
const server = await spawnServer({
  VITRINE_DATA_DIR: dataDir,
  VITRINE_SEARCH_THREADS: '1',
  VITRINE_STOREFRONT_DIST: join(import.meta.dirname, '..', '..', 'storefront', 'dist'),
});
try {
  const workload = await seedCatalogue(server.url, Number(values.size));
  const kinds: Record<string, () => CostlyRequest> = {
    'shopper multi-query': () => ({ path: '/1/indexes/*/queries', body: workload.searchBody() }),
    'attributesToHighlight, 60k entries': () => longListRequest(60_000),
    'attributesToHighlight, 1k, 1k hits': () => longListRequest(1000),
    'params, 30k unknown parameters': () => junkParamsRequest(30_000),
    'params, 199 unknown parameters': () => junkParamsRequest(199),
    '170-word query, typos': longQueryRequest,
    'sitemap.xml': () => sitemapRequest(0),
    'sitemaps/1.xml': () => sitemapRequest(1),
  };
  const headers = { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': SEARCH_KEY, 'content-type': 'text/plain' };
  for (const [name, make] of Object.entries(kinds)) {
    const times: number[] = [];
    const statuses = new Set<number>();
    for (let i = 0; i < Number(values.repeat); i++) {
      const { path, method = 'POST', body } = make();
      const started = performance.now();
      const response = await fetch(`${server.url}${path}`, { method, headers, body });
      await response.arrayBuffer();
      times.push(performance.now() - started);
      statuses.add(response.status);
    }
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)];
    console.log(`${name.padEnd(38)} ${[...statuses].join('/')}  median ${median.toFixed(1)} ms, max ${times[times.length - 1].toFixed(1)} ms of ${times.length}`);
  }
} finally {
  await server.kill();
  removeDir(dataDir);
}
