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
  // As the `vitrine` command reads it (`--indexing-share` of the benchmark); the server's default otherwise.
  ...(process.env.VITRINE_INDEXING_SHARE ? { limits: { indexingShareWhileSearching: Number(process.env.VITRINE_INDEXING_SHARE) } } : {}),
  staticRoot: storefrontDistDir,
  storefrontConfig: { provider: 'vitrine', appId, searchApiKey, indexName: 'products', insights: { enabled: false } },
});
process.stdout.write(`LISTENING ${server.url}\n`);
// `bench:import --memory-log FILE`: the main thread's memory every half second (MB): time, RSS, heap total, heap
// used, external, array buffers (the heap figures are this thread's; RSS the process's).
const memoryLog = process.env.VITRINE_MEMORY_LOG;
if (memoryLog) {
  const { appendFileSync } = await import('node:fs');
  setInterval(() => {
    const m = process.memoryUsage();
    appendFileSync(memoryLog, `${Date.now()} ${[m.rss, m.heapTotal, m.heapUsed, m.external, m.arrayBuffers].map((v) => (v / 1048576).toFixed(0)).join(' ')}\n`);
  }, 500).unref();
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void server.close().then(() => process.exit(0)));
