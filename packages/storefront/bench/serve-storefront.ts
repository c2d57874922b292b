/**
 * The server with the built storefront (console included), as a child process for `bench:import`, so that its
 * memory can be read apart from the benchmark's own: configured by environment, prints `LISTENING <url>`.
 */
import { startServer } from '@vitrine/server';
import { storefrontDistDir } from '../src/index.ts';

const appId = process.env.VITRINE_APP_ID!;
const searchApiKey = process.env.VITRINE_SEARCH_API_KEY!;
const server = await startServer({
  dataDir: process.env.VITRINE_DATA_DIR!,
  appId,
  adminApiKey: process.env.VITRINE_ADMIN_API_KEY!,
  searchApiKey,
  port: 0,
  searchThreads: Number(process.env.VITRINE_SEARCH_THREADS ?? 1),
  staticRoot: storefrontDistDir,
  storefrontConfig: { provider: 'vitrine', appId, searchApiKey, indexName: 'products', insights: { enabled: false } },
});
process.stdout.write(`LISTENING ${server.url}\n`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void server.close().then(() => process.exit(0)));
