/**
 * The demo starts with learning on: its `products` settings enable re-ranking, and the 30 days of history it
 * generates (tracked searches, clicks at their positions, purchases) give the model boosts, which move hits of the
 * demo's queries, explained in `_rankingInfo`, and categorise them.
 */
import { demoIndexName, demoSettings, generateHistory, generateProducts } from '@vitrine/demo';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_KEY, startTestServer } from '../../src/test-support.ts';
import type { TestServer } from '../../src/test-support.ts';

describe('the demo learns from its generated history', () => {
  let t: TestServer;
  const products = [...generateProducts(2000)];

  beforeAll(async () => {
    t = await startTestServer({
      config: { insights: { modelRebuildIntervalMs: 0, suggestionsRebuildIntervalMs: 0 } },
      index: { name: demoIndexName, settings: demoSettings, records: products },
    });
    expect(await t.server.insights.seedIfEmpty(generateHistory(products, { sessionsPerDay: 150 }))).toBe(true);
  });
  afterAll(() => t?.close());

  it('re-ranks the demo\'s queries from its history', async () => {
    const { queries, boosted } = t.server.insights.reRankingStats();
    expect(queries).toBeGreaterThan(0);
    expect(boosted).toBeGreaterThan(0);
    // A query with boosts: its first hit not pinned by a rule is a boosted one, and says so; learning off, the order differs.
    const [query] = (await t.call('GET', `/2/searches?index=${demoIndexName}&limit=1000`)).body.searches
      .map((row: { search: string }) => row.search)
      .filter((search: string) => t.server.insights.reRankingFor(demoIndexName, search) !== undefined);
    expect(query).toBeDefined();
    const search = async (params: Record<string, unknown>) => (await t.call('POST', `/1/indexes/${demoIndexName}/query`, { query, getRankingInfo: true, hitsPerPage: 50, ...params }, SEARCH_KEY)).body;
    const learned = await search({});
    const plain = await search({ enableReRanking: false });
    const first = learned.hits.find((hit: { _rankingInfo?: { promoted?: boolean } }) => hit._rankingInfo?.promoted !== true);
    expect(first._rankingInfo).toMatchObject({ promotedByReRanking: true, reRanking: { score: expect.any(Number) } });
    expect(learned.hits.map((hit: { objectID: string }) => hit.objectID)).not.toEqual(plain.hits.map((hit: { objectID: string }) => hit.objectID));
    expect(learned.nbHits).toBe(plain.nbHits);
  });
});
