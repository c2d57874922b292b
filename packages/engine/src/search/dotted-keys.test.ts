/**
 * Attribute paths through keys that hold dots, through the public API: the query-suggestions records
 * Algolia's autocomplete filters with `instant_search.facets.exact_matches.hierarchicalCategories.lvl0.value`.
 * Properties tested: faceting, facetFilters (and their negation), filters, numeric filters, facet search,
 * highlighting, snippets, attributesToRetrieve, unretrievableAttributes, distinct and customRanking all read a
 * dotted path wherever the record spells it, both values counting when it spells it both ways; a replacement
 * changing such a key is seen by cached facet counts.
 */
import { describe, expect, it } from 'vitest';
import type { IndexRecord } from '@vitrine/protocol';
import { SearchIndex } from '../search-index.ts';

const CATEGORY = 'instant_search.facets.exact_matches.hierarchicalCategories.lvl0.value';

function suggestion(query: string, popularity: number, categories: string[], source = 'instant_search'): IndexRecord {
  return {
    objectID: query,
    query,
    popularity,
    [source]: {
      exact_nb_hits: 10,
      facets: {
        exact_matches: { 'hierarchicalCategories.lvl0': categories.map((value, i) => ({ value, count: 10 - i })) },
        analytics: {},
      },
    },
  };
}

function suggestions(settings: Record<string, unknown> = {}): SearchIndex {
  const index = new SearchIndex({ searchableAttributes: ['query'], customRanking: ['desc(popularity)'], attributesForFaceting: [`searchable(${CATEGORY})`], ...settings });
  index.saveObjects([
    suggestion('lamp', 30, ['Home', 'Garden']),
    suggestion('laptop', 20, ['Electronics']),
    suggestion('lantern', 10, ['Garden']),
    suggestion('ladder', 5, []),
  ]);
  return index;
}

const ids = (response: { hits: Array<{ objectID: string }> }): string[] => response.hits.map((hit) => hit.objectID);

describe('paths through keys that hold dots', () => {
  it('facet and filter on the suggestions records, as the autocomplete example asks', () => {
    for (const index of [suggestions(), suggestions({ attributesForFaceting: [] })]) {
      expect(ids(index.search({ query: 'la', facetFilters: [`${CATEGORY}:Garden`] }))).toEqual(['lamp', 'lantern']);
      expect(ids(index.search({ query: 'la', facetFilters: [`${CATEGORY}:-Garden`] }))).toEqual(['laptop', 'ladder']);
      expect(ids(index.search({ query: '', filters: `"${CATEGORY}":Electronics OR "${CATEGORY}":Home` }))).toEqual(['lamp', 'laptop']);
    }
    expect(suggestions().search({ query: '', facets: [CATEGORY] }).facets).toEqual({ [CATEGORY]: { Garden: 2, Home: 1, Electronics: 1 } });
  });

  it('search facet values under such a path', () => {
    const response = suggestions().searchForFacetValues(CATEGORY, 'gar');
    expect(response.facetHits).toEqual([{ value: 'Garden', highlighted: '<em>Gar</em>den', count: 2 }]);
  });

  it('filter numbers under such a path', () => {
    const index = suggestions();
    const counts = 'instant_search.facets.exact_matches.hierarchicalCategories.lvl0.count';
    expect(ids(index.search({ query: '', numericFilters: [`${counts}=9`] }))).toEqual(['lamp']);
    expect(ids(index.search({ query: '', filters: `${counts} >= 10` }))).toEqual(['lamp', 'laptop', 'lantern']);
  });

  it('highlight, snippet and retrieve the value where the record holds it', () => {
    const index = new SearchIndex({ searchableAttributes: ['meta.title'] });
    index.saveObjects([{ objectID: '1', 'meta.title': 'blue lamp', meta: { title: 'red lamp', size: 'S' }, secret: { 'cost.eur': 4 } }]);
    const hit = index.search({
      query: 'lamp',
      attributesToRetrieve: ['meta.title', 'secret.cost.eur'],
      attributesToHighlight: ['meta.title'],
      attributesToSnippet: ['meta.title:1'],
    }).hits[0] as Record<string, unknown>;
    expect(hit['meta.title']).toBe('blue lamp');
    expect(hit.meta).toEqual({ title: 'red lamp' });
    expect(hit.secret).toEqual({ 'cost.eur': 4 });
    expect(hit._highlightResult).toEqual({
      'meta.title': { value: 'blue <em>lamp</em>', matchLevel: 'full', matchedWords: ['lamp'], fullyHighlighted: false },
      meta: { title: { value: 'red <em>lamp</em>', matchLevel: 'full', matchedWords: ['lamp'], fullyHighlighted: false } },
    });
    expect(hit._snippetResult).toEqual({
      'meta.title': { value: '… <em>lamp</em>', matchLevel: 'full' },
      meta: { title: { value: '… <em>lamp</em>', matchLevel: 'full' } },
    });
  });

  it('hide an unretrievable path wherever the record spells it', () => {
    const index = new SearchIndex({ unretrievableAttributes: ['secret.cost'] });
    index.saveObjects([{ objectID: '1', name: 'lamp', 'secret.cost': 4, secret: { cost: 5, note: 'kept' } }]);
    const hit = index.search({ query: 'lamp' }).hits[0] as Record<string, unknown>;
    expect(hit['secret.cost']).toBeUndefined();
    expect(hit.secret).toEqual({ note: 'kept' });
    expect(index.getObject('1')).toMatchObject({ 'secret.cost': 4, secret: { cost: 5, note: 'kept' } });
  });

  it('group and rank by such a path', () => {
    const index = new SearchIndex({ searchableAttributes: ['name'], attributeForDistinct: 'group.id', distinct: true, customRanking: ['desc(stats.sales)'] });
    index.saveObjects([
      { objectID: '1', name: 'lamp', 'group.id': 'g1', 'stats.sales': 1 },
      { objectID: '2', name: 'lamp', group: { id: 'g1' }, stats: { sales: 3 } },
      { objectID: '3', name: 'lamp', group: { id: 'g2' }, 'stats.sales': 2 },
    ]);
    expect(ids(index.search({ query: 'lamp' }))).toEqual(['2', '3']);
  });

  it('count both values when a record spells the path both ways', () => {
    const index = new SearchIndex({ attributesForFaceting: ['a.b'] });
    index.saveObjects([{ objectID: '1', 'a.b': 'x', a: { b: 'y' } }, { objectID: '2', a: { b: 'x' } }]);
    expect(index.search({ query: '', facets: ['a.b'] }).facets).toEqual({ 'a.b': { x: 2, y: 1 } });
    expect(ids(index.search({ query: '', facetFilters: ['a.b:y'] }))).toEqual(['1']);
  });

  it('see a replacement change a dotted top-level key in cached facet counts', () => {
    // A source index named `shop.v2`: the records' top-level key holds a dot.
    const path = 'shop.v2.facets.exact_matches.hierarchicalCategories.lvl0.value';
    const index = new SearchIndex({ searchableAttributes: ['query'], attributesForFaceting: [path] });
    index.setResultCacheBytes(1 << 20);
    index.saveObjects([suggestion('lamp', 30, ['Home'], 'shop.v2'), suggestion('ladder', 5, [], 'shop.v2')]);
    const counts = () => index.search({ query: '', hitsPerPage: 0, facets: [path] }).facets![path];
    expect(counts()).toEqual({ Home: 1 });
    expect(counts()).toEqual({ Home: 1 });
    expect(counts()).toEqual({ Home: 1 });
    expect(index.resultCacheStats().hits).toBe(1);
    // A change to another attribute keeps the cached counts; one to the dotted key drops them.
    index.saveObjects([{ ...suggestion('lamp', 30, ['Home'], 'shop.v2'), popularity: 31 }]);
    expect(counts()).toEqual({ Home: 1 });
    expect(index.resultCacheStats().hits).toBe(2);
    index.saveObjects([suggestion('ladder', 5, ['Garden'], 'shop.v2')]);
    expect(counts()).toEqual({ Home: 1, Garden: 1 });
  });
});
