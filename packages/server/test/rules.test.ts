/**
 * Rules end to end through the official clients (v5 and v4), unchanged: save one and a batch (with
 * clearExistingRules and forwardToReplicas), get, delete, search, clear, the browseRules helper, searches that
 * apply them (promote, hide, userData, renderingContent, appliedRules), ACLs, a secured key's forced filter
 * against a promoted record, validation errors, copyIndex with scope rules, and export of every rule.
 */
import { algoliasearch } from 'algoliasearch';
import type { Algoliasearch, Rule } from 'algoliasearch';
import algoliasearchV4 from 'algoliasearch-v4';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, APP_ID, SEARCH_KEY, securedApiKey, startTestServer } from '../src/test-support.ts';
import type { TestServer } from '../src/test-support.ts';
import { PRODUCTS, SETTINGS } from './catalogue.ts';

const PIN_DESK: Rule = {
  objectID: 'pin-desk',
  conditions: [{ pattern: 'lamp', anchoring: 'contains' }],
  consequence: { promote: [{ objectID: 'p3', position: 0 }], userData: { banner: 'lamps' }, hide: [{ objectID: 'p2' }] },
  description: 'Pinned desk on lamp searches',
};
const REDIRECT: Rule = {
  objectID: 'help',
  conditions: [{ pattern: 'help', anchoring: 'is' }],
  consequence: { params: { renderingContent: { redirect: { url: '/help' } } } },
};

describe('rules through the official clients', () => {
  let fixture: TestServer;
  let client: Algoliasearch;
  const connect = (key: string) => algoliasearch(APP_ID, key, { hosts: [{ url: fixture.host, protocol: 'http', accept: 'readWrite' }] });
  const ids = (hits: Array<{ objectID: string }>) => hits.map((h) => h.objectID);

  beforeAll(async () => {
    fixture = await startTestServer();
    client = connect(ADMIN_KEY);
    const settings = await client.setSettings({ indexName: 'products', indexSettings: { ...SETTINGS, replicas: ['products_price'] } });
    await client.waitForTask({ indexName: 'products', taskID: settings.taskID });
    await client.saveObjects({ indexName: 'products', objects: PRODUCTS, waitForTasks: true });
  });
  afterAll(() => fixture.close());

  it('saves, gets, searches, browses, deletes and clears rules (v5), and searches apply them', async () => {
    const saved = await client.saveRule({ indexName: 'products', objectID: PIN_DESK.objectID, rule: PIN_DESK });
    await client.waitForTask({ indexName: 'products', taskID: saved.taskID });
    expect(await client.getRule({ indexName: 'products', objectID: 'pin-desk' })).toEqual(PIN_DESK);

    const batch = await client.saveRules({ indexName: 'products', rules: [REDIRECT], forwardToReplicas: true });
    await client.waitForTask({ indexName: 'products', taskID: batch.taskID });
    expect((await client.searchRules({ indexName: 'products', searchRulesParams: { query: 'desk' } })).hits.map((r) => r.objectID)).toEqual(['pin-desk']);
    expect(await client.searchRules({ indexName: 'products', searchRulesParams: { anchoring: 'is' } })).toMatchObject({ nbHits: 1, page: 0, nbPages: 1, hits: [{ objectID: 'help' }] });
    // forwardToReplicas: the replica has the batch's rule, not the one saved before without it.
    expect((await client.searchRules({ indexName: 'products_price', searchRulesParams: {} })).hits.map((r) => r.objectID)).toEqual(['help']);

    const browsed: string[] = [];
    await client.browseRules({ indexName: 'products', searchRulesParams: { hitsPerPage: 1 }, aggregator: (page) => browsed.push(...page.hits.map((r) => r.objectID)) });
    expect(browsed.sort()).toEqual(['help', 'pin-desk']);

    const search = await connect(SEARCH_KEY).searchSingleIndex({ indexName: 'products', searchParams: { query: 'lamp', getRankingInfo: true } });
    expect(ids(search.hits)).toEqual(['p3', 'p1']);
    expect(search.hits[0]._rankingInfo?.promoted).toBe(true);
    expect(search.userData).toEqual([{ banner: 'lamps' }]);
    expect(search.appliedRules).toEqual([{ objectID: 'pin-desk' }]);
    const help = await connect(SEARCH_KEY).searchSingleIndex({ indexName: 'products', searchParams: { query: 'help' } });
    expect(help.renderingContent?.redirect).toEqual({ url: '/help' });
    const off = await connect(SEARCH_KEY).searchSingleIndex({ indexName: 'products', searchParams: { query: 'lamp', enableRules: false } });
    expect(ids(off.hits)).toEqual(['p1', 'p2']);

    const deleted = await client.deleteRule({ indexName: 'products', objectID: 'help' });
    await client.waitForTask({ indexName: 'products', taskID: deleted.taskID });
    await expect(client.getRule({ indexName: 'products', objectID: 'help' })).rejects.toMatchObject({ status: 404 });
    const replaced = await client.saveRules({ indexName: 'products', rules: [REDIRECT], clearExistingRules: true });
    await client.waitForTask({ indexName: 'products', taskID: replaced.taskID });
    expect((await client.searchRules({ indexName: 'products' })).hits.map((r) => r.objectID)).toEqual(['help']);
    const cleared = await client.clearRules({ indexName: 'products' });
    await client.waitForTask({ indexName: 'products', taskID: cleared.taskID });
    expect((await client.searchRules({ indexName: 'products' })).nbHits).toBe(0);
  });

  it('ACLs as Algolia: settings to read, editSettings to write; the search key has neither', async () => {
    const reader = await fixture.createKey({ acl: ['settings'] });
    await expect(connect(SEARCH_KEY).saveRule({ indexName: 'products', objectID: 'x', rule: REDIRECT })).rejects.toMatchObject({ status: 403 });
    await expect(connect(SEARCH_KEY).searchRules({ indexName: 'products' })).rejects.toMatchObject({ status: 403 });
    await expect(connect(reader).searchRules({ indexName: 'products' })).resolves.toMatchObject({ hits: [] });
    await expect(connect(reader).clearRules({ indexName: 'products' })).rejects.toMatchObject({ status: 403 });
  });

  it("a secured key's forced filter keeps a promoted record out", async () => {
    const task = await client.saveRule({ indexName: 'products', objectID: PIN_DESK.objectID, rule: PIN_DESK });
    await client.waitForTask({ indexName: 'products', taskID: task.taskID });
    const lumioOnly = securedApiKey(SEARCH_KEY, { filters: 'brand:Lumio' });
    const response = await connect(lumioOnly).searchSingleIndex({ indexName: 'products', searchParams: { query: 'lamp' } });
    expect(ids(response.hits)).toEqual(['p1']);
    expect(response.nbHits).toBe(1);
  });

  it('refuses invalid rules with a 400 naming the problem, and applies nothing of the batch', async () => {
    const bad = await fixture.call('POST', '/1/indexes/products/rules/batch', [REDIRECT, { objectID: 'bad', conditions: [{ pattern: 'x', anchoring: 'sometimes' }], consequence: {} }]);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ status: 400, message: 'Invalid rule at the position 1: Invalid rule bad: condition "anchoring" must be one of is, startsWith, endsWith, contains' });
    const noConsequence = await fixture.call('PUT', '/1/indexes/products/rules/r1', { conditions: [] });
    expect(noConsequence.status).toBe(400);
    expect(noConsequence.body.message).toMatch(/needs a "consequence" object/);
    const notArray = await fixture.call('POST', '/1/indexes/products/rules/batch', { objectID: 'x' });
    expect(notArray).toEqual({ status: 400, body: { status: 400, message: 'Invalid body: expected an array of rules' } });
    expect((await fixture.call('POST', '/1/indexes/products/rules/search', { hitsPerPage: 0 })).status).toBe(400);
    expect((await fixture.call('GET', '/1/indexes/products/rules/help')).body).toEqual({ status: 404, message: 'ObjectID does not exist' });
  });

  it('copyIndex with scope rules copies the rules only; a full copy takes them too', async () => {
    const task = await client.saveRule({ indexName: 'products', objectID: PIN_DESK.objectID, rule: PIN_DESK });
    await client.waitForTask({ indexName: 'products', taskID: task.taskID });
    const scoped = await client.operationIndex({ indexName: 'products', operationIndexParams: { operation: 'copy', destination: 'rules_only', scope: ['rules'] } });
    await client.waitForTask({ indexName: 'rules_only', taskID: scoped.taskID });
    expect((await client.searchRules({ indexName: 'rules_only' })).hits.map((r) => r.objectID)).toEqual(['pin-desk']);
    expect((await client.searchSingleIndex({ indexName: 'rules_only', searchParams: {} })).nbHits).toBe(0);
    const full = await client.operationIndex({ indexName: 'products', operationIndexParams: { operation: 'copy', destination: 'products_copy' } });
    await client.waitForTask({ indexName: 'products_copy', taskID: full.taskID });
    const copy = await client.searchSingleIndex({ indexName: 'products_copy', searchParams: { query: 'lamp' } });
    expect(ids(copy.hits)).toEqual(['p3', 'p1']);
  });

  it('works through the v4 client: saveRule, search with ruleContexts, browseRules', async () => {
    const v4 = algoliasearchV4(APP_ID, ADMIN_KEY, { hosts: [{ url: fixture.host, protocol: 'http' }] }).initIndex('v4rules');
    await v4.saveObjects(PRODUCTS).wait();
    await v4.saveRule({ objectID: 'ctx', conditions: [{ context: 'kiosk' }], consequence: { userData: { screen: 'kiosk' } } }).wait();
    const withContext = await v4.search('', { ruleContexts: ['kiosk'], getRankingInfo: true });
    expect(withContext.userData).toEqual([{ screen: 'kiosk' }]);
    expect((withContext as unknown as { appliedRules: unknown }).appliedRules).toEqual([{ objectID: 'ctx' }]);
    expect((await v4.search('', { ruleContexts: ['web'] })).userData).toBeUndefined();
    const browsed: string[] = [];
    await v4.browseRules({ batch: (rules) => browsed.push(...rules.map((r) => r.objectID)) });
    expect(browsed).toEqual(['ctx']);
  });
});
