/**
 * A/B tests outlive the process: every acknowledged creation and stop is there after `kill -9`, and so are the
 * figures of the events acknowledged before it (attributed in the events' own transaction); a backup's copy of
 * the data folder serves them.
 */
import { algoliasearch } from 'algoliasearch';
import type { AbtestingClient, Algoliasearch } from 'algoliasearch';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer } from '../src/index.ts';
import { ADMIN_KEY, APP_ID, backupTo, removeDir, SEARCH_KEY, spawnServer, tempDir, writeUntilKilled } from '../src/test-support.ts';
import { PRODUCTS } from './catalogue.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

function folder(): string {
  const dir = tempDir('vitrine-abtests-');
  dirs.push(dir);
  return dir;
}

const clients = (url: string): { admin: Algoliasearch; abtesting: AbtestingClient } => {
  const hosts = [{ url: new URL(url).host, protocol: 'http' as const, accept: 'readWrite' as const }];
  const admin = algoliasearch(APP_ID, ADMIN_KEY, { hosts });
  return { admin, abtesting: admin.initAbtesting({ options: { hosts } }) };
};
const endAt = () => new Date(Date.now() + 7 * 86_400_000).toISOString();
const test = (name: string) => ({ name, variants: [{ index: 'products', trafficPercentage: 50 }, { index: 'products_b', trafficPercentage: 50 }], endAt: endAt() });

describe('A/B tests on disk', () => {
  it('keep every acknowledged change, and the figures of acknowledged events, after kill -9', { timeout: 60_000 }, async () => {
    const dataDir = folder();
    let child = await spawnServer({ VITRINE_DATA_DIR: dataDir });
    const { admin } = clients(child.url);
    let { abtesting } = clients(child.url);
    for (const indexName of ['products', 'products_b']) await admin.saveObjects({ indexName, objects: PRODUCTS, waitForTasks: true });

    // A test with a tracked search and a click acknowledged: the click must be counted after the kill.
    const { abTestID: first } = await abtesting.addABTests(test('first'));
    const search = algoliasearch(APP_ID, SEARCH_KEY, { hosts: [{ url: new URL(child.url).host, protocol: 'http', accept: 'readWrite' }] });
    const answer = await search.searchSingleIndex({ indexName: 'products', searchParams: { query: 'oak', clickAnalytics: true, userToken: 'u1' } });
    const variant = (answer as { abTestVariantID?: number }).abTestVariantID!;
    await search.initInsights({ options: { hosts: [{ url: new URL(child.url).host, protocol: 'http', accept: 'readWrite' }] } }).pushEvents({
      events: [{ eventType: 'click', eventName: 'Clicked', index: 'products', userToken: 'u1', queryID: answer.queryID!, objectIDs: [answer.hits[0].objectID], positions: [1] }],
    });
    await abtesting.stopABTest({ id: first });

    // Then one writer creating and stopping tests (an index is in one active test at a time), until the kill.
    const acknowledged: Array<{ id: number; stopped: boolean }> = [];
    await writeUntilKilled(() => child.kill(), 1, async (running) => {
      try {
        for (let i = 0; running(); i++) {
          const { abTestID } = await abtesting.addABTests(test(`test ${i}`));
          acknowledged.push({ id: abTestID, stopped: false });
          await abtesting.stopABTest({ id: abTestID });
          acknowledged[acknowledged.length - 1].stopped = true;
        }
      } catch {
        // The server died under the request.
      }
    });

    child = await spawnServer({ VITRINE_DATA_DIR: dataDir });
    ({ abtesting } = clients(child.url));
    try {
      expect(acknowledged.length).toBeGreaterThan(0);
      const { abtests, total } = await abtesting.listABTests({ limit: 1000 });
      // Every acknowledged test, and perhaps the one the kill cut off, whole.
      expect([acknowledged.length + 1, acknowledged.length + 2]).toContain(total);
      const byId = new Map(abtests!.map((t) => [t.abTestID, t]));
      for (const { id, stopped } of acknowledged) {
        expect(byId.get(id)?.name).toBe(`test ${acknowledged.findIndex((a) => a.id === id)}`);
        if (stopped) expect(byId.get(id)?.status).toBe('stopped');
      }
      const figures = (await abtesting.getABTest({ id: first })).variants[variant - 1];
      expect(figures).toMatchObject({ clickCount: 1, trackedSearchCount: 1, clickThroughRate: 1 });
    } finally {
      await child.kill();
    }
  });

  it('are in a backup\'s copy, which serves them', async () => {
    const dataDir = folder();
    const server = await startServer({ dataDir, appId: APP_ID, adminApiKey: ADMIN_KEY, searchApiKey: SEARCH_KEY, port: 0 });
    const copy = `${folder()}/backup`;
    let id: number;
    try {
      const { admin, abtesting } = clients(server.url);
      for (const indexName of ['products', 'products_b']) await admin.saveObjects({ indexName, objects: PRODUCTS, waitForTasks: true });
      ({ abTestID: id } = await abtesting.addABTests(test('kept')));
      expect(await backupTo(server.url, copy)).toContain('done');
    } finally {
      await server.close();
    }
    const restored = await startServer({ dataDir: copy, appId: APP_ID, adminApiKey: ADMIN_KEY, searchApiKey: SEARCH_KEY, port: 0 });
    try {
      expect(await clients(restored.url).abtesting.getABTest({ id })).toMatchObject({ name: 'kept', status: 'active' });
    } finally {
      await restored.close();
    }
  });
});
