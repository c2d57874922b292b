/**
 * Dynamic re-ranking end to end over a socket: tracked searches and click events in (as the storefront sends
 * them), a model build, and the record shoppers clicked far more than its position predicts moves up for that
 * query, with `_rankingInfo` saying why; the hit set, filters, a secured key's filter, a rule's pin and
 * `enableReRanking: false` are respected; records clicked as their positions predict do not move.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_KEY, securedApiKey, startTestServer } from '../../src/test-support.ts';
import type { TestServer } from '../../src/test-support.ts';

const SEARCHES = 200;
/** The record shoppers prefer, shown at position 12 for "lamp". */
const PREFERRED = 'p12';

const records = Array.from({ length: 30 }, (_, i) => ({
  objectID: `p${i + 1}`, name: `desk lamp ${i + 1}`, brand: i % 2 === 0 ? 'Acme' : 'Bolt', popularity: 100 - i,
}));

type Hit = { objectID: string; _rankingInfo?: { promotedByReRanking?: boolean; reRanking?: { score: number; clicks: number; conversions: number; expectedClicks: number } } };

describe('dynamic re-ranking over HTTP', () => {
  let t: TestServer;
  const lamp = async (params: Record<string, unknown> = {}, key = SEARCH_KEY): Promise<{ nbHits: number; hits: Hit[] }> => {
    const { status, body } = await t.call('POST', '/1/indexes/shop/query', { query: 'lamp', hitsPerPage: 30, getRankingInfo: true, ...params }, key);
    expect(status).toBe(200);
    return body;
  };
  const order = (hits: Hit[]) => hits.map((hit) => hit.objectID);

  beforeAll(async () => {
    t = await startTestServer({
      config: { insights: { modelRebuildIntervalMs: 0, suggestionsRebuildIntervalMs: 0 } },
      index: { name: 'shop', settings: { searchableAttributes: ['name'], attributesForFaceting: ['brand'], customRanking: ['desc(popularity)'], enableReRanking: true }, records },
    });
    // Shoppers click the first four places by turns (as their positions predict) and, one search in five, p12.
    const events: Array<Record<string, unknown>> = [];
    for (let i = 0; i < SEARCHES; i++) {
      const userToken = `shopper-${i}`;
      const { status, body } = await t.call('POST', '/1/indexes/shop/query', { query: 'Lamp ', hitsPerPage: 20, clickAnalytics: true, userToken }, SEARCH_KEY);
      expect(status).toBe(200);
      const ids: string[] = body.hits.map((hit: Hit) => hit.objectID);
      const position = i % 5 === 0 ? ids.indexOf(PREFERRED) + 1 : (i % 4) + 1;
      events.push({ eventType: 'click', eventName: 'Hit Clicked', index: 'shop', userToken, queryID: body.queryID, objectIDs: [ids[position - 1]], positions: [position] });
    }
    expect(order((await lamp()).hits).indexOf(PREFERRED)).toBe(11);
    for (let i = 0; i < events.length; i += 100) expect((await t.call('POST', '/1/events', { events: events.slice(i, i + 100) }, SEARCH_KEY)).status).toBe(200);
    await t.server.insights.settleSearches();
    expect((await t.call('POST', '/1/vitrine/recommend/build', {})).status).toBe(200);
  });
  afterAll(() => t?.close());

  it('moves the record clicked more than its position predicts to the top, and says why', async () => {
    const before = await lamp({ enableReRanking: false });
    const after = await lamp();
    expect(order(before.hits).indexOf(PREFERRED)).toBe(11);
    expect(order(after.hits)[0]).toBe(PREFERRED);
    // The same hits, only re-ordered; the others keep their order.
    expect(after.nbHits).toBe(before.nbHits);
    expect(order(after.hits).slice(1)).toEqual(order(before.hits).filter((id) => id !== PREFERRED));
    const info = after.hits[0]._rankingInfo!;
    expect(info.promotedByReRanking).toBe(true);
    expect(info.reRanking!.clicks).toBe(SEARCHES / 5);
    expect(info.reRanking!.expectedClicks).toBeLessThan(info.reRanking!.clicks / 2);
    expect(info.reRanking!.score).toBeGreaterThan(1.2);
    // The shop's click curve never predicts more clicks lower down.
    const curve = t.server.insights.reRankingStats().curves.shop;
    for (let p = 1; p < curve.length; p++) expect(curve[p]).toBeLessThanOrEqual(curve[p - 1]);
    // Clicked as their places predict: not boosted.
    expect(after.hits.slice(1).some((hit) => hit._rankingInfo?.promotedByReRanking)).toBe(false);
    expect(before.hits.some((hit) => hit._rankingInfo?.promotedByReRanking)).toBe(false);
  });

  it('keys the model by the query as analytics normalises it; other queries are untouched', async () => {
    expect(order((await lamp({ query: '  LAMP' })).hits)[0]).toBe(PREFERRED);
    const { body } = await t.call('POST', '/1/indexes/shop/query', { query: 'desk', hitsPerPage: 30 }, SEARCH_KEY);
    expect(body.hits[0].objectID).toBe('p1');
  });

  it('never brings in a record the filters or a secured key leave out', async () => {
    // p12 is a Bolt (odd index 11).
    const acme = await lamp({ filters: 'brand:Acme' });
    expect(order(acme.hits)).not.toContain(PREFERRED);
    expect(acme.nbHits).toBe(15);
    const secured = securedApiKey(SEARCH_KEY, { filters: 'brand:Acme' });
    expect(order((await lamp({}, secured)).hits)).toEqual(order(acme.hits));
    const bolt = await lamp({ filters: 'brand:Bolt' });
    expect(order(bolt.hits)[0]).toBe(PREFERRED);
    // reRankingApplyFilter restricts which records may move.
    expect(order((await lamp({ reRankingApplyFilter: 'brand:Acme' })).hits).indexOf(PREFERRED)).toBe(11);
  });

  it('never moves past a rule\'s pin', async () => {
    const rule = { objectID: 'pin-p5', conditions: [{ anchoring: 'is', pattern: 'lamp' }], consequence: { promote: [{ objectID: 'p5', position: 0 }] } };
    const { status, body } = await t.call('PUT', '/1/indexes/shop/rules/pin-p5', rule);
    expect(status).toBe(200);
    await t.server.store.waitForTask(body.taskID);
    const pinned = await lamp();
    expect(order(pinned.hits).slice(0, 2)).toEqual(['p5', PREFERRED]);
    expect((await t.call('DELETE', '/1/indexes/shop/rules/pin-p5')).status).toBe(200);
  });

  it('answers a malformed reRankingApplyFilter or enableReRanking setting with a 400', async () => {
    const bad = await t.call('POST', '/1/indexes/shop/query', { query: 'lamp', reRankingApplyFilter: 7 }, SEARCH_KEY);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ status: 400, message: expect.stringContaining('reRankingApplyFilter') });
    const setting = await t.call('PUT', '/1/indexes/shop/settings', { enableReRanking: 'yes' });
    expect(setting.status).toBe(400);
    expect(setting.body.message).toContain('enableReRanking');
  });

  it('applies nothing while the index does not enable it', async () => {
    const { body } = await t.call('PUT', '/1/indexes/shop/settings', { enableReRanking: false });
    await t.server.store.waitForTask(body.taskID);
    expect(order((await lamp()).hits).indexOf(PREFERRED)).toBe(11);
  });
});
