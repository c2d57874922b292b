/**
 * Personalization end to end over a real socket, through the official v5 clients: the strategy (set, read,
 * refused when malformed), events through the insights client, a model build, the user's profile, a
 * personalized search moving the user's brand up (the same hits; filters, a secured key's filter and a rule's
 * pin kept), and the profile's deletion (`deleteUserProfile`, `DELETE /1/usertokens`).
 */
import { algoliasearch } from 'algoliasearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, APP_ID, SEARCH_KEY, securedApiKey, startTestServer } from '../../src/test-support.ts';
import type { TestServer } from '../../src/test-support.ts';
import { refusal } from '../client-from.ts';

const BRANDS = ['Acme', 'Bolt', 'Cove', 'Dune'];
const records = Array.from({ length: 40 }, (_, i) => ({
  objectID: `p${i + 1}`, name: `desk lamp ${i + 1}`, brand: BRANDS[i % 4], color: i % 2 === 0 ? 'black' : 'white', popularity: 100 - i,
}));
const brandOf = new Map(records.map((r) => [r.objectID, r.brand]));
const STRATEGY = {
  eventsScoring: [
    { eventName: 'Product Clicked', eventType: 'click' as const, score: 50 },
    { eventName: 'Purchased', eventType: 'conversion' as const, score: 100 },
  ],
  facetsScoring: [{ facetName: 'brand', score: 100 }, { facetName: 'color', score: 10 }],
  personalizationImpact: 100,
};

type Hit = { objectID: string; brand: string; _rankingInfo?: { personalization?: { filtersScore: number; rankingScore: number; score: number } } };

describe('personalization over HTTP', () => {
  let t: TestServer;
  let hosts: Array<{ url: string; protocol: 'http'; accept: 'readWrite' }>;
  const personalization = () => algoliasearch(APP_ID, ADMIN_KEY, { hosts }).initPersonalization({ region: 'us', options: { hosts } });
  const lamp = async (params: Record<string, unknown> = {}, key = SEARCH_KEY): Promise<{ nbHits: number; hits: Hit[] }> => {
    const { status, body } = await t.call('POST', '/1/indexes/shop/query', { query: 'lamp', hitsPerPage: 40, getRankingInfo: true, ...params }, key);
    expect(status, JSON.stringify(body)).toBe(200);
    return body;
  };
  const ids = (hits: Hit[]) => hits.map((hit) => hit.objectID);
  const build = async () => {
    const { status, body } = await t.call('POST', '/1/vitrine/recommend/build', {});
    expect(status).toBe(200);
    return body;
  };

  beforeAll(async () => {
    t = await startTestServer({
      config: { insights: { modelRebuildIntervalMs: 0, suggestionsRebuildIntervalMs: 0 } },
      index: { name: 'shop', settings: { searchableAttributes: ['name'], attributesForFaceting: ['brand', 'filterOnly(color)'], customRanking: ['desc(popularity)'] }, records },
    });
    hosts = [{ url: t.host, protocol: 'http', accept: 'readWrite' }];
  });
  afterAll(() => t?.close());

  it('sets and reads the strategy with the v5 client, and refuses malformed ones with a 400, changing nothing', async () => {
    const client = personalization();
    expect((await refusal(client.getPersonalizationStrategy())).status).toBe(404);
    expect(await client.setPersonalizationStrategy(STRATEGY)).toEqual({ message: 'Strategy was successfully updated' });
    expect(await client.getPersonalizationStrategy()).toEqual(STRATEGY);
    const bad: Array<[unknown, RegExp]> = [
      [{ ...STRATEGY, facetsScoring: [{ facetName: 'material', score: 10 }] }, /"material" is not in the attributesForFaceting of any index/],
      [{ ...STRATEGY, eventsScoring: [{ eventName: 'Clicked', eventType: 'click', score: 0 }] }, /eventsScoring\[0\]\.score.*1 to 100/],
      [{ ...STRATEGY, eventsScoring: [{ eventName: 'Bought', eventType: 'purchase', score: 10 }] }, /eventType.*click, conversion or view/],
      [{ ...STRATEGY, personalizationImpact: 101 }, /personalizationImpact.*0 to 100/],
      [{ ...STRATEGY, facetsScoring: [{ facetName: 'brand', score: 5 }, { facetName: 'brand', score: 6 }] }, /listed twice/],
    ];
    for (const [strategy, message] of bad) {
      const refused = await refusal(client.setPersonalizationStrategy(strategy as typeof STRATEGY));
      expect(refused.status).toBe(400);
      expect(refused.message).toMatch(message);
    }
    // The client itself refuses a strategy without facetsScoring: sent as it is, the server does too.
    expect((await t.call('POST', '/1/strategies/personalization', { eventsScoring: [], personalizationImpact: 10 })).body).toEqual({ message: 'Missing parameter: facetsScoring', status: 400 });
    expect(await client.getPersonalizationStrategy()).toEqual(STRATEGY);
    // The search key has no `recommendation` ACL.
    const searchOnly = algoliasearch(APP_ID, SEARCH_KEY, { hosts }).initPersonalization({ region: 'us', options: { hosts } });
    expect((await refusal(searchOnly.getPersonalizationStrategy())).status).toBe(403);
  });

  it('builds a profile from the events the strategy scores, and a personalized search moves the user\'s brand up', async () => {
    const insights = algoliasearch(APP_ID, SEARCH_KEY, { hosts }).initInsights({ options: { hosts } });
    const dune = records.filter((r) => r.brand === 'Dune').map((r) => r.objectID);
    const acme = records.filter((r) => r.brand === 'Acme').map((r) => r.objectID);
    await insights.pushEvents({
      events: [
        { eventType: 'click', eventName: 'Product Clicked', index: 'shop', userToken: 'shopper-1', objectIDs: dune.slice(0, 3) },
        { eventType: 'conversion', eventSubtype: 'purchase', eventName: 'Purchased', index: 'shop', userToken: 'shopper-1', objectIDs: [dune[4]] },
        // Not in the strategy: counts for nothing, however many.
        { eventType: 'view', eventName: 'Product Viewed', index: 'shop', userToken: 'shopper-1', objectIDs: acme.slice(0, 10) },
        { eventType: 'click', eventName: 'Product Clicked', index: 'shop', userToken: 'shopper-2', objectIDs: [acme[3]] },
      ],
    });
    const report = await build();
    expect(report.personalization.profiles).toBe(2);
    const profile = await personalization().getUserTokenProfile({ userToken: 'shopper-1' });
    expect(profile.userToken).toBe('shopper-1');
    expect(Date.parse(profile.lastEventAt)).toBeGreaterThan(Date.now() - 60_000);
    const scores = profile.scores as Record<string, Record<string, number>>;
    expect(scores.brand).toEqual({ Dune: 100 });
    // Dune records are all white: colour counts too, weighed 10 against brand's 100.
    expect(scores.color).toEqual({ white: 10 });
    expect((await refusal(personalization().getUserTokenProfile({ userToken: 'nobody' }))).status).toBe(404);

    const plain = await lamp({ userToken: 'shopper-1' });
    expect(plain.hits.slice(0, 4).map((h) => h.brand)).toEqual(['Acme', 'Bolt', 'Cove', 'Dune']);
    const personal = await lamp({ userToken: 'shopper-1', enablePersonalization: true });
    expect(personal.hits.slice(0, 10).map((h) => h.brand)).toEqual(Array(10).fill('Dune'));
    expect(personal.hits[0]._rankingInfo?.personalization).toEqual({ filtersScore: 0, rankingScore: 110, score: 110 });
    expect(personal.nbHits).toBe(plain.nbHits);
    expect(ids(personal.hits).sort()).toEqual(ids(plain.hits).sort());
    // The official search client, the user token in its header, the index's setting turning it on.
    const enabled = await t.call('PUT', '/1/indexes/shop/settings', { enablePersonalization: true });
    expect(enabled.status).toBe(200);
    await t.server.store.waitForTask(enabled.body.taskID);
    const search = algoliasearch(APP_ID, SEARCH_KEY, { hosts });
    const viaClient = await search.searchSingleIndex({ indexName: 'shop', searchParams: { query: 'lamp', hitsPerPage: 5 } }, { headers: { 'x-algolia-usertoken': 'shopper-1' } });
    expect(viaClient.hits.map((h) => brandOf.get(h.objectID))).toEqual(Array(5).fill('Dune'));
    expect(ids((await lamp({ userToken: 'shopper-1', enablePersonalization: false })).hits)).toEqual(ids(plain.hits));
    expect(ids((await lamp({ userToken: 'shopper-1', personalizationImpact: 0 })).hits)).toEqual(ids(plain.hits));
    // Another user's affinities order another way; an unknown user gets the plain order.
    expect((await lamp({ userToken: 'shopper-2' })).hits.slice(0, 10).map((h) => h.brand)).toEqual(Array(10).fill('Acme'));
    expect(ids((await lamp({ userToken: 'stranger' })).hits)).toEqual(ids(plain.hits));
  });

  it('keeps filters, a secured key\'s filter and a rule\'s pin', async () => {
    // White records are Bolt's and Dune's: Dune's first, then Bolt's, and nothing else.
    const filtered = await lamp({ userToken: 'shopper-1', filters: 'color:white' });
    expect(filtered.nbHits).toBe(20);
    expect(filtered.hits.map((h) => h.brand)).toEqual([...Array(10).fill('Dune'), ...Array(10).fill('Bolt')]);
    const secured = securedApiKey(SEARCH_KEY, { filters: 'brand:Acme OR brand:Bolt' });
    const restricted = await lamp({ userToken: 'shopper-1' }, secured);
    expect(restricted.nbHits).toBe(20);
    // Inside the key's filter, the user's white Bolt records first (colour affinity), then Acme's.
    expect(restricted.hits.map((h) => h.brand)).toEqual([...Array(10).fill('Bolt'), ...Array(10).fill('Acme')]);
    const rule = { objectID: 'pin-p2', conditions: [{ pattern: 'lamp', anchoring: 'contains' }], consequence: { promote: [{ objectID: 'p2', position: 0 }] } };
    const saved = await t.call('PUT', '/1/indexes/shop/rules/pin-p2', rule);
    expect(saved.status).toBe(200);
    await t.server.store.waitForTask(saved.body.taskID);
    const pinned = await lamp({ userToken: 'shopper-1' });
    expect(pinned.hits[0].objectID).toBe('p2');
    expect(pinned.hits.slice(1, 6).map((h) => h.brand)).toEqual(Array(5).fill('Dune'));
    await t.server.store.waitForTask((await t.call('DELETE', '/1/indexes/shop/rules/pin-p2')).body.taskID);
  });

  it('deletes a profile at once (deleteUserProfile, DELETE /1/usertokens), and it stays deleted after a build', async () => {
    const plainOrder = ids((await lamp({ enablePersonalization: false })).hits);
    const deleted = await personalization().deleteUserProfile({ userToken: 'shopper-1' });
    expect(deleted.userToken).toBe('shopper-1');
    expect(Date.parse(deleted.deletedUntil)).toBeLessThanOrEqual(Date.now());
    expect((await refusal(personalization().getUserTokenProfile({ userToken: 'shopper-1' }))).status).toBe(404);
    expect(ids((await lamp({ userToken: 'shopper-1' })).hits)).toEqual(plainOrder);
    expect((await t.call('DELETE', '/1/usertokens/shopper-2')).status).toBe(204);
    expect((await t.call('GET', '/1/profiles/personalization/shopper-2')).status).toBe(404);
    expect((await build()).personalization.profiles).toBe(0);
    expect((await refusal(personalization().getUserTokenProfile({ userToken: 'shopper-1' }))).status).toBe(404);
  });

  it('costs a search little: personalization on and off, alternately (figures in the output)', async () => {
    const insights = algoliasearch(APP_ID, SEARCH_KEY, { hosts }).initInsights({ options: { hosts } });
    await insights.pushEvents({ events: [{ eventType: 'click', eventName: 'Product Clicked', index: 'shop', userToken: 'timed', objectIDs: ['p4', 'p8', 'p3'] }] });
    expect((await build()).personalization.profiles).toBe(1);
    const times: Record<'on' | 'off', number[]> = { on: [], off: [] };
    for (let i = 0; i < 300; i++) {
      const mode = i % 2 === 0 ? 'on' : 'off';
      // A query of its own each time: the result cache answers none of them.
      const started = performance.now();
      await lamp({ query: `lamp ${i}`, optionalWords: [String(i)], userToken: 'timed', enablePersonalization: mode === 'on', hitsPerPage: 20 });
      times[mode].push(performance.now() - started);
    }
    const median = (list: number[]) => [...list].sort((a, b) => a - b)[list.length >> 1];
    console.log(`personalized search, round trip over HTTP: median ${median(times.on).toFixed(2)} ms on, ${median(times.off).toFixed(2)} ms off (150 each)`);
    expect(median(times.on)).toBeLessThan(median(times.off) * 2 + 5);
  });
});
