/**
 * Rules never widen what a key allows (issue 49, item 2), over a real server with a search thread and the
 * official clients: a stored key's `queryParameters` and `maxHitsPerQuery`, its secured child keys and a
 * secured key's own parameters win over a rule's consequence (`attributesToRetrieve: ["*"]`, `hitsPerPage:
 * 1000`); and rule parameters are checked with the limits of a search's when the rule is saved (400 then,
 * rather than a costly build and a 400 on every search it triggers).
 */
import { algoliasearch } from 'algoliasearch';
import type { Rule } from 'algoliasearch';
import algoliasearchV4 from 'algoliasearch-v4';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, APP_ID, SEARCH_KEY, securedApiKey, startTestServer } from '../src/test-support.ts';
import type { TestServer } from '../src/test-support.ts';
import { PRODUCTS, SETTINGS } from './catalogue.ts';

const WIDEN: Rule = {
  objectID: 'widen',
  conditions: [{ context: 'attr' }],
  consequence: { params: { attributesToRetrieve: ['*'], attributesToHighlight: ['*'], hitsPerPage: 1000, highlightPreTag: '<b>' } },
};

describe('rules under the keys that search', () => {
  let fixture: TestServer;
  let stored: string;
  const connect = (key: string) => algoliasearch(APP_ID, key, { hosts: [{ url: fixture.host, protocol: 'http', accept: 'readWrite' }] });
  // getRankingInfo: the answer then names the rules applied.
  const search = (key: string, searchParams: Record<string, unknown>) => connect(key).searchSingleIndex({ indexName: 'products', searchParams: { ...searchParams, getRankingInfo: true } });
  /** Attribute names of each hit, highlight result included. */
  const shapes = (hits: Array<Record<string, unknown>>) =>
    hits.map((hit) => ({ keys: Object.keys(hit).filter((key) => key !== '_rankingInfo').sort(), highlighted: Object.keys((hit._highlightResult as object | undefined) ?? {}).sort() }));

  beforeAll(async () => {
    fixture = await startTestServer({ config: { searchThreads: 1 }, index: { name: 'products', settings: SETTINGS, records: PRODUCTS } });
    const admin = connect(ADMIN_KEY);
    const task = await admin.saveRule({ indexName: 'products', objectID: WIDEN.objectID, rule: WIDEN });
    await admin.waitForTask({ indexName: 'products', taskID: task.taskID });
    stored = await fixture.createKey({ acl: ['search'], maxHitsPerQuery: 2, queryParameters: 'attributesToRetrieve=%5B%22name%22%5D' });
  });
  afterAll(() => fixture.close());

  it('applies the rule for a key that forces nothing', async () => {
    const open = await search(SEARCH_KEY, { ruleContexts: ['attr'] });
    expect(open.appliedRules).toEqual([{ objectID: 'widen' }]);
    expect(open.hitsPerPage).toBe(1000);
    expect(open.hits).toHaveLength(PRODUCTS.length);
    expect(Object.keys(open.hits[0])).toContain('price');
  });

  it("keeps a stored key's attributesToRetrieve and maxHitsPerQuery over the rule, and its secured keys' too", async () => {
    for (const key of [stored, securedApiKey(stored, {}), securedApiKey(stored, { hitsPerPage: 50 })]) {
      const answer = await search(key, { ruleContexts: ['attr'] });
      expect(answer.appliedRules).toEqual([{ objectID: 'widen' }]);
      expect(answer.hits).toHaveLength(2);
      expect(answer.hitsPerPage).toBe(2);
      expect(shapes(answer.hits as never)).toEqual([
        { keys: ['_highlightResult', 'name', 'objectID'], highlighted: ['name'] },
        { keys: ['_highlightResult', 'name', 'objectID'], highlighted: ['name'] },
      ]);
    }
    // Through the v4 client and its params string, the same.
    const v4 = algoliasearchV4(APP_ID, stored, { hosts: [{ url: fixture.host, protocol: 'http' }] }).initIndex('products');
    const answer = await v4.search('', { ruleContexts: ['attr'], hitsPerPage: 1000, attributesToRetrieve: ['*'] });
    expect(answer.hits).toHaveLength(2);
    expect(Object.keys(answer.hits[0]).sort()).toEqual(['_highlightResult', 'name', 'objectID']);
  });

  it("keeps a secured key's own forced parameters over the rule", async () => {
    const secured = securedApiKey(SEARCH_KEY, { hitsPerPage: 3, attributesToRetrieve: ['brand'], highlightPreTag: '<em>' });
    const answer = await search(secured, { ruleContexts: ['attr'], query: 'lumio' });
    expect(answer.appliedRules).toEqual([{ objectID: 'widen' }]);
    expect(answer.hitsPerPage).toBe(3);
    expect(answer.hits.map((hit) => Object.keys(hit).filter((key) => key !== '_rankingInfo').sort())).toEqual([
      ['_highlightResult', 'brand', 'objectID'],
      ['_highlightResult', 'brand', 'objectID'],
    ]);
    expect(JSON.stringify(answer.hits)).toContain('<em>Lumio</em>');
    expect(JSON.stringify(answer.hits)).not.toContain('<b>');
  });

  it("checks a rule's parameters with a search's limits when it is saved", async () => {
    const admin = connect(ADMIN_KEY);
    const withParams = (params: Record<string, unknown>): Rule => ({ objectID: 'costly', conditions: [{ context: 'costly' }], consequence: { params } });
    const refused: Array<[Record<string, unknown>, RegExp]> = [
      [{ highlightPreTag: 'x'.repeat(200_000) }, /^Invalid rule at the position 0: Parameter too long: "highlightPreTag" is 200000 bytes, the limit is 256$/],
      [{ snippetEllipsisText: 'x'.repeat(257) }, /"snippetEllipsisText" is 257 bytes, the limit is 256/],
      [{ hitsPerPage: 5000 }, /"hitsPerPage": must be between 0 and 1000/],
      [{ attributesToHighlight: Array.from({ length: 1001 }, (_, i) => `a${i}`) }, /"attributesToHighlight" has 1001 entries, the limit is 1000/],
      [{ query: 'x'.repeat(600) }, /Query too long: 600 bytes, the limit is 512/],
      [{ filters: 42 }, /"filters": expected a string/],
    ];
    for (const [params, message] of refused) {
      await expect(admin.saveRule({ indexName: 'products', objectID: 'costly', rule: withParams(params) })).rejects.toMatchObject({ status: 400, message: expect.stringMatching(message) });
    }
    // In a batch: refused whole, the good rule beside it not saved either.
    const batch = await fixture.call('POST', '/1/indexes/products/rules/batch', [
      { objectID: 'fine', conditions: [{ context: 'fine' }], consequence: { params: { hitsPerPage: 5 } } },
      withParams({ highlightPostTag: 'y'.repeat(300) }),
    ]);
    expect(batch).toEqual({ status: 400, body: { status: 400, message: 'Invalid rule at the position 1: Parameter too long: "highlightPostTag" is 300 bytes, the limit is 256' } });
    await expect(admin.getRule({ indexName: 'products', objectID: 'fine' })).rejects.toMatchObject({ status: 404 });
    // A rule within the limits, a query edit object included, is saved.
    const fine = await admin.saveRule({ indexName: 'products', objectID: 'edits', rule: { objectID: 'edits', conditions: [{ pattern: 'cheap', anchoring: 'contains' }], consequence: { params: { query: { remove: ['cheap'] }, hitsPerPage: 10 } } } });
    await admin.waitForTask({ indexName: 'products', taskID: fine.taskID });
    expect((await search(SEARCH_KEY, { query: 'cheap lamp' })).appliedRules).toEqual([{ objectID: 'edits' }]);
  });
});
