/**
 * The facade's contract: record writes (upsert, atomic batches, deletes, clear), settings, and the response
 * shape of a search (pagination, retrieve, facets, params echo), on small hand-made corpora.
 */
import { describe, expect, it } from 'vitest';
import { EngineError, parseFilterString, SearchIndex } from './index.ts';

const products = [
  { objectID: 'p1', name: 'Red Running Shoe', brand: 'Acme', price: 50, _tags: ['sport'], stock: { warehouse: 3 } },
  { objectID: 'p2', name: 'Blue Running Shoe', brand: 'acme', price: 70, _tags: ['sport', 'sale'] },
  { objectID: 'p3', name: 'Green Hiking Boot', brand: 'Trail', price: 120 },
  { objectID: 'p4', name: 'Red Wool Sock', brand: 'Cosy', price: 9 },
];

function index(settings = {}): SearchIndex {
  const idx = new SearchIndex({ searchableAttributes: ['name', 'brand'], attributesForFaceting: ['brand', 'price'], ...settings });
  idx.saveObjects(products);
  return idx;
}

const ids = (response: { hits: Array<{ objectID: string }> }): string[] => response.hits.map((h) => h.objectID);

describe('records', () => {
  it('upserts by objectID and counts live records', () => {
    const idx = index();
    expect(idx.size).toBe(4);
    idx.saveObjects([{ objectID: 'p1', name: 'Yellow Sandal', brand: 'Acme', price: 30 }]);
    expect(idx.size).toBe(4);
    expect(idx.getObject('p1')?.name).toBe('Yellow Sandal');
    expect(idx.search({ query: 'running' }).nbHits).toBe(1);
    expect(idx.search({ query: 'sandal' }).nbHits).toBe(1);
  });

  it('applies nothing when one record of a batch is invalid', () => {
    const idx = index();
    expect(() => idx.saveObjects([{ objectID: 'p9', name: 'ok' }, { name: 'no id' } as never])).toThrow(EngineError);
    expect(idx.size).toBe(4);
    expect(idx.getObject('p9')).toBeUndefined();
  });

  it('deletes, ignores unknown ids, and clears', () => {
    const idx = index();
    idx.deleteObjects(['p2', 'nope']);
    expect(idx.size).toBe(3);
    expect(ids(idx.search({ query: 'shoe' }))).toEqual(['p1']);
    expect([...idx.records()].map((r) => r.objectID)).toEqual(['p1', 'p3', 'p4']);
    idx.clear();
    expect(idx.size).toBe(0);
    expect(idx.search({ query: '' }).nbHits).toBe(0);
  });

  it('compacts after many deletions and still answers', () => {
    const idx = new SearchIndex({ searchableAttributes: ['name'] });
    const many = Array.from({ length: 25_000 }, (_, i) => ({ objectID: String(i), name: i % 2 === 0 ? 'even item' : 'odd item' }));
    idx.saveObjects(many);
    idx.deleteObjects(many.slice(0, 20_000).map((r) => r.objectID));
    expect(idx.size).toBe(5_000);
    expect(idx.search({ query: 'even' }).nbHits).toBe(2_500);
  });
});

describe('settings', () => {
  it('returns the settings as set and re-indexes when searchable attributes change', () => {
    const idx = index();
    expect(idx.getSettings()).toEqual({ searchableAttributes: ['name', 'brand'], attributesForFaceting: ['brand', 'price'] });
    expect(idx.search({ query: 'trail' }).nbHits).toBe(1);
    idx.setSettings({ searchableAttributes: ['name'] });
    expect(idx.search({ query: 'trail' }).nbHits).toBe(0);
  });

  it('rejects invalid settings with a typed error', () => {
    expect(() => new SearchIndex({ ranking: ['typo', 'bogus'] })).toThrow(EngineError);
    expect(() => new SearchIndex({ customRanking: ['price'] })).toThrow(/asc\(attribute\)/);
    expect(() => new SearchIndex({ searchableAttributes: 'name' as never })).toThrow(EngineError);
  });
});

describe('search response', () => {
  it('pages hits and reports nbHits, nbPages, page and hitsPerPage', () => {
    const idx = index();
    const first = idx.search({ query: '', hitsPerPage: 3 });
    expect(first).toMatchObject({ nbHits: 4, nbPages: 2, page: 0, hitsPerPage: 3, exhaustiveNbHits: true, query: '' });
    expect(first.hits).toHaveLength(3);
    const second = idx.search({ query: '', hitsPerPage: 3, page: 1 });
    expect(ids(second)).toEqual(['p4']);
    expect(idx.search({ query: '', offset: 1, length: 2 })).toMatchObject({ offset: 1, length: 2 });
    expect(ids(idx.search({ query: '', offset: 1, length: 2 }))).toEqual(['p2', 'p3']);
  });

  it('limits pagination to paginationLimitedTo', () => {
    const idx = index({ paginationLimitedTo: 2 });
    const page = idx.search({ query: '', hitsPerPage: 1, page: 2 });
    expect(page.hits).toHaveLength(0);
    expect(page.nbPages).toBe(2);
    expect(page.nbHits).toBe(4);
  });

  it('echoes the params url-encoded and the query', () => {
    const response = index().search({ query: 'red shoe', hitsPerPage: 5, facets: ['brand'] });
    const echoed = new URLSearchParams(response.params);
    expect(echoed.get('query')).toBe('red shoe');
    expect(echoed.get('hitsPerPage')).toBe('5');
    expect(JSON.parse(echoed.get('facets')!)).toEqual(['brand']);
    expect(response.query).toBe('red shoe');
    expect(typeof response.processingTimeMS).toBe('number');
  });

  it('retrieves attributes with *, exclusions and nested paths, never unretrievable ones', () => {
    const idx = index({ unretrievableAttributes: ['price'] });
    const [all] = idx.search({ query: 'red shoe' }).hits;
    expect(all).not.toHaveProperty('price');
    expect(all.name).toBe('Red Running Shoe');
    const [some] = idx.search({ query: 'red shoe', attributesToRetrieve: ['brand', 'stock.warehouse'] }).hits;
    expect(Object.keys(some).filter((k) => !k.startsWith('_')).sort()).toEqual(['brand', 'objectID', 'stock']);
    const [excluded] = idx.search({ query: 'red shoe', attributesToRetrieve: ['*', '-_tags'] }).hits;
    expect(excluded).not.toHaveProperty('_tags');
    expect(excluded).toHaveProperty('brand');
  });

  it('counts facets case-insensitively, showing the first spelling, with stats for numbers', () => {
    const response = index().search({ query: '', facets: ['brand', 'price', 'unknown'] });
    expect(response.facets).toEqual({
      brand: { Acme: 2, Cosy: 1, Trail: 1 },
      price: { '120': 1, '50': 1, '70': 1, '9': 1 },
    });
    expect(response.facets_stats).toEqual({ price: { min: 9, max: 120, avg: 62.25, sum: 249 } });
  });

  it('highlights the searchable attributes by default', () => {
    const [hit] = index().search({ query: 'hik' }).hits;
    expect(hit._highlightResult).toMatchObject({
      name: { value: 'Green <em>Hik</em>ing Boot', matchLevel: 'full', matchedWords: ['hik'] },
      brand: { value: 'Trail', matchLevel: 'none' },
    });
  });

  it('rejects bad parameters with typed errors', () => {
    const idx = index();
    expect(() => idx.search({ hitsPerPage: 5000 })).toThrow(EngineError);
    expect(() => idx.search({ page: -1 })).toThrow(EngineError);
    expect(() => idx.search({ query: 3 as never })).toThrow(EngineError);
    expect(() => idx.search({ filters: 'brand:' })).toThrow(EngineError);
    expect(() => idx.search({ typoTolerance: 'sometimes' as never })).toThrow(EngineError);
  });
});

describe('filters', () => {
  it('applies filters, facetFilters, numericFilters and a forced extra filter', () => {
    const idx = index();
    expect(ids(idx.search({ query: '', filters: 'brand:ACME AND price < 60' }))).toEqual(['p1']);
    expect(ids(idx.search({ query: '', facetFilters: [['brand:Trail', 'brand:Cosy']] }))).toEqual(['p3', 'p4']);
    expect(ids(idx.search({ query: '', numericFilters: ['price>=70'] }))).toEqual(['p2', 'p3']);
    expect(ids(idx.search({ query: '', tagFilters: ['sale'] }))).toEqual(['p2']);
    expect(ids(idx.search({ query: '', filters: 'objectID:p4' }))).toEqual(['p4']);
    const extra = { extraFilter: { kind: 'facet' as const, attribute: 'brand', value: 'acme' } };
    expect(ids(idx.search({ query: '', filters: 'price > 60' }, undefined, extra))).toEqual(['p2']);
  });
});

describe('reads by objectID', () => {
  it('returns records in order, undefined for missing ones and for those a forced filter leaves out, as search does', () => {
    const idx = index();
    idx.deleteObjects(['p3']);
    const wanted = ['p4', 'nope', 'p1', 'p3', 'p2'];
    expect(idx.getObjects(wanted).map((r) => r?.objectID)).toEqual(['p4', undefined, 'p1', undefined, 'p2']);
    for (const filter of ['brand:acme', 'NOT brand:acme', 'price < 60 AND NOT _tags:sale', 'brand:Cosy OR _tags:sale', 'stock.warehouse > 1']) {
      const visible = new Set(ids(idx.search({ query: '', filters: filter, hitsPerPage: 10 })));
      const read = idx.getObjects(wanted, { extraFilter: parseFilterString(filter) });
      expect(read.map((r) => r?.objectID), filter).toEqual(wanted.map((id) => (visible.has(id) ? id : undefined)));
    }
    expect(idx.getObjects(['p1'], { extraFilter: parseFilterString('brand:acme') })[0]).toEqual(products[0]);
  });
});
