/**
 * A server-rendered first page is ordered as the browser's searches after it, learning included, over a real
 * socket with the built renderer: the demo's history taught re-ranking boosts, and a search page's hits (from
 * the page's state, what hydration starts from) are those the HTTP multi-query answers for the same parameters,
 * not those with learning off; with the storefront's user token cookie, the page is personalized for that
 * shopper as the HTTP search with their user token is.
 */
import { describe, expect, it } from 'vitest';
import { demoIndexName } from '@vitrine/demo';
import { pageStateElementId } from '../src/lib/page-state.ts';
import { openShopPage, useShop } from './harness.ts';

type RawResult = { hits: Array<{ objectID: string; _rankingInfo?: { promotedByReRanking?: boolean } }>; params: string };

describe('server-rendered pages and learning', () => {
  const shop = useShop({ history: { sessionsPerDay: 150 }, personalization: true });

  const headers = () => ({ 'x-algolia-application-id': shop.harness.appId, 'x-algolia-api-key': shop.harness.searchApiKey });
  /** The first result of a rendered page's InstantSearch state: its hits and the parameters it was searched with. */
  const rendered = async (path: string, cookie?: string): Promise<RawResult> => {
    const response = await fetch(`${shop.harness.baseURL}${path}`, { headers: { accept: 'text/html', ...(cookie ? { cookie } : {}) } });
    expect(response.status).toBe(200);
    const text = await response.text();
    const state = JSON.parse(new RegExp(`<script type="application/json" id="${pageStateElementId}">([\\s\\S]*?)</script>`).exec(text)![1]);
    const [first] = Object.values(state.search.initialResults as Record<string, { results: RawResult[] }>);
    return first.results[0];
  };
  /** The same search through the HTTP route, as the browser sends it (`extra` on top of the page's parameters). */
  const http = async (params: string, extra: Record<string, unknown> = {}): Promise<string[]> => {
    const body = { requests: [{ indexName: demoIndexName, params, ...extra }] };
    const response = await fetch(`${shop.harness.baseURL}/1/indexes/*/queries`, { method: 'POST', headers: headers(), body: JSON.stringify(body) });
    expect(response.status).toBe(200);
    return ((await response.json()) as { results: RawResult[] }).results[0].hits.map((hit) => hit.objectID);
  };
  const ids = (result: RawResult) => result.hits.map((hit) => hit.objectID);

  it('orders a search page by the boosts re-ranking learned, as the HTTP search does', async () => {
    const { server } = shop.harness;
    const top = await fetch(`${shop.harness.baseURL}/2/searches?index=${demoIndexName}&limit=1000`, { headers: { ...headers(), 'x-algolia-api-key': shop.harness.adminApiKey } });
    const queries = ((await top.json()) as { searches: Array<{ search: string }> }).searches.map((row) => row.search).filter((query) => server.insights.reRankingFor(demoIndexName, query) !== undefined);
    // A query whose first page learning changes.
    let page: RawResult | undefined;
    for (const query of queries) {
      const candidate = await rendered(`/search?q=${encodeURIComponent(query)}`);
      if (ids(candidate).join() !== (await http(candidate.params, { enableReRanking: false })).join()) page = candidate;
      if (page) break;
    }
    expect(page).toBeDefined();
    expect(ids(page!)).toEqual(await http(page!.params));
  });

  it("personalizes the page for the shopper the storefront's cookie names, as the HTTP search with their token", async () => {
    const anonymous = await rendered('/');
    let personal: { token: string; page: RawResult } | undefined;
    for (let i = 0; !personal && i < 50; i++) {
      const token = `demo-user-${i}`;
      const page = await rendered('/', `vitrine_user=${token}`);
      if (ids(page).join() !== ids(anonymous).join()) personal = { token, page };
    }
    expect(personal).toBeDefined();
    const { token, page } = personal!;
    expect(ids(page)).toEqual(await http(page.params, { userToken: token }));
    expect(ids(anonymous)).toEqual(await http(anonymous.params));
  });

  it("gives the server the shopper's token: the browser keeps it in the cookie the pages read", async () => {
    const { page } = shop;
    await openShopPage(page, '/');
    const token = await page.evaluate(() => localStorage.getItem('vitrine.userToken'));
    expect(token).toMatch(/^anon-[0-9a-f]{24}$/);
    const cookies = await page.context().cookies();
    expect(cookies.find((cookie) => cookie.name === 'vitrine_user')).toMatchObject({ value: token, path: '/', sameSite: 'Lax' });
  });
});
