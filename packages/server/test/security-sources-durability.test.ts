/**
 * The allowed sources outlive the process: kept across a restart (and enforced from the first request), every
 * acknowledged change there after `kill -9`, and in a backup's copy of the data folder.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startServer } from '../src/index.ts';
import type { RunningServer } from '../src/index.ts';
import { ADMIN_KEY, APP_ID, backupTo, removeDir, SEARCH_KEY, spawnServer, tempDir, writeUntilKilled } from '../src/test-support.ts';
import { clientFrom, refusal } from './client-from.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

function folder(): string {
  const dir = tempDir('vitrine-sources-');
  dirs.push(dir);
  return dir;
}

const start = (dataDir: string) => startServer({ dataDir, appId: APP_ID, adminApiKey: ADMIN_KEY, searchApiKey: SEARCH_KEY, port: 0 });
const hostOf = (url: string) => new URL(url).host;
const LIST = [{ source: '198.51.100.0/24', description: 'Office' }, { source: '2001:db8::/32' }];

describe('allowed sources on disk', () => {
  it('are kept across a restart and enforced from the first request', async () => {
    const dataDir = folder();
    let server: RunningServer = await start(dataDir);
    await clientFrom(hostOf(server.url), ADMIN_KEY).replaceSources({ source: LIST });
    await server.close();

    server = await start(dataDir);
    try {
      expect(await refusal(clientFrom(hostOf(server.url), SEARCH_KEY).searchSingleIndex({ indexName: 'products' }))).toMatchObject({ status: 403 });
      expect(await clientFrom(hostOf(server.url), ADMIN_KEY).getSources()).toEqual(LIST);
    } finally {
      await server.close();
    }
  });

  it('keep every acknowledged change after kill -9', { timeout: 60_000 }, async () => {
    const dataDir = folder();
    let child = await spawnServer({ VITRINE_DATA_DIR: dataDir });
    const admin = clientFrom(hostOf(child.url), ADMIN_KEY);
    const range = (i: number) => `10.${i >> 8}.${i & 255}.0/24`;
    let acknowledged = 0;
    // One writer appending, one range after the other, until the kill lands, at a random moment.
    await writeUntilKilled(() => child.kill(), 1, async (running) => {
      try {
        for (let i = 0; running(); i++) {
          await admin.appendSource({ source: range(i), description: `range ${i}` });
          acknowledged = i + 1;
        }
      } catch {
        // The server died under the request.
      }
    });

    child = await spawnServer({ VITRINE_DATA_DIR: dataDir });
    try {
      const kept = await clientFrom(hostOf(child.url), ADMIN_KEY).getSources();
      expect(acknowledged).toBeGreaterThan(0);
      // Every acknowledged append, in order; the one the kill cut off may or may not have landed, whole.
      expect([acknowledged, acknowledged + 1]).toContain(kept.length);
      expect(kept).toEqual(Array.from({ length: kept.length }, (_, i) => ({ source: range(i), description: `range ${i}` })));
    } finally {
      await child.kill();
    }
  });

  it('are in a backup\'s copy, which serves them', async () => {
    const server = await start(folder());
    const copy = `${folder()}/backup`;
    try {
      await clientFrom(hostOf(server.url), ADMIN_KEY).replaceSources({ source: LIST });
      expect(await backupTo(server.url, copy)).toContain('done');
    } finally {
      await server.close();
    }
    const restored = await start(copy);
    try {
      expect(await clientFrom(hostOf(restored.url), ADMIN_KEY).getSources()).toEqual(LIST);
    } finally {
      await restored.close();
    }
  });
});
