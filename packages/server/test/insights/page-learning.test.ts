/**
 * Server-rendered pages are searched with what the shop learned, exactly as the search route searches: a page
 * rendered over a real socket (a renderer module written for the test, searching through the page backend) lists
 * the hits the HTTP multi-query answers for the same query, with re-ranking's boost applied for anyone, and with
 * the shopper's personalization and A/B test variant when the page request carries the storefront's user token
 * cookie (`vitrine_user`); a malformed cookie counts as none. Re-ranking steps aside on a personalized search
 * unless the search allows it (`allowReRankingOnPersonalization`).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, SEARCH_KEY, startTestServer } from '../../src/test-support.ts';
import type { TestServer } from '../../src/test-support.ts';

const records = Array.from({ length: 30 }, (_, i) => ({
  objectID: `p${i + 1}`, name: `desk lamp ${i + 1}`, brand: i % 2 === 0 ? 'Acme' : 'Bolt', popularity: 100 - i,
}));
const settings = { searchableAttributes: ['name'], attributesForFaceting: ['brand'], customRanking: ['desc(popularity)'], enableReRanking: true, enablePersonalization: true };
/** Shoppers click it far more than its place (12th for "lamp") predicts. */
const PREFERRED = 'p12';
const FAN = 'bolt-fan';

/** The page: the hits of its `q` (and what the first result says of its A/B test), as JSON in the HTML. */
const RENDERER = `
  export async function render(request, backend) {
    const query = new URL(request.url, 'http://x').searchParams.get('q') ?? '';
    const { results } = await backend.search([{ indexName: 'shop', params: { query, hitsPerPage: 10 } }]);
    const [first] = results;
    return { status: 200, html: JSON.stringify({ ids: first.hits.map((hit) => hit.objectID), variant: first.abTestVariantID ?? null }) };
  }
  export async function sitemapPaths() { return []; }
`;

describe('server-rendered pages and learning', () => {
  let t: TestServer;
  let staticRoot: string;

  const page = async (query: string, cookie?: string): Promise<{ ids: string[]; variant: number | null }> => {
    const response = await fetch(`${t.url}/search?q=${encodeURIComponent(query)}`, { headers: { accept: 'text/html', ...(cookie ? { cookie } : {}) } });
    expect(response.status).toBe(200);
    return JSON.parse(await response.text());
  };
  /** The browser's search after hydration: the multi-query route, the user token as InstantSearch's insights sends it. */
  const http = async (query: string, params: Record<string, unknown> = {}): Promise<{ ids: string[]; variant: number | null }> => {
    const { status, body } = await t.call('POST', '/1/indexes/*/queries', { requests: [{ indexName: 'shop', query, hitsPerPage: 10, ...params }] }, SEARCH_KEY);
    expect(status).toBe(200);
    const [first] = body.results;
    return { ids: first.hits.map((hit: { objectID: string }) => hit.objectID), variant: first.abTestVariantID ?? null };
  };

  beforeAll(async () => {
    staticRoot = mkdtempSync(join(tmpdir(), 'vitrine-static-'));
    writeFileSync(join(staticRoot, 'index.html'), '<!doctype html><title>Shell</title>');
    writeFileSync(join(staticRoot, 'renderer.mjs'), RENDERER);
    t = await startTestServer({
      config: {
        insights: { modelRebuildIntervalMs: 0, suggestionsRebuildIntervalMs: 0 },
        staticRoot, storefrontRenderer: join(staticRoot, 'renderer.mjs'),
        storefrontConfig: { provider: 'vitrine', appId: 'test-app', searchApiKey: SEARCH_KEY, indexName: 'shop' },
      },
      index: { name: 'shop', settings, records },
    });
    // A variant index for the A/B test: the same records, least popular first.
    await t.server.store.waitForTask((await t.server.store.setSettings('shop_b', { ...settings, customRanking: ['asc(popularity)'] })).taskID);
    await t.server.store.waitForTask((await t.server.store.saveObjects('shop_b', records)).taskID);
    const strategy = { eventsScoring: [{ eventName: 'Product Clicked', eventType: 'click', score: 100 }], facetsScoring: [{ facetName: 'brand', score: 100 }], personalizationImpact: 100 };
    expect((await t.call('POST', '/1/strategies/personalization', strategy)).status).toBe(200);
    // Shoppers searching "lamp" click the first places by turns, and one search in five the 12th hit.
    const events: Array<Record<string, unknown>> = [];
    for (let i = 0; i < 200; i++) {
      const userToken = `shopper-${i}`;
      const { body } = await t.call('POST', '/1/indexes/shop/query', { query: 'lamp', hitsPerPage: 20, clickAnalytics: true, userToken }, SEARCH_KEY);
      const ids: string[] = body.hits.map((hit: { objectID: string }) => hit.objectID);
      const position = i % 5 === 0 ? ids.indexOf(PREFERRED) + 1 : (i % 4) + 1;
      events.push({ eventType: 'click', eventName: 'Hit Clicked', index: 'shop', userToken, queryID: body.queryID, objectIDs: [ids[position - 1]], positions: [position] });
    }
    // One shopper clicks Bolt products only.
    for (const id of ['p2', 'p4', 'p6']) events.push({ eventType: 'click', eventName: 'Product Clicked', index: 'shop', userToken: FAN, objectIDs: [id] });
    for (let i = 0; i < events.length; i += 100) expect((await t.call('POST', '/1/events', { events: events.slice(i, i + 100) }, SEARCH_KEY)).status).toBe(200);
    await t.server.insights.settleSearches();
    expect((await t.call('POST', '/1/vitrine/recommend/build', {})).status).toBe(200);
    expect((await t.call('GET', `/1/profiles/personalization/${FAN}`)).status).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
    removeDir(staticRoot);
  });

  it('orders a page by the learned boost, as the search route does', async () => {
    const rendered = await page('lamp');
    expect(rendered.ids[0]).toBe(PREFERRED);
    expect(rendered).toEqual(await http('lamp'));
    // Learning off, the page would differ: the boost is what moved it.
    expect((await http('lamp', { enableReRanking: false })).ids).not.toEqual(rendered.ids);
  });

  it("personalizes a page for the shopper its cookie names, as the route does for the browser's user token", async () => {
    const anonymous = await page('desk');
    expect(anonymous.ids.slice(0, 2)).toEqual(['p1', 'p2']);
    const personal = await page('desk', `theme=dark; vitrine_user=${FAN}`);
    expect(personal).toEqual(await http('desk', { userToken: FAN }));
    expect(personal.ids.slice(0, 5).every((id) => Number(id.slice(1)) % 2 === 0)).toBe(true);
    // A cookie that is no user token counts as none.
    expect(await page('desk', 'vitrine_user=%3Cscript%3E')).toEqual(anonymous);
  });

  it('keeps re-ranking off a personalized search unless it says allowReRankingOnPersonalization, in either params form', async () => {
    // The boosted lamp is a Bolt, the sixth by popularity: personalization alone puts the most popular Bolt first.
    expect((await http('lamp', { userToken: FAN })).ids[0]).toBe('p2');
    expect((await page('lamp', `vitrine_user=${FAN}`)).ids[0]).toBe('p2');
    expect((await http('lamp', { userToken: FAN, allowReRankingOnPersonalization: true })).ids[0]).toBe(PREFERRED);
    const encoded = await t.call('POST', '/1/indexes/shop/query', { params: `query=lamp&userToken=${FAN}&allowReRankingOnPersonalization=true` }, SEARCH_KEY);
    expect(encoded.body.hits[0].objectID).toBe(PREFERRED);
    const bad = await t.call('POST', '/1/indexes/shop/query', { query: 'lamp', allowReRankingOnPersonalization: 'sometimes' }, SEARCH_KEY);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ status: 400, message: expect.stringContaining('allowReRankingOnPersonalization') });
  });

  it("puts a page in the A/B test variant of the cookie's shopper, and no one else's", async () => {
    const test = { name: 'Least popular first', variants: [{ index: 'shop', trafficPercentage: 50 }, { index: 'shop_b', trafficPercentage: 50 }], endAt: new Date(Date.now() + 86_400_000).toISOString() };
    expect((await t.call('POST', '/2/abtests', test)).status).toBe(200);
    const tokens = Array.from({ length: 40 }, (_, i) => `visitor-${i}`);
    const variants = await Promise.all(tokens.map(async (token) => (await http('desk', { userToken: token })).variant));
    const inB = tokens[variants.indexOf(2)];
    const inA = tokens[variants.indexOf(1)];
    expect(inB).toBeDefined();
    expect(inA).toBeDefined();
    const b = await page('desk', `vitrine_user=${inB}`);
    expect(b).toEqual(await http('desk', { userToken: inB }));
    expect(b.ids[0]).toBe('p30');
    expect(await page('desk', `vitrine_user=${inA}`)).toEqual(await http('desk', { userToken: inA }));
    // Without a token the page is in no variant: the browser's searches are split by a token the server does not know.
    expect((await page('desk')).variant).toBeNull();
  });
});
