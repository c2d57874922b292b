/**
 * The package on its own, with no HTTP server: a host made of one real engine index answers the searches and
 * record reads insights asks for, and the handle is driven directly, as the server's routes drive it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { SearchIndex } from '@vitrine/engine';
import type { IndexRecord, InsightsEvent } from '@vitrine/protocol';
import { InsightsError, openInsights, tagsClause } from './index.ts';
import type { Insights, InsightsCaller } from './index.ts';
import { removeDir, tempDir } from './test-support.ts';

const NOW = Date.UTC(2025, 5, 15, 12);
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/** A key that may read only the indexes named. */
function callerFor(...indexes: string[]): InsightsCaller {
  return {
    requireIndex(indexName) {
      if (!indexes.includes(indexName)) throw Object.assign(new Error('Index not allowed with this API key'), { statusCode: 403 });
    },
    visibilityKey: indexes.join(','),
  };
}

function openOver(records: IndexRecord[]): Insights {
  const index = new SearchIndex({ searchableAttributes: ['name'], attributesForFaceting: ['objectID', 'brand'] });
  index.saveObjects(records);
  const dir = tempDir();
  dirs.push(dir);
  const missing = () => Object.assign(new Error('Index does not exist'), { statusCode: 404 });
  return openInsights({
    dataDir: dir,
    now: () => NOW,
    options: { checkpointIntervalMs: 0, modelRebuildIntervalMs: 0, suggestionsRebuildIntervalMs: 0 },
    search: (indexName, params) => {
      if (indexName !== 'products') throw missing();
      return index.search(params);
    },
    getObjects: (indexName, ids) => (indexName === 'products' ? index.getObjects(ids).map((record) => record ?? null) : ids.map(() => null)),
    listIndices: () => ['products'],
    saveSuggestions: async () => {},
  });
}

const purchase = (userToken: string, objectIDs: string[], minutesAgo: number): InsightsEvent & { timestamp: number } => ({
  eventType: 'conversion',
  eventSubtype: 'purchase',
  eventName: 'Purchased',
  index: 'products',
  userToken,
  objectIDs,
  timestamp: NOW - minutesAgo * 60_000,
});

describe('openInsights, without a server', () => {
  const records = [
    { objectID: 'lamp', name: 'Desk lamp', brand: 'Lumio' },
    { objectID: 'bulb', name: 'LED bulb', brand: 'Lumio' },
    { objectID: 'chair', name: 'Office chair', brand: 'Sitwell' },
  ];

  it('stores a valid batch of events and refuses an invalid one whole, with the Insights API status', async () => {
    const insights = openOver(records);
    await insights.recordEvents({ events: [purchase('u1', ['lamp'], 5)] });
    const invalid = insights.recordEvents({ events: [purchase('u2', ['chair'], 1), { ...purchase('u3', ['bulb'], 1), eventName: '' }] });
    await expect(invalid).rejects.toBeInstanceOf(InsightsError);
    await expect(invalid).rejects.toMatchObject({ statusCode: 422 });
    expect(insights.listEvents().map((e) => e.event.userToken)).toEqual(['u1']);
    insights.deleteUserEvents('u1');
    expect(insights.listEvents()).toEqual([]);
    expect(() => insights.deleteUserEvents('not a token!')).toThrow(InsightsError);
    await insights.stop();
  });

  it('recommends what was bought together, through the host’s searches, and asks the caller first', async () => {
    const insights = openOver(records);
    await insights.recordEvents({ events: [purchase('u1', ['lamp', 'bulb'], 30), purchase('u2', ['lamp', 'bulb'], 20), purchase('u3', ['chair'], 10)] });
    await insights.rebuildModels();
    const body = { requests: [{ indexName: 'products', model: 'bought-together', objectID: 'lamp' }] };
    const { results } = await insights.recommend(body, callerFor('products'));
    expect(results[0].hits.map((hit) => ('objectID' in hit ? hit.objectID : hit.facetValue))).toEqual(['bulb']);
    await expect(insights.recommend(body, callerFor('other'))).rejects.toMatchObject({ statusCode: 403 });
    const unknown = { requests: [{ indexName: 'missing', model: 'bought-together', objectID: 'lamp' }] };
    await expect(insights.recommend(unknown, null)).rejects.toMatchObject({ statusCode: 404, message: 'Index does not exist' });
    await insights.stop();
  });

  it('counts logged searches in the analytics once they are settled', async () => {
    const insights = openOver(records);
    // Three shoppers: searches of different users are never aggregated into one.
    for (const [i, query] of ['lamp', 'lamp', 'chair'].entries()) {
      insights.recordSearch({ index: 'products', query, nbHits: 1, objectIDs: [query], userToken: `shopper-${i}`, timestamp: NOW, analytics: true });
    }
    await insights.settleSearches();
    const dayNumber = Math.floor(NOW / 86_400_000);
    const top = insights.analytics.topSearches({
      index: 'products', fromDay: dayNumber, toDay: dayNumber, tags: tagsClause(undefined), limit: 10, offset: 0, search: undefined,
      clickAnalytics: false, revenueAnalytics: false, orderBy: 'searchCount', direction: 'desc',
    });
    expect(top).toMatchObject({ searches: [{ search: 'lamp', count: 2 }, { search: 'chair', count: 1 }] });
    await insights.stop();
  });
});
