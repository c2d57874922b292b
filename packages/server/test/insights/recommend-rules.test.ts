/**
 * Recommend rules over a real server on loopback, through the official recommend client (algoliasearch v5's
 * `initRecommend`): saved, read, searched and deleted as tasks the client polls with `getRecommendStatus`; bad
 * input refused whole with Algolia's `{message, status}`; and applied to `/1/indexes/*\/recommendations`: hide,
 * pin, filter, boost and bury, automatic facet filters, conditions on the source item and on contexts, validity
 * periods, `enabled` and `enableRules`, and a secured key's filter over all of it. The v4 client, which has no
 * rule methods, gets recommendations with the rules applied as well.
 */
import { algoliasearch } from 'algoliasearch';
import algoliasearchV4 from 'algoliasearch-v4';
import type { RecommendClient, RecommendModels, RecommendRule } from 'algoliasearch';
import type { InsightsEvent } from '@vitrine/protocol';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_KEY, APP_ID, SEARCH_KEY, securedApiKey, startTestServer } from '../../src/test-support.ts';
import type { TestServer } from '../../src/test-support.ts';

const NOW = Date.UTC(2025, 5, 15, 12);
const NOW_SECONDS = NOW / 1000;
const HOUR = 3_600_000;

/** Twelve lamps and chairs of two brands; every item viewed recently, so every one trends. */
const RECORDS = Array.from({ length: 12 }, (_, i) => ({
  objectID: `i${i}`,
  name: `${i % 2 ? 'Oak' : 'Steel'} ${i < 6 ? 'lamp' : 'chair'} ${i}`,
  brand: i % 2 ? 'Woodly' : 'Metalix',
  color: i % 3 === 0 ? 'black' : 'white',
  category: i < 6 ? 'Lamps' : 'Chairs',
  price: 10 + 10 * i,
}));
const record = (id: string) => RECORDS.find((r) => r.objectID === id)!;

/** Item `iN` viewed N+1 times in the last days (one view the week before): the higher N, the more it trends. */
function history(): Array<InsightsEvent & { timestamp: number }> {
  const events: Array<InsightsEvent & { timestamp: number }> = [];
  RECORDS.forEach((item, i) => {
    for (let n = 0; n <= i; n++) events.push({ eventType: 'view', eventName: 'Viewed', index: 'shop', userToken: `u-${i}-${n}`, objectIDs: [item.objectID], timestamp: NOW - (n + 1) * HOUR });
    events.push({ eventType: 'view', eventName: 'Viewed', index: 'shop', userToken: `old-${i}`, objectIDs: [item.objectID], timestamp: NOW - 9 * 24 * HOUR });
  });
  return events;
}

describe('Recommend rules', () => {
  let t: TestServer;
  let admin: RecommendClient;
  let shopper: RecommendClient;
  const hosts = () => [{ url: t.host, protocol: 'http' as const, accept: 'readWrite' as const }];
  const client = (key: string) => algoliasearch(APP_ID, key, { hosts: hosts() }).initRecommend({ options: { hosts: hosts() } });

  /** Saves rules (replacing the model's) and waits, as the recommend client can, for `getRecommendStatus`. */
  async function saveRules(model: RecommendModels, rules: RecommendRule[], indexName = 'shop'): Promise<void> {
    const { taskID } = await admin.batchRecommendRules({ indexName, model, recommendRule: rules }, { queryParameters: { clearExistingRules: true } });
    await published(indexName, model, taskID);
  }
  async function published(indexName: string, model: RecommendModels, taskID: number): Promise<void> {
    while ((await admin.getRecommendStatus({ indexName, model, taskID })).status !== 'published') await new Promise((resolve) => setImmediate(resolve));
  }
  const ids = async (request: Record<string, unknown>, as = shopper) => {
    const { results } = await as.getRecommendations({ requests: [{ indexName: 'shop', threshold: 0, ...request } as never] });
    return (results[0].hits as Array<{ objectID: string }>).map((hit) => hit.objectID);
  };
  const trending = (request: Record<string, unknown> = {}, as = shopper) => ids({ model: 'trending-items', ...request }, as);

  beforeAll(async () => {
    t = await startTestServer({
      config: { now: () => NOW, insights: { modelRebuildIntervalMs: 0, suggestionsRebuildIntervalMs: 0 } },
      index: { name: 'shop', settings: { searchableAttributes: ['name', 'brand'], attributesForFaceting: ['brand', 'color', 'category', 'price'] }, records: RECORDS },
    });
    expect(await t.server.insights.seedIfEmpty({ searches: [], events: history() })).toBe(true);
    admin = client(ADMIN_KEY);
    shopper = client(SEARCH_KEY);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    for (const model of ['trending-items', 'related-products', 'bought-together'] as const) await saveRules(model, []);
  });

  it('saves, reads, searches and deletes rules as tasks, through the official client', async () => {
    const rules: RecommendRule[] = [
      { objectID: 'pin-new', description: 'New lamp first', consequence: { promote: [{ objectID: 'i0', position: 0 }] } },
      { objectID: 'mobile-hide', condition: { context: 'mobile' }, consequence: { hide: [{ objectID: 'i11' }] }, enabled: false },
      { objectID: 'cheap', condition: { filters: 'price < 50' }, consequence: { params: { filters: 'price < 100' } }, validity: [{ from: 0, until: 4_000_000_000 }] },
    ];
    const saved = await admin.batchRecommendRules({ indexName: 'shop', model: 'trending-items', recommendRule: rules });
    expect(saved).toEqual({ taskID: expect.any(Number), updatedAt: expect.any(String) });
    await published('shop', 'trending-items', saved.taskID);
    expect(await admin.getRecommendRule({ indexName: 'shop', model: 'trending-items', objectID: 'cheap' })).toEqual({ ...rules[2], _metadata: { lastUpdate: saved.updatedAt } });

    const search = (params: Record<string, unknown>) => admin.searchRecommendRules({ indexName: 'shop', model: 'trending-items', searchRecommendRulesParams: params });
    expect((await search({})).hits.map((r) => r.objectID)).toEqual(['cheap', 'mobile-hide', 'pin-new']);
    expect(await search({ query: 'lamp' })).toMatchObject({ hits: [{ objectID: 'pin-new' }], nbHits: 1, page: 0, nbPages: 1 });
    expect((await search({ context: 'mobile' })).hits.map((r) => r.objectID)).toEqual(['mobile-hide']);
    expect((await search({ enabled: true })).hits.map((r) => r.objectID)).toEqual(['cheap', 'pin-new']);
    expect((await search({ filters: 'objectID:cheap OR condition.context:mobile' })).hits.map((r) => r.objectID)).toEqual(['cheap', 'mobile-hide']);
    expect(await search({ hitsPerPage: 2, page: 1 })).toMatchObject({ hits: [{ objectID: 'pin-new' }], nbHits: 3, page: 1, nbPages: 2 });
    // Rules belong to a model: another model's search finds none of them.
    expect((await admin.searchRecommendRules({ indexName: 'shop', model: 'related-products' })).nbHits).toBe(0);

    const deleted = await admin.deleteRecommendRule({ indexName: 'shop', model: 'trending-items', objectID: 'cheap' });
    expect(deleted).toEqual({ taskID: expect.any(Number), deletedAt: expect.any(String) });
    await published('shop', 'trending-items', deleted.taskID);
    await expect(admin.getRecommendRule({ indexName: 'shop', model: 'trending-items', objectID: 'cheap' })).rejects.toMatchObject({ status: 404 });
    await expect(admin.deleteRecommendRule({ indexName: 'shop', model: 'trending-items', objectID: 'cheap' })).rejects.toMatchObject({ status: 404 });
    // clearExistingRules replaces the model's rules in the same task.
    const replaced = await admin.batchRecommendRules({ indexName: 'shop', model: 'trending-items', recommendRule: [{ objectID: 'only' }] }, { queryParameters: { clearExistingRules: true } });
    await published('shop', 'trending-items', replaced.taskID);
    expect((await search({})).hits.map((r) => r.objectID)).toEqual(['only']);
  });

  it('refuses bad input with 400 and applies nothing of a refused batch', async () => {
    const refused = async (call: Promise<unknown>, message: RegExp) => {
      const error = await call.then(() => undefined, (e: unknown) => e);
      expect(error, 'refused').toMatchObject({ status: 400 });
      expect((error as Error).message).toMatch(message);
    };
    const batch = (recommendRule: unknown, model = 'trending-items') => admin.batchRecommendRules({ indexName: 'shop', model: model as RecommendModels, recommendRule: recommendRule as RecommendRule[] });
    await refused(batch([{ objectID: 'x' }], 'looking-similar'), /"model": expected related-products/);
    await refused(admin.customPost({ path: '1/indexes/shop/trending-items/recommend/rules/batch', body: { objectID: 'x' } }), /expected an array of Recommend rules/);
    await refused(batch([{ objectID: 'ok' }, { objectID: 'search-style', conditions: [{ pattern: 'lamp' }] }]), /position 1: unknown attribute "conditions".*one "condition"/);
    await refused(batch([{ objectID: 'x', condition: { filters: 'brand:(' } }]), /condition "filters"/);
    await refused(batch([{ objectID: 'x', consequence: { params: { filters: 'price <' } } }]), /consequence "filters"/);
    await refused(batch([{ objectID: 'x', consequence: { params: { hitsPerPage: 3 } } }]), /unknown attribute "hitsPerPage"/);
    await refused(batch([{ objectID: 'x', consequence: { params: { optionalFilters: ['brand:Woodly<score=x>'] } } }]), /optionalFilters/);
    await refused(batch([{ objectID: 'x', consequence: { promote: [{ objectID: 'i1', position: -1 }] } }]), /"position", an integer/);
    await refused(batch([{ objectID: 'x', consequence: { hide: [{ objectID: '' }] } }]), /each "hide" entry/);
    await refused(batch([{ objectID: 'x', condition: { context: 'not a context' } }]), /condition "context" must be/);
    await refused(batch([{ objectID: 'x', validity: [{ from: 'now' }] }]), /"validity" must be/);
    await refused(batch([{ description: 'no id' }]), /Missing parameter: objectID/);
    await refused(admin.searchRecommendRules({ indexName: 'shop', model: 'trending-items', searchRecommendRulesParams: { hitsPerPage: 0 } }), /hitsPerPage/);
    await refused(admin.getRecommendStatus({ indexName: 'shop', model: 'trending-items', taskID: -1 }), /taskID/);
    // The batch with one bad rule left nothing behind.
    await expect(admin.getRecommendRule({ indexName: 'shop', model: 'trending-items', objectID: 'ok' })).rejects.toMatchObject({ status: 404 });
    // A key without editSettings may not write them, nor ask their tasks; with settings it may read them.
    await expect(shopper.batchRecommendRules({ indexName: 'shop', model: 'trending-items', recommendRule: [{ objectID: 'x' }] })).rejects.toMatchObject({ status: 403 });
    await expect(shopper.searchRecommendRules({ indexName: 'shop', model: 'trending-items' })).rejects.toMatchObject({ status: 403 });
    await expect(admin.getRecommendStatus({ indexName: 'shop', model: 'trending-items', taskID: 999_999 })).rejects.toMatchObject({ status: 404 });
    // A key scoped to another index may not touch these, whatever its ACL.
    const scoped = client(await t.createKey({ acl: ['settings', 'editSettings'], indexes: ['other'] }));
    await expect(scoped.batchRecommendRules({ indexName: 'shop', model: 'trending-items', recommendRule: [{ objectID: 'x' }] })).rejects.toMatchObject({ status: 403 });
    await expect(scoped.searchRecommendRules({ indexName: 'shop', model: 'trending-items' })).rejects.toMatchObject({ status: 403 });
    expect((await scoped.searchRecommendRules({ indexName: 'other', model: 'trending-items' })).nbHits).toBe(0);
  });

  it('hides items, pins items at positions and filters what the models recommend', async () => {
    const baseline = await trending();
    expect(baseline.slice(0, 3)).toEqual(['i11', 'i10', 'i9']);
    await saveRules('trending-items', [
      { objectID: 'hide', consequence: { hide: [{ objectID: 'i11' }] } },
      // i0 trends least; i5 is in the list already and moves to its pinned place.
      { objectID: 'pin', consequence: { promote: [{ objectID: 'i0', position: 0 }, { objectID: 'i5', position: 2 }] } },
      { objectID: 'pin-far', consequence: { promote: [{ objectID: 'i1', position: 200 }] } },
    ]);
    const rest = baseline.filter((id) => !['i11', 'i0', 'i5', 'i1'].includes(id));
    expect(await trending()).toEqual(['i0', rest[0], 'i5', ...rest.slice(1), 'i1']);
    expect(await trending({ maxRecommendations: 3 })).toEqual(['i0', rest[0], 'i5']);

    const cheapRule = { objectID: 'cheap', consequence: { params: { filters: 'price < 60 AND NOT color:black' } } };
    await saveRules('trending-items', [cheapRule]);
    await saveRules('bought-together', [cheapRule]);
    const cheap = await trending({ queryParameters: { filters: 'category:Lamps' } });
    expect(cheap.length).toBeGreaterThan(0);
    for (const id of cheap) expect(record(id).price < 60 && record(id).color !== 'black' && record(id).category === 'Lamps', id).toBe(true);
    // A request's own filters cannot undo a rule's: `a) OR (b` is parsed, never pasted around it.
    await expect(trending({ queryParameters: { filters: 'price < 60) OR (price > 0' } })).rejects.toMatchObject({ status: 400 });
    // The fallback search is held to the rules too.
    // Nothing was bought: the fallback search fills the list, held to the rules too (lamps under 60, not black).
    expect(await ids({ model: 'bought-together', objectID: 'i3', fallbackParameters: { filters: 'category:Lamps' } })).toEqual(['i1', 'i2', 'i4']);
  });

  it('boosts and buries by facet value, keeping the model order otherwise', async () => {
    const baseline = await trending();
    const woodly = (id: string) => record(id).brand === 'Woodly';
    await saveRules('trending-items', [{ objectID: 'boost', consequence: { params: { optionalFilters: ['brand:Woodly'] } } }]);
    expect(await trending()).toEqual([...baseline.filter(woodly), ...baseline.filter((id) => !woodly(id))]);
    await saveRules('trending-items', [{ objectID: 'bury', consequence: { params: { optionalFilters: ['brand:-Woodly'] } } }]);
    expect(await trending()).toEqual([...baseline.filter((id) => !woodly(id)), ...baseline.filter(woodly)]);
    // Boosts read the records, not what the request retrieves.
    const trimmed = await shopper.getRecommendations({ requests: [{ indexName: 'shop', model: 'trending-items', threshold: 0, queryParameters: { attributesToRetrieve: ['name'] } }] });
    expect((trimmed.results[0].hits as Array<{ objectID: string }>).map((hit) => hit.objectID)).toEqual([...baseline.filter((id) => !woodly(id)), ...baseline.filter(woodly)]);
  });

  it('matches the source item: conditions on its attributes and automatic facet filters', async () => {
    // i3 is a black Woodly lamp, i4 a white Metalix lamp.
    await saveRules('related-products', [
      { objectID: 'same-colour', condition: { filters: 'brand:Woodly AND price >= 40' }, consequence: { params: { automaticFacetFilters: [{ facet: 'color' }] } } },
      { objectID: 'other-brand', condition: { filters: 'objectID:i4' }, consequence: { params: { automaticFacetFilters: [{ facet: 'brand', negative: true }] } } },
    ]);
    const forI3 = await ids({ model: 'related-products', objectID: 'i3' });
    expect(forI3.length).toBeGreaterThan(0);
    for (const id of forI3) expect(record(id).color, id).toBe('black');
    const forI4 = await ids({ model: 'related-products', objectID: 'i4' });
    expect(forI4.length).toBeGreaterThan(0);
    for (const id of forI4) expect(record(id).brand, id).toBe('Woodly');
    // The v4 client's getRelatedProducts reads the same answers.
    const v4 = algoliasearchV4(APP_ID, SEARCH_KEY, { hosts: [{ url: t.host, protocol: 'http' }] });
    const viaV4 = await v4.getRelatedProducts([{ indexName: 'shop', objectID: 'i3', threshold: 0 }]);
    expect(viaV4.results[0].hits.map((hit) => hit.objectID)).toEqual(forI3);
    // i1 is a Woodly item under 40: neither condition holds, so both colours come back.
    expect(new Set((await ids({ model: 'related-products', objectID: 'i1' })).map((id) => record(id).color))).toEqual(new Set(['black', 'white']));
    // Rules of one model never touch another's answers.
    expect(new Set((await ids({ model: 'looking-similar', objectID: 'i3' })).map((id) => record(id).color)).size).toBe(2);
  });

  it('applies a rule only in its context, within its validity, while enabled, and not with enableRules: false', async () => {
    const hidden = (rule: Partial<RecommendRule>) => ({ objectID: 'r', consequence: { hide: [{ objectID: 'i11' }] }, ...rule });
    const shown = async (request: Record<string, unknown> = {}) => (await trending(request)).includes('i11');
    await saveRules('trending-items', [hidden({ condition: { context: 'mobile' } })]);
    expect(await shown()).toBe(true);
    expect(await shown({ queryParameters: { ruleContexts: ['desktop'] } })).toBe(true);
    expect(await shown({ queryParameters: { ruleContexts: ['desktop', 'mobile'] } })).toBe(false);
    await saveRules('trending-items', [hidden({ validity: [{ from: NOW_SECONDS - 7200, until: NOW_SECONDS - 3600 }] })]);
    expect(await shown()).toBe(true);
    await saveRules('trending-items', [hidden({ validity: [{ from: NOW_SECONDS - 7200, until: NOW_SECONDS - 3600 }, { from: NOW_SECONDS - 60 }] })]);
    expect(await shown()).toBe(false);
    expect(await shown({ queryParameters: { enableRules: false } })).toBe(true);
    await saveRules('trending-items', [hidden({ enabled: false })]);
    expect(await shown()).toBe(true);
  });

  it("keeps a secured key's filter over the rules: pins, fallback and all", async () => {
    const metalixOnly = client(securedApiKey(SEARCH_KEY, { filters: 'brand:Metalix' }));
    await saveRules('trending-items', [{ objectID: 'pin', consequence: { promote: [{ objectID: 'i1', position: 0 }, { objectID: 'i2', position: 1 }] } }]);
    expect((await trending())[0]).toBe('i1');
    // i1 is Woodly: the key never sees it, pinned or not; i2 keeps its place.
    const seen = await trending({}, metalixOnly);
    expect(seen[1]).toBe('i2');
    expect(seen.length).toBeGreaterThan(2);
    for (const id of seen) expect(record(id).brand, id).toBe('Metalix');
  });
});
