/**
 * `POST /1/events` over a real socket: the official clients (algoliasearch v5's insights client and the
 * `search-insights` browser library running in Node), validation as the Insights API specifies it (one bad event
 * refuses the whole batch, nothing stored), caps, ACLs and `DELETE /1/usertokens/{userToken}`.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { algoliasearch } from 'algoliasearch';
import { createInsightsClient } from 'search-insights';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoIndexName, demoSettings, generateProducts } from '@vitrine/demo';
import { ADMIN_KEY, APP_ID, SEARCH_KEY, startTestServer } from '../../src/test-support.ts';
import type { TestServer } from '../../src/test-support.ts';

describe('Insights API', () => {
  let t: TestServer;
  let ANALYTICS_KEY: string;
  let db: Database.Database;
  const countEvents = (where = '1') => (db.prepare(`SELECT COUNT(*) AS n FROM events WHERE ${where}`).get() as { n: number }).n;
  const click = (extra: Record<string, unknown> = {}) => ({ eventType: 'click', eventName: 'Product Clicked', index: 'products', userToken: 'user-1', objectIDs: ['1'], ...extra });

  beforeAll(async () => {
    t = await startTestServer({
      config: { insights: { modelRebuildIntervalMs: 0, suggestionsRebuildIntervalMs: 0 } },
      index: { name: demoIndexName, settings: demoSettings, records: [...generateProducts(300)] },
    });
    ANALYTICS_KEY = await t.createKey({ acl: ['analytics'] });
    db = new Database(join(t.dataDir, 'insights.sqlite'), { readonly: true });
  });
  afterAll(async () => {
    db.close();
    await t.close();
  });

  it('accepts every event kind of the official insights client, durably, and attributes them to the search', async () => {
    const hosts = [{ url: t.host, protocol: 'http' as const, accept: 'readWrite' as const }];
    const insights = algoliasearch(APP_ID, SEARCH_KEY, { hosts }).initInsights({ options: { hosts } });
    const { queryID } = await t.search({ query: 'lamp', clickAnalytics: true });
    expect(queryID).toMatch(/^[0-9a-f]{32}$/);
    const before = countEvents();
    const response = await insights.pushEvents({
      events: [
        { eventType: 'click', eventName: 'Hit Clicked', index: 'products', userToken: 'client-user', objectIDs: ['3'], positions: [2], queryID: queryID! },
        { eventType: 'view', eventName: 'Hit Viewed', index: 'products', userToken: 'client-user', objectIDs: ['3', '4'] },
        { eventType: 'click', eventName: 'Filter Clicked', index: 'products', userToken: 'client-user', filters: ['brand:Lumio'] },
        {
          eventType: 'conversion', eventSubtype: 'purchase', eventName: 'Purchased', index: 'products', userToken: 'client-user', authenticatedUserToken: 'account-7',
          objectIDs: ['3', '9'], objectData: [{ price: 20, quantity: 2, queryID: queryID! }, { price: '5.50', quantity: 1 }], value: 45.5, currency: 'EUR',
        },
      ],
    });
    expect(response).toEqual({ status: 200, message: 'OK' });
    // Acknowledged means committed: a second connection reads the rows right away.
    expect(countEvents()).toBe(before + 4);
    const purchase = db.prepare("SELECT * FROM events WHERE subtype = 'purchase' AND user_token = 'client-user'").get() as Record<string, unknown>;
    expect(JSON.parse(purchase.object_data as string)).toEqual([{ price: 20, quantity: 2, queryID }, { price: 5.5, quantity: 1 }]);
    expect(purchase.auth_token).toBe('account-7');
    const revenue = await t.call('GET', '/2/conversions/revenue?index=products');
    // Only the object bought after the tracked search counts: 20 × 2.
    expect(revenue.body.currencies).toEqual({ EUR: { currency: 'EUR', revenue: 40 } });
  });

  it('accepts events from search-insights (the browser library) running in Node, credentials in the query string', async () => {
    // The library's own request function, swapped for fetch as a browser build would use.
    const sent: string[] = [];
    const aa = createInsightsClient(async (requestUrl, data) => {
      sent.push(requestUrl);
      const response = await fetch(requestUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(data) });
      return response.status === 200;
    });
    aa('init', { appId: APP_ID, apiKey: SEARCH_KEY, host: t.url, userToken: 'library-user' });
    const { queryID } = await t.search({ query: 'chair', clickAnalytics: true });
    const before = countEvents("user_token = 'library-user'");
    await aa('clickedObjectIDsAfterSearch', { eventName: 'Clicked', index: 'products', queryID: queryID!, objectIDs: ['5'], positions: [1] });
    await aa('convertedObjectIDsAfterSearch', { eventName: 'Added', index: 'products', queryID: queryID!, objectIDs: ['5'] });
    await aa('clickedFilters', { eventName: 'Filtered', index: 'products', filters: ['color:Dark Blue'] });
    expect(countEvents("user_token = 'library-user'")).toBe(before + 3);
    expect(sent[0]).toContain(`${t.url}/1/events?X-Algolia-Application-Id=${APP_ID}&X-Algolia-API-Key=${SEARCH_KEY}`);
    // The library URL-encodes filters; they are stored decoded.
    const filter = db.prepare("SELECT filters FROM events WHERE user_token = 'library-user' AND filters IS NOT NULL").get() as { filters: string };
    expect(JSON.parse(filter.filters)).toEqual(['color:Dark Blue']);
  });

  it('accepts the filters InstantSearch\'s widgets send: RatingMenu\'s numeric filter and facet filters', async () => {
    const filterClick = (filters: string[]) => ({ eventType: 'click', eventName: 'Filter Applied', index: 'products', userToken: 'widget-user', filters });
    const response = await t.call('POST', '/1/events', {
      events: [
        // RatingMenu, as the insights middleware sends it through search-insights (the whole filter URL-encoded).
        filterClick(['rating%3E%3D4']),
        // Every operator of numeric filters, decimals and negative numbers, spaces around the operator.
        filterClick(['price%3C10', 'price%3C%3D10.5', 'stock%3D0', 'stock!%3D0', 'price%3E-1', 'rating%20%3E%3D%204']),
        // HierarchicalMenu (a value holding " > "), ToggleRefinement, and attribute and value encoded apart.
        filterClick(['categories.lvl1%3AHome%20%3E%20Lighting', 'free_shipping%3Atrue', 'brand:Bright%20%26%20Co', 'discount:10%25']),
      ],
    }, SEARCH_KEY);
    expect(response).toEqual({ status: 200, body: { status: 200, message: 'OK' } });
    const stored = (db.prepare("SELECT filters FROM events WHERE user_token = 'widget-user' ORDER BY id").all() as Array<{ filters: string }>).map((row) => JSON.parse(row.filters));
    expect(stored).toEqual([
      ['rating>=4'],
      ['price<10', 'price<=10.5', 'stock=0', 'stock!=0', 'price>-1', 'rating >= 4'],
      ['categories.lvl1:Home > Lighting', 'free_shipping:true', 'brand:Bright & Co', 'discount:10%'],
    ]);
  });

  it('says how far ahead a timestamp may be when refusing one', async () => {
    const response = await t.call('POST', '/1/events', { events: [click({ timestamp: Date.now() + 25 * 3_600_000 })] }, SEARCH_KEY);
    expect(response).toEqual({ status: 422, body: { status: 422, message: 'Invalid event at position 0: timestamp is too far in the future (at most 24 hours ahead)' } });
  });

  const now = Date.now();
  const invalid: Array<[string, unknown]> = [
    ['an unknown eventType', click({ eventType: 'like' })],
    ['a missing eventName', click({ eventName: undefined })],
    ['a 65-character eventName', click({ eventName: 'x'.repeat(65) })],
    ['a non-ASCII eventName', click({ eventName: 'Clické' })],
    ['a missing index', click({ index: undefined })],
    ['a missing userToken', click({ userToken: undefined })],
    ['a userToken with a space', click({ userToken: 'user 1' })],
    ['a 130-character userToken', click({ userToken: 'u'.repeat(130) })],
    ['a bad authenticatedUserToken', click({ authenticatedUserToken: 'a@b' })],
    ['neither objectIDs nor filters', click({ objectIDs: undefined })],
    ['both objectIDs and filters', click({ filters: ['brand:x'] })],
    ['21 objectIDs', click({ objectIDs: Array.from({ length: 21 }, (_, i) => String(i)) })],
    ['21 filters', click({ objectIDs: undefined, filters: Array.from({ length: 21 }, (_, i) => `a:${i}`) })],
    ['a numeric objectID', click({ objectIDs: [1] })],
    ['a short queryID', click({ queryID: 'abc', positions: [1] })],
    ['an upper-case queryID', click({ queryID: 'A'.repeat(32), positions: [1] })],
    ['a click after search without positions', click({ queryID: 'a'.repeat(32) })],
    ['positions without queryID', click({ positions: [1] })],
    ['positions of another length', click({ queryID: 'a'.repeat(32), positions: [1, 2] })],
    ['position 0', click({ queryID: 'a'.repeat(32), positions: [0] })],
    ['positions on a conversion', click({ eventType: 'conversion', queryID: 'a'.repeat(32), positions: [1] })],
    ['an eventSubtype on a click', click({ eventSubtype: 'purchase' })],
    ['an unknown eventSubtype', click({ eventType: 'conversion', eventSubtype: 'refund' })],
    ['objectData of another length', click({ eventType: 'conversion', eventSubtype: 'purchase', objectData: [{ price: 1 }, { price: 2 }], currency: 'USD' })],
    ['a price without currency', click({ eventType: 'conversion', eventSubtype: 'purchase', objectData: [{ price: 1 }] })],
    ['a malformed currency', click({ eventType: 'conversion', eventSubtype: 'purchase', value: 3, currency: 'EURO' })],
    ['a non-numeric value', click({ eventType: 'conversion', eventSubtype: 'purchase', value: 'lots', currency: 'EUR' })],
    ['an objectData queryID that is not hexadecimal', click({ eventType: 'conversion', eventSubtype: 'addToCart', objectData: [{ queryID: 'z'.repeat(32) }] })],
    ['a timestamp 31 days old', click({ timestamp: now - 31 * 86_400_000 })],
    ['a timestamp 25 hours ahead (past the 24 hours allowed)', click({ timestamp: now + 25 * 3_600_000 })],
    ['a filter without an operator', click({ objectIDs: undefined, filters: ['rating'] })],
    ['a numeric filter without a number', click({ objectIDs: undefined, filters: ['rating%3E%3Dfour'] })],
    ['a filter that is not URL-encoded', click({ objectIDs: undefined, filters: ['discount:10%'] })],
    ['a timestamp in seconds as a string', click({ timestamp: String(Math.floor(now / 1000)) })],
  ];

  it.each(invalid)('refuses a batch holding an event with %s (422), storing nothing of it', async (_why, bad) => {
    const before = countEvents();
    const response = await t.call('POST', '/1/events', { events: [click(), bad] }, SEARCH_KEY);
    expect(response.status).toBe(422);
    expect(response.body.status).toBe(422);
    expect(response.body.message).toMatch(/position 1/);
    expect(countEvents()).toBe(before);
  });

  it('refuses empty, missing and oversized batches and bodies', async () => {
    expect((await t.call('POST', '/1/events', { events: [] }, SEARCH_KEY)).status).toBe(422);
    expect((await t.call('POST', '/1/events', {}, SEARCH_KEY)).status).toBe(422);
    expect((await t.call('POST', '/1/events', [click()], SEARCH_KEY)).status).toBe(422);
    const tooMany = await t.call('POST', '/1/events', { events: Array.from({ length: 1001 }, () => click()) }, SEARCH_KEY);
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.message).toMatch(/1000/);
    // A user token of its own: a full batch is that token's whole minute (`maxEventsPerUserTokenPerMinute`).
    const thousand = await t.call('POST', '/1/events', { events: Array.from({ length: 1000 }, () => click({ userToken: 'full-batch' })) }, SEARCH_KEY);
    expect(thousand.status).toBe(200);
    const big = { events: Array.from({ length: 1000 }, () => click({ eventName: 'x'.repeat(64), objectIDs: Array.from({ length: 20 }, (_, i) => `object-${'y'.repeat(90)}-${i}`) })) };
    expect(JSON.stringify(big).length).toBeGreaterThan(2 * 1024 * 1024);
    expect((await t.call('POST', '/1/events', big, SEARCH_KEY)).status).toBe(413);
    expect((await t.call('POST', '/1/events', '{"events": [', SEARCH_KEY)).status).toBe(400);
  });

  it('accepts timestamps within the window and the spec examples without optional fields', async () => {
    const ok = await t.call('POST', '/1/events', {
      events: [
        click({ timestamp: now - 29 * 86_400_000 }),
        // Ahead of the server's clock: Algolia answers 200 to an event 19 hours ahead (a client's clock may run
        // fast or in another time zone); up to 24 hours are accepted.
        click({ timestamp: now + 19 * 3_600_000 }),
        click({ timestamp: now + 24 * 3_600_000 - 60_000 }),
        { eventType: 'conversion', eventName: 'Liked', index: 'products', userToken: 'u', objectIDs: ['2'], queryID: 'a'.repeat(32) },
        { eventType: 'conversion', eventSubtype: 'addToCart', eventName: 'Cart', index: 'products', userToken: 'u', objectIDs: ['2'], objectData: [{ price: 19.99, quantity: 1 }], currency: 'eur' },
        { eventType: 'view', eventName: 'Viewed', index: 'products', userToken: 'u', filters: ['category:books'] },
        { eventType: 'instantsearch', eventName: 'Telemetry', userToken: 'u' },
      ],
    }, SEARCH_KEY);
    expect(ok).toEqual({ status: 200, body: { status: 200, message: 'OK' } });
  });

  it('needs the search ACL', async () => {
    expect((await t.call('POST', '/1/events', { events: [click()] }, ANALYTICS_KEY)).status).toBe(403);
    expect((await t.call('POST', '/1/events', { events: [click()] }, 'wrong-key')).status).toBe(403);
  });

  it('imports a history all or nothing', () => {
    const before = countEvents();
    // The invalid event comes after a first chunk of 1,000 valid ones.
    const events = [...Array.from({ length: 1500 }, () => click({ userToken: 'history-user' })), click({ eventType: 'like' })];
    expect(() => t.server.insights.importHistory({ searches: [], events } as never)).toThrow(/eventType/);
    expect(countEvents()).toBe(before);
  });

  it('deletes the events of a user token (deleteObject ACL)', async () => {
    await t.call('POST', '/1/events', { events: [click({ userToken: 'forget-me' }), click({ userToken: 'other', authenticatedUserToken: 'forget-me' })] }, SEARCH_KEY);
    expect(countEvents("user_token = 'forget-me' OR auth_token = 'forget-me'")).toBe(2);
    expect((await t.call('DELETE', '/1/usertokens/forget-me', undefined, SEARCH_KEY)).status).toBe(403);
    expect((await t.call('DELETE', '/1/usertokens/forget-me', undefined, ADMIN_KEY)).status).toBe(204);
    expect(countEvents("user_token = 'forget-me' OR auth_token = 'forget-me'")).toBe(0);
  });

  it('deletes a user token\'s events only for a key that may touch every index (they span every index)', async () => {
    await t.call('POST', '/1/events', { events: [click({ userToken: 'scoped-user' })] }, SEARCH_KEY);
    const scoped = await t.createKey({ acl: ['deleteObject'], indexes: ['products'] });
    const response = await t.call('DELETE', '/1/usertokens/scoped-user', undefined, scoped);
    expect(response).toEqual({ status: 403, body: { status: 403, message: 'Index not allowed with this API key' } });
    expect(countEvents("user_token = 'scoped-user'")).toBe(1);
    const unrestricted = await t.createKey({ acl: ['deleteObject'] });
    expect((await t.call('DELETE', '/1/usertokens/scoped-user', undefined, unrestricted)).status).toBe(204);
    expect(countEvents("user_token = 'scoped-user'")).toBe(0);
  });

  it('counts a shopper typing as one search for the last query, with clicks on what earlier keystrokes showed', async () => {
    const typed = [];
    for (const query of ['ba', 'bam', 'bamb', 'bamboo']) typed.push(await t.search({ query, clickAnalytics: true, userToken: 'typist' }));
    // The shopper clicked a result shown while typing "bam".
    await t.call('POST', '/1/events', { events: [click({ userToken: 'typist', queryID: typed[1].queryID, positions: [1] })] }, SEARCH_KEY);
    const top = await t.call('GET', '/2/searches?index=products&clickAnalytics=true&limit=1000', undefined, ANALYTICS_KEY);
    const searches = (top.body.searches as Array<{ search: string; count: number; trackedSearchCount: number; clickCount: number }>).filter((s) => s.search.startsWith('ba'));
    expect(searches).toEqual([expect.objectContaining({ search: 'bamboo', count: 1, trackedSearchCount: 1, clickCount: 1 })]);
  });
});

