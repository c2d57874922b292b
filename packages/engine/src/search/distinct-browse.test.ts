/**
 * distinct (true / N with attributeForDistinct, nbHits counting groups) and browse (every match in internal
 * order, hitsPerPage pages linked by an opaque cursor, filters and query applied, bad cursors rejected).
 */
import { describe, expect, it } from 'vitest';
import { SearchIndex } from '../search-index.ts';
import { EngineError } from '../errors.ts';

function variants(): SearchIndex {
  const index = new SearchIndex({ searchableAttributes: ['name'], attributeForDistinct: 'model', customRanking: ['desc(stock)'] });
  index.saveObjects([
    { objectID: 'a-red', name: 'tee shirt', model: 'A', stock: 1 },
    { objectID: 'a-blue', name: 'tee shirt', model: 'A', stock: 9 },
    { objectID: 'b-red', name: 'tee shirt', model: 'B', stock: 5 },
    { objectID: 'a-green', name: 'tee shirt', model: 'A', stock: 3 },
    { objectID: 'solo', name: 'tee shirt', stock: 0 },
  ]);
  return index;
}

describe('distinct', () => {
  it('keeps the best record of each group', () => {
    const r = variants().search({ query: 'shirt', distinct: true });
    expect(r.hits.map((h) => h.objectID)).toEqual(['a-blue', 'b-red', 'solo']);
    expect(r.nbHits).toBe(3);
  });

  it('keeps N per group and applies from settings', () => {
    const r = variants().search({ query: 'shirt', distinct: 2 });
    expect(r.hits.map((h) => h.objectID)).toEqual(['a-blue', 'b-red', 'a-green', 'solo']);
    expect(r.nbHits).toBe(4);
    const index = variants();
    index.setSettings({ ...index.getSettings(), distinct: true });
    expect(index.search({ query: '' }).nbHits).toBe(3);
    expect(index.search({ query: '', distinct: false }).nbHits).toBe(5);
  });
});

describe('facetingAfterDistinct', () => {
  function models(): SearchIndex {
    // Every record of a model shares its brand, as facetingAfterDistinct expects.
    const index = new SearchIndex({ searchableAttributes: ['name'], attributeForDistinct: 'model', attributesForFaceting: ['brand', 'size'] });
    index.saveObjects([
      { objectID: '1', name: 'tee', model: 'A', brand: 'Acme', size: 'S' },
      { objectID: '2', name: 'tee', model: 'A', brand: 'Acme', size: 'M' },
      { objectID: '3', name: 'tee', model: 'A', brand: 'Acme', size: 'L' },
      { objectID: '4', name: 'tee', model: 'B', brand: 'Bolt', size: 'S' },
      { objectID: '5', name: 'tee', model: 'B', brand: 'Bolt', size: 'M' },
      { objectID: '6', name: 'tee', brand: 'Acme', size: 'S' },
    ]);
    return index;
  }

  it('counts facets over the deduplicated hits', () => {
    const r = models().search({ query: 'tee', distinct: true, facetingAfterDistinct: true, facets: ['brand'] });
    expect(r.nbHits).toBe(3);
    expect(r.facets).toEqual({ brand: { Acme: 2, Bolt: 1 } });
  });

  it('counts every record without it, or without distinct', () => {
    expect(models().search({ query: 'tee', distinct: true, facets: ['brand'] }).facets).toEqual({ brand: { Acme: 4, Bolt: 2 } });
    expect(models().search({ query: 'tee', facetingAfterDistinct: true, facets: ['brand'] }).facets).toEqual({ brand: { Acme: 4, Bolt: 2 } });
  });

  it('keeps N records per group with distinct N', () => {
    const r = models().search({ query: 'tee', distinct: 2, facetingAfterDistinct: true, facets: ['brand'] });
    expect(r.facets).toEqual({ brand: { Acme: 3, Bolt: 2 } });
  });
});

describe('browse', () => {
  it('pages through every match with a cursor', () => {
    const index = variants();
    const seen: string[] = [];
    let page = index.browse({ hitsPerPage: 2 });
    seen.push(...page.hits.map((h) => h.objectID));
    while (page.cursor !== undefined) {
      page = index.browse({ cursor: page.cursor, hitsPerPage: 2 });
      seen.push(...page.hits.map((h) => h.objectID));
    }
    expect(seen).toEqual(['a-red', 'a-blue', 'b-red', 'a-green', 'solo']);
  });

  it('resumes a cursor after the index was compacted, and expires one whose record is gone', () => {
    const index = new SearchIndex({ searchableAttributes: ['name'] });
    const ids = Array.from({ length: 30_000 }, (_, i) => String(i));
    index.saveObjects(ids.map((objectID) => ({ objectID, name: 'item' })));
    const first = index.browse({ hitsPerPage: 1000 });
    expect(first.hits.at(-1)!.objectID).toBe('999');
    // Deleting two thirds of the records (some before the cursor) compacts the index: the ids after the
    // deleted ones shift.
    index.deleteObjects([...ids.slice(0, 500), ...ids.slice(10_000)]);
    const second = index.browse({ cursor: first.cursor, hitsPerPage: 1000 });
    expect(second.hits.map((hit) => hit.objectID)).toEqual(ids.slice(1000, 2000));
    // The record the cursor resumes after is deleted and the index compacted again: the cursor has expired.
    index.deleteObjects(['1999', ...ids.slice(2000, 9_990)]);
    index.saveObjects(Array.from({ length: 12_000 }, (_, i) => ({ objectID: `new-${i}`, name: 'item' })));
    index.deleteObjects(Array.from({ length: 12_000 }, (_, i) => `new-${i}`));
    expect(() => index.browse({ cursor: second.cursor, hitsPerPage: 1000 })).toThrow(/expired/);
  });

  it('applies query and filters, and rejects foreign cursors', () => {
    const index = variants();
    const page = index.browse({ query: '', filters: 'stock > 2' });
    expect(page.hits.map((h) => h.objectID)).toEqual(['a-blue', 'b-red', 'a-green']);
    expect(page.cursor).toBeUndefined();
    expect(() => index.browse({ cursor: 'not-a-cursor' })).toThrow(EngineError);
  });
});
