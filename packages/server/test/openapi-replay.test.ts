/**
 * Replay through the official v5 client (`algoliasearch`, unchanged) against a real server on loopback: every
 * operation of the search client the server supports (docs/COMPATIBILITY.md), plus the Insights and Recommend
 * operations it serves, each answer validated against the 200 response schema of that operation in Algolia's
 * OpenAPI specs (`fixtures/algolia-openapi/`). Where Vitrine deliberately differs, the operation is listed in
 * EXCEPTIONS with the reason docs/COMPATIBILITY.md gives; an exception that no longer fails fails the test, so
 * the list stays true.
 */
import { algoliasearch } from 'algoliasearch';
import type { Algoliasearch } from 'algoliasearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, APP_ID, SEARCH_KEY, startTestServer } from '../src/test-support.ts';
import type { TestServer } from '../src/test-support.ts';
import { PRODUCTS, SETTINGS } from './catalogue.ts';
import { SpecValidator } from './openapi/spec-validator.ts';

/** Operations whose answers differ from the spec on purpose (see docs/COMPATIBILITY.md, "OpenAPI replay"). */
const EXCEPTIONS: Record<string, string> = {};

const RULE = { objectID: 'pin', conditions: [{ pattern: 'lamp', anchoring: 'contains' as const }], consequence: { promote: [{ objectID: 'p3', position: 0 }] } };
const SYNONYM = { objectID: 'syn', type: 'synonym' as const, synonyms: ['lamp', 'light'] };
const RECOMMEND_RULE = {
  objectID: 'rr-1',
  description: 'Lamps: pin p3, hide p4, same brand, cheap first',
  condition: { filters: 'brand:Lumio', context: 'web' },
  consequence: { promote: [{ objectID: 'p3', position: 0 }], hide: [{ objectID: 'p4' }], params: { automaticFacetFilters: [{ facet: 'brand' }], filters: 'price < 100', optionalFilters: ['stock:2'] } },
  enabled: true,
  validity: [{ from: 1_700_000_000, until: 4_000_000_000 }],
};

describe('answers against the OpenAPI specs, through the official v5 client', () => {
  let fixture: TestServer;
  let client: Algoliasearch;
  const spec = new SpecValidator();
  const failures: string[] = [];
  const checked = new Set<string>();

  /** Runs one operation and validates its answer; returns the answer for the next steps. */
  async function check<T>(operationId: string, call: Promise<T>): Promise<T> {
    const answer = await call;
    checked.add(operationId);
    const errors = spec.errors(operationId, answer);
    if (operationId in EXCEPTIONS) {
      if (errors.length === 0) failures.push(`${operationId}: listed as an exception but now matches the spec`);
    } else if (errors.length > 0) {
      failures.push(`${operationId}: ${errors.join('; ')} in ${JSON.stringify(answer).slice(0, 400)}`);
    }
    return answer;
  }

  beforeAll(async () => {
    fixture = await startTestServer();
    client = algoliasearch(APP_ID, ADMIN_KEY, { hosts: [{ url: fixture.host, protocol: 'http', accept: 'readWrite' }] });
  });
  afterAll(() => fixture.close());

  it('validates every supported operation\'s answer', { timeout: 60_000 }, async () => {
    const indexName = 'replay';
    // Some answers' taskID is optional in the client's types: every write of Vitrine's answers one.
    const wait = (taskID: number | undefined) => {
      expect(taskID).toBeTypeOf('number');
      return client.waitForTask({ indexName, taskID: taskID! });
    };

    // Settings, records and tasks.
    const set = await check('setSettings', client.setSettings({ indexName, indexSettings: { ...SETTINGS, replicas: ['replay_price'] } }));
    await wait(set.taskID);
    await check('getTask', client.getTask({ indexName, taskID: set.taskID }));
    await check('getAppTask', client.getAppTask({ taskID: set.taskID }));
    await check('getSettings', client.getSettings({ indexName }));
    await check('getSettings', client.getSettings({ indexName: 'replay_price' }));
    const batch = await check('batch', client.batch({ indexName, batchWriteParams: { requests: PRODUCTS.map((body) => ({ action: 'addObject' as const, body })) } }));
    await wait(batch.taskID);
    await wait((await check('saveObject', client.saveObject({ indexName, body: { name: 'generated id' } }))).taskID);
    await wait((await check('addOrUpdateObject', client.addOrUpdateObject({ indexName, objectID: 'p6', body: { name: 'Lumio desk lamp', brand: 'Lumio', price: 30, stock: 2 } }))).taskID);
    await wait((await check('partialUpdateObject', client.partialUpdateObject({ indexName, objectID: 'p6', attributesToUpdate: { stock: 4 } }))).taskID);
    const multi = await check('multipleBatch', client.multipleBatch({ requests: [{ action: 'addObject', indexName: 'replay_other', body: { objectID: 'o1', name: 'other' } }] }));
    await client.waitForTask({ indexName: 'replay_other', taskID: multi.taskID.replay_other });
    await check('getObject', client.getObject({ indexName, objectID: 'p1' }));
    await check('getObjects', client.getObjects({ requests: [{ indexName, objectID: 'p1' }, { indexName, objectID: 'missing' }] }));
    await check('listIndices', client.listIndices());

    // Search.
    const search = algoliasearch(APP_ID, SEARCH_KEY, { hosts: [{ url: fixture.host, protocol: 'http', accept: 'readWrite' }] });
    await check('searchSingleIndex', search.searchSingleIndex({ indexName, searchParams: { query: 'lamp', facets: ['*'], getRankingInfo: true, clickAnalytics: true } }));
    await check('search', search.search({ requests: [{ indexName, query: 'lamp', facets: ['brand'] }, { indexName: 'replay_price', query: '' }, { indexName, type: 'facet', facet: 'brand', facetQuery: 'lu' }] }));
    await check('searchForFacetValues', search.searchForFacetValues({ indexName, facetName: 'brand', searchForFacetValuesRequest: { facetQuery: 'n' } }));
    // Searches an A/B test routes carry abTestID, abTestVariantID and indexUsed (the abtesting API has no spec here).
    const abtesting = client.initAbtesting({ options: { hosts: [{ url: fixture.host, protocol: 'http', accept: 'readWrite' }] } });
    const abTest = await abtesting.addABTests({ name: 'replay', variants: [{ index: indexName, trafficPercentage: 1 }, { index: 'replay_price', trafficPercentage: 99 }], endAt: new Date(Date.now() + 86_400_000).toISOString() });
    await check('searchSingleIndex', search.searchSingleIndex({ indexName, searchParams: { query: 'lamp', userToken: 'u2' } }));
    await check('search', search.search({ requests: [{ indexName, query: 'lamp', userToken: 'u2' }] }));
    await abtesting.deleteABTest({ id: abTest.abTestID });
    await check('browse', client.browse({ indexName, browseParams: { hitsPerPage: 2 } }));

    // Synonyms and rules.
    await wait((await check('saveSynonym', client.saveSynonym({ indexName, objectID: SYNONYM.objectID, synonymHit: SYNONYM }))).taskID);
    await wait((await check('saveSynonyms', client.saveSynonyms({ indexName, synonymHit: [{ ...SYNONYM, objectID: 'syn2' }] }))).taskID);
    await check('getSynonym', client.getSynonym({ indexName, objectID: 'syn' }));
    await check('searchSynonyms', client.searchSynonyms({ indexName, searchSynonymsParams: { query: 'lamp' } }));
    await wait((await check('deleteSynonym', client.deleteSynonym({ indexName, objectID: 'syn2' }))).taskID);
    await wait((await check('clearSynonyms', client.clearSynonyms({ indexName }))).taskID);
    await wait((await check('saveRule', client.saveRule({ indexName, objectID: RULE.objectID, rule: RULE }))).taskID);
    await wait((await check('saveRules', client.saveRules({ indexName, rules: [{ ...RULE, objectID: 'pin2' }] }))).taskID);
    await check('getRule', client.getRule({ indexName, objectID: 'pin' }));
    await check('searchRules', client.searchRules({ indexName, searchRulesParams: { query: 'lamp' } }));
    await wait((await check('deleteRule', client.deleteRule({ indexName, objectID: 'pin2' }))).taskID);
    await wait((await check('clearRules', client.clearRules({ indexName }))).taskID);

    // Dictionaries (application tasks).
    const entries = await check('batchDictionaryEntries', client.batchDictionaryEntries({
      dictionaryName: 'stopwords',
      batchDictionaryEntriesParams: { requests: [{ action: 'addEntry', body: { objectID: 'sw', language: 'en', word: 'vintage' } }] },
    }));
    await client.waitForAppTask({ taskID: entries.taskID });
    await check('searchDictionaryEntries', client.searchDictionaryEntries({ dictionaryName: 'stopwords', searchDictionaryEntriesParams: { query: 'vin', language: 'en' } }));
    await check('searchDictionaryEntries', client.searchDictionaryEntries({ dictionaryName: 'compounds', searchDictionaryEntriesParams: { query: 'a' } }));
    await client.waitForAppTask({ taskID: (await check('setDictionarySettings', client.setDictionarySettings({ disableStandardEntries: { stopwords: { fr: true } } }))).taskID });
    await check('getDictionarySettings', client.getDictionarySettings());
    await check('getDictionaryLanguages', client.getDictionaryLanguages());

    // Keys.
    const key = await check('addApiKey', client.addApiKey({ acl: ['search'], description: 'replay', indexes: ['replay*'] }));
    await client.waitForApiKey({ key: key.key, operation: 'add' });
    await check('getApiKey', client.getApiKey({ key: key.key }));
    await check('listApiKeys', client.listApiKeys());
    await check('updateApiKey', client.updateApiKey({ key: key.key, apiKey: { acl: ['search', 'browse'] } }));
    await check('deleteApiKey', client.deleteApiKey({ key: key.key }));
    await check('restoreApiKey', client.restoreApiKey({ key: key.key }));

    // Allowed sources (this machine kept in the list, for the search key's calls below; emptied after).
    await check('replaceSources', client.replaceSources({ source: [{ source: '127.0.0.0/8', description: 'this machine' }, { source: '10.0.0.0/8' }] }));
    await check('appendSource', client.appendSource({ source: '192.0.2.0/24', description: 'replay' }));
    await check('getSources', client.getSources());
    await check('deleteSource', client.deleteSource({ source: '192.0.2.0/24' }));
    await client.replaceSources({ source: [] });

    // Index operations and deletions.
    await wait((await check('operationIndex', client.operationIndex({ indexName, operationIndexParams: { operation: 'copy', destination: 'replay_copy' } }))).taskID);
    await wait((await check('deleteObject', client.deleteObject({ indexName, objectID: 'p6' }))).taskID);
    await wait((await check('deleteBy', client.deleteBy({ indexName, deleteByParams: { filters: 'brand:Apple' } }))).taskID);
    await client.waitForTask({ indexName: 'replay_copy', taskID: (await check('clearObjects', client.clearObjects({ indexName: 'replay_copy' }))).taskID });
    await client.waitForTask({ indexName: 'replay_copy', taskID: (await check('deleteIndex', client.deleteIndex({ indexName: 'replay_copy' }))).taskID });

    // Logs, Insights and Recommend.
    await check('getLogs', client.getLogs({ length: 100 }));
    await check('getLogs', client.getLogs({ type: 'error' }));
    const hosts = [{ url: fixture.host, protocol: 'http' as const, accept: 'readWrite' as const }];
    const insights = algoliasearch(APP_ID, SEARCH_KEY, { hosts }).initInsights({ options: { hosts } });
    await check('pushEvents', insights.pushEvents({ events: [{ eventType: 'view', eventName: 'Viewed', index: indexName, userToken: 'u1', objectIDs: ['p1'] }] }));
    const recommend = algoliasearch(APP_ID, SEARCH_KEY, { hosts }).initRecommend({ options: { hosts } });
    await check('getRecommendations', recommend.getRecommendations({ requests: [{ indexName, model: 'trending-items', threshold: 0 }] }));
    const admin = algoliasearch(APP_ID, ADMIN_KEY, { hosts }).initRecommend({ options: { hosts } });
    const model = 'related-products' as const;
    const rules = await check('batchRecommendRules', admin.batchRecommendRules({ indexName, model, recommendRule: [RECOMMEND_RULE, { objectID: 'rr-2' }] }));
    while ((await check('getRecommendStatus', admin.getRecommendStatus({ indexName, model, taskID: rules.taskID }))).status !== 'published') await new Promise((resolve) => setImmediate(resolve));
    await check('getRecommendRule', admin.getRecommendRule({ indexName, model, objectID: RECOMMEND_RULE.objectID }));
    await check('searchRecommendRules', admin.searchRecommendRules({ indexName, model, searchRecommendRulesParams: { query: 'lamp', filters: 'enabled:true' } }));
    await check('deleteRecommendRule', admin.deleteRecommendRule({ indexName, model, objectID: 'rr-2' }));

    expect(failures).toEqual([]);
  });

  it('covered every operation the compatibility table lists as served', () => {
    const served = [
      'searchSingleIndex', 'search', 'searchForFacetValues', 'browse', 'saveObject', 'deleteIndex', 'getObject', 'addOrUpdateObject',
      'deleteObject', 'deleteBy', 'clearObjects', 'partialUpdateObject', 'batch', 'multipleBatch', 'getObjects', 'getSettings', 'setSettings',
      'getSynonym', 'saveSynonym', 'deleteSynonym', 'saveSynonyms', 'clearSynonyms', 'searchSynonyms', 'listApiKeys', 'addApiKey', 'getApiKey',
      'updateApiKey', 'deleteApiKey', 'restoreApiKey', 'getRule', 'saveRule', 'deleteRule', 'saveRules', 'clearRules', 'searchRules',
      'batchDictionaryEntries', 'searchDictionaryEntries', 'getDictionarySettings', 'setDictionarySettings', 'getDictionaryLanguages',
      'getLogs', 'getAppTask', 'getTask', 'operationIndex', 'listIndices', 'pushEvents', 'getRecommendations',
      'batchRecommendRules', 'getRecommendStatus', 'getRecommendRule', 'searchRecommendRules', 'deleteRecommendRule',
      'getSources', 'replaceSources', 'appendSource', 'deleteSource',
    ];
    for (const operationId of served) expect(spec.has(operationId), `${operationId} in the specs`).toBe(true);
    expect(served.filter((operationId) => !checked.has(operationId))).toEqual([]);
    for (const operationId of Object.keys(EXCEPTIONS)) expect(served).toContain(operationId);
  });
});
