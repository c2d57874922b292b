import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateProducts } from '@vitrine/demo';
import { allRecords, runCli, startTestServer, tempDir } from '../testing.ts';
import type { TestServer } from '../testing.ts';
import { listRecommendRules, saveRecommendRules } from '../importer/recommend-rules.ts';
import { exportPaths } from './export.ts';

let test: TestServer;
const dir = tempDir();
const products = [...generateProducts(2500, 5)];

beforeAll(async () => {
  test = await startTestServer();
  const { client } = test;
  const settings = await client.setSettings({
    indexName: 'shop',
    indexSettings: { searchableAttributes: ['name', 'brand'], attributesForFaceting: ['brand', 'color'], customRanking: ['desc(popularity)'] },
  });
  await client.waitForTask({ indexName: 'shop', taskID: settings.taskID });
  const synonyms = await client.saveSynonyms({
    indexName: 'shop',
    synonymHit: [
      { objectID: 'sofa', type: 'synonym', synonyms: ['sofa', 'couch', 'settee'] },
      { objectID: 'tv', type: 'onewaysynonym', input: 'tv', synonyms: ['television'] },
    ],
  });
  await client.waitForTask({ indexName: 'shop', taskID: synonyms.taskID });
  const rules = await client.saveRules({
    indexName: 'shop',
    rules: [
      { objectID: 'pin', conditions: [{ pattern: 'sofa', anchoring: 'contains' }], consequence: { promote: [{ objectID: products[0].objectID, position: 0 }] } },
      { objectID: 'banner', conditions: [{ context: 'sale' }], consequence: { userData: { banner: 'sale' } }, validity: [{ from: 0, until: 4102444800 }] },
    ],
  });
  await client.waitForTask({ indexName: 'shop', taskID: rules.taskID });
  await saveRecommendRules(client, 'shop', {
    'related-products': [
      { objectID: 'same-brand', condition: { filters: 'brand:Dorel', context: 'web' }, consequence: { params: { automaticFacetFilters: [{ facet: 'brand' }] } } },
      { objectID: 'pin', consequence: { promote: [{ objectID: products[1].objectID, position: 0 }], hide: [{ objectID: products[2].objectID }] } },
    ],
    'trending-items': [{ objectID: 'cheap', description: 'cheap first', consequence: { params: { optionalFilters: ['brand:Dorel<score=2>'] } }, validity: [{ from: 0 }] }],
  });
  const saved = await client.saveObjects({ indexName: 'shop', objects: products, waitForTasks: true });
  expect(saved.length).toBeGreaterThan(0);
});
afterAll(async () => {
  await test.close();
  rmSync(dir, { recursive: true, force: true });
});

async function snapshotOf(indexName: string) {
  const { client } = test;
  const synonyms = await client.searchSynonyms({ indexName, searchSynonymsParams: { hitsPerPage: 100 } });
  return {
    records: await allRecords(client, indexName),
    settings: await client.getSettings({ indexName }),
    rules: (await client.searchRules({ indexName, searchRulesParams: { hitsPerPage: 100 } })).hits,
    // Saved anew on import: only their time of saving differs.
    recommendRules: Object.entries(await listRecommendRules(client, indexName)).map(([model, rules]) => [model, rules!.map(({ _metadata: _m, ...rule }) => rule)]),
    synonyms: synonyms.hits
      .map((hit) => {
        const { _highlightResult: _h, ...synonym } = hit as typeof hit & { _highlightResult?: unknown };
        return synonym;
      })
      .sort((a, b) => a.objectID.localeCompare(b.objectID)),
  };
}

describe('vitrine export', () => {
  it('names its five files after --out', () => {
    expect(exportPaths('/x/out.ndjson', 'shop')).toEqual({
      records: '/x/out.ndjson',
      settings: '/x/out.settings.json',
      synonyms: '/x/out.synonyms.json',
      rules: '/x/out.rules.json',
      recommendRules: '/x/out.recommend-rules.json',
    });
    expect(exportPaths('/x/backup', 'shop')).toEqual({
      records: '/x/backup/shop.ndjson',
      settings: '/x/backup/shop.settings.json',
      synonyms: '/x/backup/shop.synonyms.json',
      rules: '/x/backup/shop.rules.json',
      recommendRules: '/x/backup/shop.recommend-rules.json',
    });
  });

  it('round-trips: importing an export gives an identical index', async () => {
    const out = join(dir, 'backup');
    const exported = await runCli(['export', '--index', 'shop', '--out', out], { env: test.env, cwd: dir });
    expect(exported.code, exported.stderr).toBe(0);
    expect(readFileSync(join(out, 'shop.ndjson'), 'utf8').trim().split('\n')).toHaveLength(products.length);

    const imported = await runCli(
      ['import', join(out, 'shop.ndjson'), '--index', 'shop_restored', '--settings', join(out, 'shop.settings.json'), '--synonyms', join(out, 'shop.synonyms.json'), '--rules', join(out, 'shop.rules.json'), '--recommend-rules', join(out, 'shop.recommend-rules.json')],
      { env: test.env, cwd: dir },
    );
    expect(imported.code, imported.stderr).toBe(0);

    const original = await snapshotOf('shop');
    const restored = await snapshotOf('shop_restored');
    expect(restored.records).toHaveLength(products.length);
    expect(restored.records).toEqual(original.records);
    expect(restored.settings).toEqual(original.settings);
    expect(restored.synonyms).toEqual(original.synonyms);
    expect(original.synonyms).toHaveLength(2);
    expect(restored.rules).toEqual(original.rules);
    expect(original.rules.map((rule) => rule.objectID)).toEqual(['banner', 'pin']);
    expect(restored.recommendRules).toEqual(original.recommendRules);
    expect(original.recommendRules.flatMap(([, rules]) => (rules as Array<{ objectID: string }>).map((rule) => rule.objectID))).toEqual(['pin', 'same-brand', 'cheap']);
    expect(exported.stdout).toMatch(/3 Recommend rules to .*shop\.recommend-rules\.json/);
  });

  it('fails cleanly for an index that does not exist, writing nothing', async () => {
    const out = join(dir, 'nothing');
    const run = await runCli(['export', '--index', 'no_such_index', '--out', out], { env: test.env, cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/HTTP 404/);
    expect(existsSync(out)).toBe(false);
  });
});
