/**
 * Personalization outlives the process: the strategy and the profiles across a restart (the profiles serve
 * from the first request, before any build), a deleted profile stays deleted, and an acknowledged strategy is
 * there after `kill -9`.
 */
import { algoliasearch } from 'algoliasearch';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer } from '../../src/index.ts';
import type { RunningServer } from '../../src/index.ts';
import { ADMIN_KEY, APP_ID, removeDir, SEARCH_KEY, spawnServer, tempDir } from '../../src/test-support.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

function folder(): string {
  const dir = tempDir('vitrine-personalization-');
  dirs.push(dir);
  return dir;
}

const STRATEGY = { eventsScoring: [{ eventName: 'Clicked', eventType: 'click' as const, score: 30 }], facetsScoring: [{ facetName: 'brand', score: 60 }], personalizationImpact: 70 };
const SETTINGS = { searchableAttributes: ['name'], attributesForFaceting: ['brand'] };
const RECORDS = [{ objectID: 'a', name: 'kettle', brand: 'Acme' }, { objectID: 'b', name: 'kettle', brand: 'Bolt' }];

function clients(url: string) {
  const hosts = [{ url: new URL(url).host, protocol: 'http' as const, accept: 'readWrite' as const }];
  return {
    admin: algoliasearch(APP_ID, ADMIN_KEY, { hosts }),
    personalization: algoliasearch(APP_ID, ADMIN_KEY, { hosts }).initPersonalization({ region: 'us', options: { hosts } }),
    insights: algoliasearch(APP_ID, SEARCH_KEY, { hosts }).initInsights({ options: { hosts } }),
  };
}

async function status(call: Promise<unknown>): Promise<number> {
  return call.then(() => 200, (error: { status?: number }) => error.status ?? 0);
}

describe('personalization on disk', () => {
  it('keeps the strategy and the profiles across a restart, and a deletion stays', async () => {
    const dataDir = folder();
    const start = () => startServer({ dataDir, appId: APP_ID, adminApiKey: ADMIN_KEY, searchApiKey: SEARCH_KEY, port: 0, insights: { modelRebuildIntervalMs: 0, suggestionsRebuildIntervalMs: 0 } });
    let server: RunningServer = await start();
    try {
      const c = clients(server.url);
      await c.admin.waitForTask({ indexName: 'shop', taskID: (await c.admin.setSettings({ indexName: 'shop', indexSettings: SETTINGS })).taskID });
      await c.admin.waitForTask({ indexName: 'shop', taskID: (await c.admin.saveObjects({ indexName: 'shop', objects: RECORDS })).at(-1)!.taskID });
      await c.personalization.setPersonalizationStrategy(STRATEGY);
      await c.insights.pushEvents({
        events: [
          { eventType: 'click', eventName: 'Clicked', index: 'shop', userToken: 'kept', objectIDs: ['b'] },
          { eventType: 'click', eventName: 'Clicked', index: 'shop', userToken: 'gone', objectIDs: ['a'] },
        ],
      });
      await server.insights.rebuildModels();
      expect((await c.personalization.getUserTokenProfile({ userToken: 'kept' })).scores).toEqual({ brand: { Bolt: 100 } });
      await c.personalization.deleteUserProfile({ userToken: 'gone' });
    } finally {
      await server.close();
    }

    server = await start();
    try {
      const c = clients(server.url);
      expect(await c.personalization.getPersonalizationStrategy()).toEqual(STRATEGY);
      expect((await c.personalization.getUserTokenProfile({ userToken: 'kept' })).scores).toEqual({ brand: { Bolt: 100 } });
      expect(await status(c.personalization.getUserTokenProfile({ userToken: 'gone' }))).toBe(404);
      const personalized = await c.admin.searchSingleIndex({ indexName: 'shop', searchParams: { query: 'kettle', userToken: 'kept', enablePersonalization: true } });
      expect(personalized.hits.map((hit) => hit.objectID)).toEqual(['b', 'a']);
      await server.insights.rebuildModels();
      expect(await status(c.personalization.getUserTokenProfile({ userToken: 'gone' }))).toBe(404);
      expect((await c.personalization.getUserTokenProfile({ userToken: 'kept' })).scores).toEqual({ brand: { Bolt: 100 } });
    } finally {
      await server.close();
    }
  });

  it('keeps an acknowledged strategy after kill -9', { timeout: 60_000 }, async () => {
    const dataDir = folder();
    let child = await spawnServer({ VITRINE_DATA_DIR: dataDir });
    try {
      const c = clients(child.url);
      await c.admin.waitForTask({ indexName: 'shop', taskID: (await c.admin.setSettings({ indexName: 'shop', indexSettings: SETTINGS })).taskID });
      await c.personalization.setPersonalizationStrategy(STRATEGY);
    } finally {
      await child.kill();
    }
    child = await spawnServer({ VITRINE_DATA_DIR: dataDir });
    try {
      expect(await clients(child.url).personalization.getPersonalizationStrategy()).toEqual(STRATEGY);
    } finally {
      await child.kill();
    }
  });
});
