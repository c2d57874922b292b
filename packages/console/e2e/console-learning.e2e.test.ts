/**
 * The console shows what the shop learned, against the real server seeded as `vitrine start` seeds the demo
 * (its generated history, its personalization strategy, the profiles built from them): the Personalization
 * screen shows the demo's strategy and a generated shopper's profile; the Learning screen puts a query's page
 * with learning off beside the learned one, a hit boosted by re-ranking marked moved up, and why.
 */
import { describe, expect, it } from 'vitest';
import { demoIndexName, demoPersonalizationStrategy } from '@vitrine/demo';
import { api, openScreen, useSignedInConsole } from './console-helpers.ts';

const session = useSignedInConsole({ history: { sessionsPerDay: 150 }, personalization: true });

type Hit = { objectID: string; _rankingInfo?: { promotedByReRanking?: boolean } };

describe('console: what learning changed', () => {
  it("shows the demo's personalization strategy, and a generated shopper's profile", async () => {
    const { page, harness } = session;
    await openScreen(page, 'Personalization');
    const facets = page.getByRole('table', { name: 'Facets scored' });
    await expect.poll(() => facets.locator('tbody tr').first().locator('th, td').allTextContents()).toEqual(['brand', '100']);
    const events = page.getByRole('table', { name: 'Events scored' });
    expect(await events.locator('tbody tr').count()).toBe(demoPersonalizationStrategy.eventsScoring.length);
    expect(await events.locator('tbody tr', { hasText: 'Purchased' }).locator('th, td').allTextContents()).toEqual(['Purchased', 'conversion', '100']);
    expect(JSON.parse(await page.getByLabel('Personalization strategy (JSON)').inputValue())).toEqual(demoPersonalizationStrategy);

    // A shopper of the generated history with a profile (most have one; the API says which).
    let shopper: string | undefined;
    for (let i = 0; shopper === undefined && i < 50; i++) {
      if ((await api(harness, 'GET', `/1/profiles/personalization/demo-user-${i}`)).status === 200) shopper = `demo-user-${i}`;
    }
    expect(shopper).toBeDefined();
    await page.getByLabel('User token').fill(shopper!);
    await page.getByRole('button', { name: 'Look up' }).click();
    const affinities = page.getByRole('table', { name: `Affinities of ${shopper}` });
    await expect.poll(() => affinities.locator('tbody tr').count()).toBeGreaterThan(0);
  });

  it('puts a query\'s page with learning off beside the learned one, the boosted hit marked moved up by re-ranking', async () => {
    const { page, harness } = session;
    // A query the history taught re-ranking something about, and a hit it moved up (asked of the API directly).
    const { json } = await api<{ searches: Array<{ search: string }> }>(harness, 'GET', `/2/searches?index=${demoIndexName}&limit=1000`);
    const search = async (query: string, params: Record<string, unknown>) =>
      (await api<{ hits: Hit[] }>(harness, 'POST', `/1/indexes/${demoIndexName}/query`, { query, hitsPerPage: 100, getRankingInfo: true, analytics: false, ...params })).json.hits;
    let found: { query: string; objectID: string; from: number; to: number } | undefined;
    for (const { search: query } of json.searches.filter((row) => harness.server.insights.reRankingFor(demoIndexName, row.search) !== undefined)) {
      const on = await search(query, {});
      const off = (await search(query, { enableReRanking: false })).map((hit) => hit.objectID);
      const to = on.slice(0, 20).findIndex((hit, i) => hit._rankingInfo?.promotedByReRanking === true && off.indexOf(hit.objectID) > i);
      if (to >= 0) found = { query, objectID: on[to].objectID, from: off.indexOf(on[to].objectID) + 1, to: to + 1 };
      if (found) break;
    }
    expect(found).toBeDefined();
    const { query, objectID, from, to } = found!;

    await openScreen(page, 'Learning');
    await page.getByLabel('Query', { exact: true }).fill(query);
    await page.getByRole('button', { name: 'Compare' }).click();
    const learned = page.getByRole('table', { name: 'Learning on' }).locator(`tbody tr[data-object-id="${objectID}"]`);
    await expect.poll(() => learned.getAttribute('data-move')).toBe('up');
    const cells = await learned.locator('th, td').allTextContents();
    expect(cells[0]).toBe(String(to));
    expect(cells[2]).toBe(`up ${from - to}`);
    expect(cells[3]).toBe(String(from));
    expect(cells[4]).toMatch(/^Re-ranking: \d+ clicks and \d+ conversions where its positions predicted [\d.,]+ clicks \(score [\d.]+\)/);
    await expect.poll(() => page.getByRole('status').allTextContents()).toContainEqual(expect.stringMatching(new RegExp(`^Learning moves \\d+ of the first \\d+ hits of “${query.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}”`)));
    if (from <= 20) {
      const plain = page.getByRole('table', { name: 'Learning off' }).locator(`tbody tr[data-object-id="${objectID}"]`);
      expect(await plain.locator('th, td').allTextContents()).toEqual([String(from), expect.any(String), String(to)]);
    }
  });

  it("shows a shopper's page personalized: hits their affinities moved up, and why", async () => {
    const { page, harness } = session;
    // A generated shopper whose landing page (the empty query) personalization changes, as the API tells.
    const ids = async (params: Record<string, unknown>) =>
      (await api<{ hits: Hit[] }>(harness, 'POST', `/1/indexes/${demoIndexName}/query`, { query: '', hitsPerPage: 20, analytics: false, ...params })).json.hits.map((hit) => hit.objectID).join();
    const plain = await ids({});
    let shopper: string | undefined;
    for (let i = 0; shopper === undefined && i < 50; i++) if ((await ids({ userToken: `demo-user-${i}` })) !== plain) shopper = `demo-user-${i}`;
    expect(shopper).toBeDefined();

    await openScreen(page, 'Learning');
    await page.getByLabel('Query', { exact: true }).fill('');
    await page.getByLabel('User token (optional)').fill(shopper!);
    await page.getByRole('button', { name: 'Compare' }).click();
    // The answer for this shopper, not the last query's still on screen.
    await expect.poll(() => page.getByRole('status').allTextContents()).toContainEqual(expect.stringMatching(new RegExp(`^Learning moves \\d+ of the first 20 hits of “” for ${shopper}`)));
    const moved = page.getByRole('table', { name: 'Learning on' }).locator('tbody tr[data-move="up"]');
    expect(await moved.count()).toBeGreaterThan(0);
    expect(await moved.first().locator('td').last().textContent()).toMatch(/^Personalization: affinity \d+ \(step \d+\)$/);
  });
});
