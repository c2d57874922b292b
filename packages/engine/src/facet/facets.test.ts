/**
 * Faceting through the public API: exhaustive counts over the match set, `*`, maxValuesPerFacet,
 * sortFacetValuesBy (count then value; alpha), booleans and numbers as strings, nested and array values,
 * facets_stats, filterOnly attributes (they filter, never counted), and searchForFacetValues (prefix per word,
 * highlighting, counts under query and filters, maxFacetHits, only on searchable() facets).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SearchIndex } from '../search-index.ts';
import { EngineError } from '../errors.ts';

function catalogue(): SearchIndex {
  const index = new SearchIndex({
    searchableAttributes: ['name'],
    attributesForFaceting: ['searchable(brand)', 'colors', 'meta.material', 'filterOnly(sku)', 'onSale', 'rating'],
  });
  index.saveObjects([
    { objectID: '1', name: 'chair', brand: 'Oak & Co', colors: ['Red', 'blue'], meta: { material: 'oak' }, sku: 'a', onSale: true, rating: 4 },
    { objectID: '2', name: 'chair', brand: 'oak & co', colors: ['red'], meta: { material: 'pine' }, sku: 'b', onSale: false, rating: 5 },
    { objectID: '3', name: 'table', brand: 'Pine Works', colors: ['Blue'], meta: { material: 'pine' }, sku: 'c', onSale: true, rating: 3 },
    { objectID: '4', name: 'table', brand: 'Oakley Home', colors: ['green', 'red', 'RED'], sku: 'd', rating: 4.5 },
  ]);
  return index;
}

describe('facets', () => {
  it('counts every facet over the whole match set, first spelling shown', () => {
    const r = catalogue().search({ query: '', facets: ['*'] });
    expect(r.facets).toEqual({
      brand: { 'Oak & Co': 2, 'Oakley Home': 1, 'Pine Works': 1 },
      colors: { Red: 3, blue: 2, green: 1 },
      'meta.material': { pine: 2, oak: 1 },
      onSale: { true: 2, false: 1 },
      rating: { '4': 1, '5': 1, '3': 1, '4.5': 1 },
    });
    expect(r.facets_stats).toEqual({ rating: { min: 3, max: 5, avg: 4.125, sum: 16.5 } });
  });

  it('orders values by count then label, and alphabetically, also after writes add values that sort first', () => {
    const index = new SearchIndex({ searchableAttributes: ['name'], attributesForFaceting: ['brand'] });
    index.saveObjects(['Zeta', 'Mu', 'Beta', 'Mu', 'Zeta'].map((brand, i) => ({ objectID: String(i), name: 'lamp', brand })));
    const order = (sortFacetValuesBy?: 'count' | 'alpha') => Object.keys(index.search({ query: '', facets: ['brand'], sortFacetValuesBy }).facets!.brand);
    expect(order()).toEqual(['Mu', 'Zeta', 'Beta']);
    expect(order('alpha')).toEqual(['Beta', 'Mu', 'Zeta']);
    index.saveObjects([
      { objectID: 'a1', name: 'lamp', brand: 'Alpha' },
      { objectID: 'a2', name: 'lamp', brand: 'Alpha' },
      { objectID: 'b1', name: 'lamp', brand: 'Beta' },
    ]);
    expect(order()).toEqual(['Alpha', 'Beta', 'Mu', 'Zeta']);
    expect(order('alpha')).toEqual(['Alpha', 'Beta', 'Mu', 'Zeta']);
  });

  it('reads an empty sortFacetValuesBy as none given: the index\'s order, else count', () => {
    const make = (settings: Record<string, unknown>) => {
      const index = new SearchIndex({ searchableAttributes: ['name'], attributesForFaceting: ['brand'], ...settings });
      index.saveObjects(['Zeta', 'Mu', 'Beta', 'Zeta'].map((brand, i) => ({ objectID: String(i), name: 'lamp', brand })));
      return (sortFacetValuesBy?: string) => Object.keys(index.search({ query: '', facets: ['brand'], sortFacetValuesBy } as never).facets!.brand);
    };
    expect(make({})('')).toEqual(['Zeta', 'Beta', 'Mu']);
    expect(make({ sortFacetValuesBy: 'alpha' })('')).toEqual(['Beta', 'Mu', 'Zeta']);
    expect(make({ sortFacetValuesBy: '' })()).toEqual(['Zeta', 'Beta', 'Mu']);
    expect(make({ sortFacetValuesBy: '' })('alpha')).toEqual(['Beta', 'Mu', 'Zeta']);
    expect(() => make({})('bogus')).toThrow(EngineError);
  });

  it('counts within the query and filters', () => {
    const r = catalogue().search({ query: 'chair', facets: ['colors'], filters: 'onSale:true' });
    expect(r.nbHits).toBe(1);
    expect(r.facets).toEqual({ colors: { Red: 1, blue: 1 } });
  });

  it('limits and sorts values', () => {
    const index = catalogue();
    expect(index.search({ query: '', facets: ['colors'], maxValuesPerFacet: 2 }).facets).toEqual({ colors: { Red: 3, blue: 2 } });
    const alpha = index.search({ query: '', facets: ['brand'], sortFacetValuesBy: 'alpha' }).facets!.brand;
    expect(Object.keys(alpha)).toEqual(['Oak & Co', 'Oakley Home', 'Pine Works']);
    expect(() => index.search({ facets: ['brand'], maxValuesPerFacet: 1001 })).toThrow(EngineError);
  });

  it('returns the top values in order for any counts and limit (against a comparator sort of the tally)', () => {
    const label = fc.stringMatching(/^[a-e]{1,3}$/);
    fc.assert(
      fc.property(fc.array(label, { minLength: 1, maxLength: 300 }), fc.integer({ min: 1, max: 40 }), fc.constantFrom('count', 'alpha'), (tags, limit, sortBy) => {
        const index = new SearchIndex({ attributesForFaceting: ['tag'] });
        index.saveObjects(tags.map((tag, i) => ({ objectID: String(i), tag })));
        const tally = new Map<string, number>();
        for (const tag of tags) tally.set(tag, (tally.get(tag) ?? 0) + 1);
        const byLabel = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
        const expected = [...tally]
          .sort(sortBy === 'alpha' ? (a, b) => byLabel(a[0], b[0]) : (a, b) => b[1] - a[1] || byLabel(a[0], b[0]))
          .slice(0, limit);
        const facets = index.search({ query: '', facets: ['tag'], maxValuesPerFacet: limit, sortFacetValuesBy: sortBy }).facets!.tag;
        expect(Object.entries(facets)).toEqual(expected);
      }),
      { numRuns: 150 },
    );
  });

  it('never counts filterOnly attributes, even when named, and still filters on them', () => {
    const r = catalogue().search({ query: '', facets: ['sku', 'onSale'], filters: 'sku:a OR sku:c' });
    expect(r.nbHits).toBe(2);
    expect(r.facets).toEqual({ onSale: { true: 2 } });
    expect(catalogue().search({ query: '', facets: ['sku'], facetFilters: ['sku:b'] })).toMatchObject({ nbHits: 1, facets: {} });
  });

  it('passes renderingContent through', () => {
    const index = new SearchIndex({ renderingContent: { facetOrdering: { facets: { order: ['brand'] } } } });
    expect(index.search({}).renderingContent).toEqual({ facetOrdering: { facets: { order: ['brand'] } } });
  });
});

describe('searchForFacetValues', () => {
  it('finds values whose words start with the facet query, with counts under the query', () => {
    const index = catalogue();
    expect(index.searchForFacetValues('brand', 'oak', {}).facetHits).toEqual([
      { value: 'Oak & Co', highlighted: '<em>Oak</em> & Co', count: 2 },
      { value: 'Oakley Home', highlighted: '<em>Oak</em>ley Home', count: 1 },
    ]);
    expect(index.searchForFacetValues('brand', 'ho', { query: 'table' }).facetHits.map((h) => h.value)).toEqual(['Oakley Home']);
    expect(index.searchForFacetValues('brand', 'oak', { query: 'table', highlightPreTag: '[', highlightPostTag: ']' }).facetHits).toEqual([
      { value: 'Oakley Home', highlighted: '[Oak]ley Home', count: 1 },
    ]);
    expect(index.searchForFacetValues('brand', '', { maxFacetHits: 1 }).facetHits).toHaveLength(1);
  });

  it('refuses facets not declared searchable', () => {
    expect(() => catalogue().searchForFacetValues('colors', 'r', {})).toThrow(EngineError);
    expect(() => catalogue().searchForFacetValues('sku', 'a', {})).toThrow('Cannot search in `sku` attribute, you need to add `searchable(sku)` to attributesForFaceting.');
  });

});

describe('facets and hits of a sparse match set', () => {
  // 20,000 records (625 bitset words): a query matching a few dozen of them makes a set under one id per 16
  // words, which facet walks and ranking scan by skipping empty runs of words (structures/bitset.ts).
  const size = 20_000;
  const brands = ['Acme', 'Borealis', 'Cobalt', 'Dune'];
  const colors = ['red', 'green', 'blue'];
  const record = (i: number) => ({
    objectID: String(i),
    name: i % 97 === 0 ? `rare item ${i % 5}` : 'common item',
    brand: brands[i % 4],
    colors: i % 3 === 0 ? [colors[i % 3], colors[(i + 1) % 3]] : [colors[i % 3]],
    rank: (i * 7919) % 1000,
  });
  const index = new SearchIndex({ searchableAttributes: ['name'], attributesForFaceting: ['brand', 'colors'], customRanking: ['desc(rank)'] });
  index.saveObjects(Array.from({ length: size }, (_, i) => record(i)));

  it('counts every facet and ranks the hits as a brute-force pass over the records does', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 3 }), (digit, brand) => {
        const result = index.search({ query: `rare item ${digit}`, facetFilters: [`brand:${brands[brand]}`], facets: ['brand', 'colors'], hitsPerPage: 1000 });
        const expected = Array.from({ length: size }, (_, i) => record(i)).filter((r) => r.name === `rare item ${digit}` && r.brand === brands[brand]);
        expect(expected.length * 16).toBeLessThan(size / 32);
        expect(result.nbHits).toBe(expected.length);
        const counts = (values: string[]) => Object.fromEntries([...new Set(values)].map((v) => [v, values.filter((x) => x === v).length]));
        expect(result.facets!.brand ?? {}).toEqual(counts(expected.map((r) => r.brand)));
        expect(result.facets!.colors ?? {}).toEqual(counts(expected.flatMap((r) => r.colors)));
        expect(result.hits.map((h) => h.objectID)).toEqual(expected.sort((a, b) => b.rank - a.rank || Number(a.objectID) - Number(b.objectID)).map((r) => r.objectID));
      }),
      { numRuns: 20 },
    );
  });
});

