/**
 * When a rule triggers, on a tiny hand-made catalogue: pattern anchorings on normalised words, facet
 * placeholders, alternatives, contexts, filter conditions, rules without conditions, validity, enabled, and the
 * search parameters that turn rules off. Each case names the rule expected in `appliedRules`.
 */
import { describe, expect, it } from 'vitest';
import type { Rule } from '@vitrine/protocol';
import { SearchIndex } from '../index.ts';

const products = [
  { objectID: 'l1', name: 'Brass desk lamp', brand: 'Lumen', category: 'Lighting' },
  { objectID: 'l2', name: 'Floor lamp', brand: 'Lumen', category: 'Lighting' },
  { objectID: 'c1', name: 'Oak chair', brand: 'Oak & Co', category: 'Furniture' },
  { objectID: 'c2', name: 'Red chair', brand: 'Studio North', category: 'Furniture' },
];

function withRules(rules: Rule[]): SearchIndex {
  const index = new SearchIndex({ searchableAttributes: ['name', 'brand'], attributesForFaceting: ['brand', 'category'] });
  index.saveObjects(products);
  index.setRules(rules);
  return index;
}

const tagRule = (objectID: string, condition: Rule['conditions']): Rule => ({ objectID, conditions: condition, consequence: { userData: { id: objectID } } });
const applied = (index: SearchIndex, params: Record<string, unknown>, nowSeconds?: number): string[] =>
  (index.search({ getRankingInfo: true, ...params }, undefined, { nowSeconds }).appliedRules ?? []).map((r) => r.objectID);

describe('pattern anchoring', () => {
  const index = withRules([
    tagRule('is', [{ pattern: 'desk lamp', anchoring: 'is' }]),
    tagRule('starts', [{ pattern: 'desk', anchoring: 'startsWith' }]),
    tagRule('ends', [{ pattern: 'lamp', anchoring: 'endsWith' }]),
    tagRule('contains', [{ pattern: 'brass', anchoring: 'contains' }]),
  ]);

  it('is: the whole query, compared after normalisation (case, accents, punctuation)', () => {
    expect(applied(index, { query: 'Désk  LAMP!' })).toEqual(['is']);
    expect(applied(index, { query: 'desk lamps' })).toEqual(['starts']);
  });

  it('startsWith / endsWith / contains', () => {
    expect(applied(index, { query: 'desk light' })).toEqual(['starts']);
    expect(applied(index, { query: 'floor lamp' })).toEqual(['ends']);
    expect(applied(index, { query: 'old brass thing' })).toEqual(['contains']);
    expect(applied(index, { query: 'lamp desk' })).toEqual([]);
  });

  it('an empty pattern with `is` matches only the empty query', () => {
    const empty = withRules([tagRule('landing', [{ pattern: '', anchoring: 'is' }])]);
    expect(applied(empty, { query: '' })).toEqual(['landing']);
    expect(applied(empty, { query: 'lamp' })).toEqual([]);
  });
});

describe('placeholders and alternatives', () => {
  it('{facet:brand} matches a value of the facet, one or several words', () => {
    const index = withRules([tagRule('brand', [{ pattern: '{facet:brand} chair', anchoring: 'is' }])]);
    expect(applied(index, { query: 'studio north chair' })).toEqual(['brand']);
    expect(applied(index, { query: 'lumen chair' })).toEqual(['brand']);
    expect(applied(index, { query: 'nobody chair' })).toEqual([]);
  });

  it('alternatives: plural forms and synonyms of the pattern words match too', () => {
    const index = withRules([
      tagRule('alt', [{ pattern: 'lamp', anchoring: 'is', alternatives: true }]),
      tagRule('strict', [{ pattern: 'chair', anchoring: 'is' }]),
    ]);
    index.setSynonyms([{ objectID: 's', type: 'synonym', synonyms: ['lamp', 'light'] }]);
    expect(applied(index, { query: 'lamps' })).toEqual(['alt']);
    expect(applied(index, { query: 'light' })).toEqual(['alt']);
    expect(applied(index, { query: 'chairs' })).toEqual([]);
  });
});

describe('contexts, filters, no condition', () => {
  const index = withRules([
    tagRule('mobile', [{ context: 'mobile' }]),
    tagRule('lighting', [{ filters: 'category:Lighting' }]),
    tagRule('always', []),
  ]);

  it('a context condition needs that context among ruleContexts', () => {
    expect(applied(index, { query: 'x', ruleContexts: ['mobile'] })).toEqual(['mobile', 'always']);
    expect(applied(index, { query: 'x', ruleContexts: ['desktop'] })).toEqual(['always']);
  });

  it("a filters condition needs the request's filters to contain it (filters or facetFilters, any case)", () => {
    expect(applied(index, { filters: 'category:lighting AND brand:Lumen' })).toEqual(['lighting', 'always']);
    expect(applied(index, { facetFilters: [['category:Lighting']] })).toEqual(['lighting', 'always']);
    expect(applied(index, { facetFilters: [['category:Lighting', 'category:Furniture']] })).toEqual(['always']);
    expect(applied(index, { filters: 'NOT category:Lighting' })).toEqual(['always']);
  });

  it('enableRules: false turns every rule off', () => {
    expect(applied(index, { ruleContexts: ['mobile'], enableRules: false })).toEqual([]);
  });
});

describe('enabled and validity', () => {
  const index = withRules([
    { ...tagRule('off', []), enabled: false },
    { ...tagRule('sale', []), validity: [{ from: 1000, until: 2000 }, { from: 5000, until: 6000 }] },
  ]);

  it('a disabled rule never applies', () => {
    expect(applied(index, {}, 1500)).toEqual(['sale']);
  });

  it('a rule with validity ranges applies only within one, at the time the caller gives', () => {
    expect(applied(index, {}, 999)).toEqual([]);
    expect(applied(index, {}, 2000)).toEqual(['sale']);
    expect(applied(index, {}, 3000)).toEqual([]);
    expect(applied(index, {}, 5500)).toEqual(['sale']);
    expect(applied(index, {})).toEqual([]);
  });
});

describe('stored like synonyms', () => {
  it('save, get, delete, clear, search by query / anchoring / context / enabled, and snapshots', async () => {
    const index = withRules([
      tagRule('lamp-pin', [{ pattern: 'lamp', anchoring: 'contains' }]),
      { ...tagRule('chair-off', [{ pattern: 'chair', anchoring: 'is', context: 'shop' }]), enabled: false },
    ]);
    index.saveRules([tagRule('sofa', [{ pattern: 'sofa', anchoring: 'startsWith' }])]);
    expect(index.getRules().map((r) => r.objectID)).toEqual(['lamp-pin', 'chair-off', 'sofa']);
    expect(index.searchRules({ query: 'lamp' }).hits.map((r) => r.objectID)).toEqual(['lamp-pin']);
    expect(index.searchRules({ anchoring: 'is' }).hits.map((r) => r.objectID)).toEqual(['chair-off']);
    expect(index.searchRules({ context: 'shop' }).nbHits).toBe(1);
    expect(index.searchRules({ enabled: true }).hits.map((r) => r.objectID)).toEqual(['lamp-pin', 'sofa']);
    expect(index.searchRules({ hitsPerPage: 2, page: 1 })).toMatchObject({ nbHits: 3, nbPages: 2, page: 1, hits: [{ objectID: 'sofa' }] });
    const { loadSnapshot } = await import('../index.ts');
    const restored = loadSnapshot(index.saveSnapshot());
    expect(restored.getRule('sofa')).toEqual(index.getRule('sofa'));
    expect(index.deleteRule('sofa')).toBe(true);
    expect(index.getRule('sofa')).toBeUndefined();
    index.clearRules();
    expect(index.getRules()).toEqual([]);
  });

  it('refuses a bad rule whole, naming what is wrong', () => {
    const index = withRules([tagRule('keep', [])]);
    expect(() => index.saveRules([tagRule('ok', []), { objectID: 'bad', conditions: [{ pattern: 'x' }], consequence: {} }])).toThrow(/bad: a condition with a "pattern" needs an "anchoring"/);
    expect(() => index.setRules([{ objectID: 'f', conditions: [{ filters: 'a:b OR c:d' }], consequence: {} }])).toThrow(/may only AND facet filters/);
    expect(index.getRules().map((r) => r.objectID)).toEqual(['keep']);
  });
});
