/**
 * The demo catalogue's rules, seeded with it and searched through the HTTP API as the storefront would: a
 * pinned lamp on "lamp", a banner on "sale", a redirect on "help", a brand boosted within its department.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { categoryContext, demoIndexName, demoRuleSources, demoRules, generateProducts } from '@vitrine/demo';
import { startTestServer } from '../testing.ts';
import type { TestServer } from '../testing.ts';
import { seedDemoCatalogue } from './seed.ts';

const SIZE = 600;
let test: TestServer;
const sources = demoRuleSources();
for (const product of generateProducts(SIZE)) sources.add(product);
const lamp = sources.lamp!;

beforeAll(async () => {
  test = await startTestServer();
  await seedDemoCatalogue(test.server.store, { size: SIZE });
});
afterAll(() => test.close());

const search = (params: Record<string, unknown>) => test.client.searchSingleIndex({ indexName: demoIndexName, searchParams: params });

describe('demo rules', () => {
  it('are saved with the catalogue, on the primary and its replicas', async () => {
    const saved = await test.client.searchRules({ indexName: demoIndexName });
    expect(saved.hits.map((rule) => rule.objectID)).toEqual(demoRules(sources).map((rule) => rule.objectID).sort());
    expect((await test.client.searchRules({ indexName: 'products_price_asc' })).nbHits).toBe(saved.nbHits);
  });

  it('pin a lamp first on lamp searches, which it is not without the rule', async () => {
    const pinned = await search({ query: 'lamps', getRankingInfo: true });
    expect(pinned.hits[0].objectID).toBe(lamp.objectID);
    expect(pinned.hits[0]._rankingInfo?.promoted).toBe(true);
    const plain = await search({ query: 'lamps', enableRules: false });
    expect(plain.hits[0].objectID).not.toBe(lamp.objectID);
  });

  it('show a banner on "sale", searching the other words, and redirect "help"', async () => {
    const sale = await search({ query: 'sale lamp' });
    expect(sale.userData).toEqual([expect.objectContaining({ type: 'banner', title: 'Winter sale' })]);
    expect(sale.nbHits).toBe((await search({ query: 'lamp' })).nbHits);
    expect((await search({ query: 'help' })).renderingContent?.redirect).toEqual({ url: '/help' });
  });

  it("boost the lamp's brand while browsing its department", async () => {
    const department = lamp.hierarchicalCategories.lvl0;
    const params = { facetFilters: [`hierarchicalCategories.lvl0:${department}`], hitsPerPage: 20 };
    const ofBrand = (await search({ facetFilters: [...params.facetFilters, `brand:${lamp.brand}`], hitsPerPage: 0 })).nbHits ?? 0;
    const first = Math.min(ofBrand, 20);
    expect(first).toBeGreaterThan(0);
    const brands = async (extra: Record<string, unknown>) => (await search({ ...params, ...extra })).hits.slice(0, first).map((hit) => (hit as { brand?: string }).brand);
    expect(await brands({ ruleContexts: [categoryContext(department)] })).toEqual(Array(first).fill(lamp.brand));
    expect(await brands({})).not.toEqual(Array(first).fill(lamp.brand));
  });
});
