/**
 * `vitrine sync` between two Vitrine servers in this process (loopback): the time to copy an index of demo
 * products, and the time of the final comparison (both sides browsed and hashed).
 * `node --import tsx packages/cli/bench/sync.ts [--size 20000] [--batch-size 1000]`
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateProducts } from '@vitrine/demo';
import { main } from '../src/main.ts';
import { startTestServer, tempDir } from '../src/testing.ts';

const { values } = parseArgs({ options: { size: { type: 'string', default: '20000' }, 'batch-size': { type: 'string', default: '1000' } } });
const size = Number(values.size);
const source = await startTestServer({ appId: 'bench-source', adminApiKey: 'bench-source-key' });
const destination = await startTestServer({ appId: 'bench-destination', adminApiKey: 'bench-destination-key' });
const dir = tempDir('vitrine-sync-bench-');
try {
  await source.client.saveObjects({ indexName: 'products', objects: [...generateProducts(size, 3)], waitForTasks: true, batchSize: 1000 });
  const started = Date.now();
  let copied = 0;
  const stderr = (chunk: string) => {
    if (chunk.startsWith('Comparing')) copied = Date.now();
  };
  const code = await main(
    ['sync', '--to-url', destination.url, '--to-app-id', destination.appId, '--batch-size', values['batch-size'] ?? '1000', '--state', join(dir, 'state.json')],
    { env: { ...source.env, VITRINE_SYNC_API_KEY: destination.adminApiKey }, cwd: dir, stdout: { write: () => true }, stderr: { write: stderr }, signal: new AbortController().signal },
  );
  const done = Date.now();
  const rate = Math.round(size / ((copied - started) / 1000));
  console.log(`${size} records, batch ${values['batch-size']}: exit ${code}, copy ${copied - started} ms (${rate} records/s), comparison ${done - copied} ms`);
} finally {
  await source.close();
  await destination.close();
  rmSync(dir, { recursive: true, force: true });
}
