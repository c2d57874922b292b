/**
 * The demo catalogue's variants through the server, with the demo settings: `distinct` asked per request shows one
 * variant per model (attributeForDistinct groupID), without it every variant comes back, a filter on groupID
 * lists one model's variants (what the storefront's variant picker asks), and groupID is never a visible facet.
 */
import { demoIndexName, demoSettings, generateProducts } from '@vitrine/demo';
import type { Product } from '@vitrine/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../src/test-support.ts';
import type { TestServer } from '../src/test-support.ts';

describe('demo variants over HTTP', () => {
  let t: TestServer;
  const products = [...generateProducts(1500, 3)];
  const groups = new Map<string, Product[]>();
  for (const p of products) groups.set(p.groupID!, [...(groups.get(p.groupID!) ?? []), p]);

  beforeAll(async () => {
    t = await startTestServer({ index: { name: demoIndexName, settings: demoSettings, records: products } });
  });
  afterAll(() => t.close());

  type Response = { hits: Product[]; nbHits: number; facets?: Record<string, unknown> };

  it('shows one variant per model with distinct, every variant without it', async () => {
    const all = (await t.search({ query: '', hitsPerPage: 1000 })) as Response;
    expect(all.nbHits).toBe(products.length);
    const distinct = (await t.search({ query: '', hitsPerPage: 1000, distinct: true })) as Response;
    const shown = distinct.hits.map((hit) => hit.groupID);
    expect(new Set(shown).size).toBe(shown.length);
    expect(shown.length).toBe(Math.min(1000, groups.size));
    expect(groups.size).toBeLessThan(products.length);
  });

  it('lists the variants of one model by filtering on groupID, and never shows groupID as a facet', async () => {
    const [groupID, variants] = [...groups.entries()].find(([, list]) => list.length >= 3)!;
    const response = (await t.search({ query: '', filters: `groupID:${groupID}`, facets: ['*'], hitsPerPage: 20 })) as Response;
    expect(response.hits.map((hit) => hit.objectID).sort()).toEqual(variants.map((p) => p.objectID).sort());
    expect(new Set(response.hits.map((hit) => `${hit.color}/${hit.size}`)).size).toBe(variants.length);
    expect(Object.keys(response.facets ?? {})).not.toContain('groupID');
  });
});
