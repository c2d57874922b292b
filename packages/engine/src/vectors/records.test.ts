/**
 * Properties tested: records' `_vectors` through the facade.
 * 1. the `embedders` setting is validated (names, sources, dimensions), and so is each vector of a batch (wrong
 *    dimensions, non-numbers, non-finite numbers, zero vectors, unknown embedders, an index without embedders):
 *    a bad vector refuses the whole batch, nothing applied;
 * 2. vectors are kept apart: not searchable as text, not in hits unless asked (`retrieveVectors`,
 *    `attributesToRetrieve`), returned by getObject, getObjects, records() and browse as float32 values in few digits;
 * 3. a replacement without `_vectors` drops them, `null` drops one; deletions drop them;
 * 4. they survive a snapshot round trip (and writes after it), a compaction, a rebuild (a settings change), and
 *    an embedder whose dimensions change loses them.
 */
import { describe, expect, it } from 'vitest';
import { EngineError } from '../errors.ts';
import { SearchIndex } from '../search-index.ts';
import { loadSnapshot } from '../snapshot/index.ts';

const settings = { searchableAttributes: ['name'], attributesForFaceting: ['brand'], embedders: { img: { source: 'userProvided' as const, dimensions: 3 } } };
const records = [
  { objectID: 'a', name: 'red mug', brand: 'x', _vectors: { img: [1, 0, 0] } },
  { objectID: 'b', name: 'blue mug', brand: 'y', _vectors: { img: [0, 1, 0] } },
  { objectID: 'c', name: 'green mug', brand: 'x' },
];

function index(): SearchIndex {
  const idx = new SearchIndex(settings);
  idx.saveObjects(records);
  return idx;
}

const nearest = (idx: SearchIndex, vector: number[], extra = {}) => idx.search({ vector, hitsPerPage: 10, ...extra }).hits.map((h) => h.objectID);
const refused = (idx: SearchIndex, batch: unknown[], message: RegExp) => {
  expect(() => idx.saveObjects(batch as never)).toThrow(message);
  expect(() => idx.saveObjects(batch as never)).toThrow(EngineError);
};

describe('embedders setting', () => {
  it('refuses what it cannot store', () => {
    const bad: Array<[unknown, RegExp]> = [
      [[], /expected an object/],
      [{ 'a b': { source: 'userProvided', dimensions: 3 } }, /not a valid name/],
      [{ e: { source: 'openAi', dimensions: 3 } }, /embedders\.e\.source/],
      [{ e: { source: 'userProvided' } }, /embedders\.e\.dimensions/],
      [{ e: { source: 'userProvided', dimensions: 0 } }, /from 1 to 4096/],
      [{ e: { source: 'userProvided', dimensions: 5000 } }, /from 1 to 4096/],
      [{ e: { source: 'userProvided', dimensions: 2.5 } }, /integer/],
      [{ e: 'userProvided' }, /expected an object/],
    ];
    for (const [embedders, message] of bad) expect(() => new SearchIndex({ embedders } as never), JSON.stringify(embedders)).toThrow(message);
  });
});

describe('records with vectors', () => {
  it('refuses a batch with a bad vector anywhere, whole', () => {
    const idx = index();
    const ok = { objectID: 'n', name: 'new' };
    refused(idx, [ok, { objectID: 'z', _vectors: { img: [1, 2] } }], /expected 3 numbers, got 2/);
    refused(idx, [ok, { objectID: 'z', _vectors: { img: [1, null, 2] } }], /element 1 is not a finite number/);
    refused(idx, [ok, { objectID: 'z', _vectors: { img: [1, Number.POSITIVE_INFINITY, 2] } }], /element 1 is not a finite number/);
    refused(idx, [ok, { objectID: 'z', _vectors: { img: [1, Number.NaN, 2] } }], /element 1 is not a finite number/);
    refused(idx, [ok, { objectID: 'z', _vectors: { img: [1, '2', 3] } }], /element 1 is not a finite number/);
    refused(idx, [ok, { objectID: 'z', _vectors: { img: [1e39, 0, 0] } }], /range of 32-bit floats/);
    refused(idx, [ok, { objectID: 'z', _vectors: { img: [0, 0, 0] } }], /zeros has no direction/);
    refused(idx, [ok, { objectID: 'z', _vectors: { txt: [1, 2, 3] } }], /_vectors\.txt: no embedder of this name/);
    refused(idx, [ok, { objectID: 'z', _vectors: [1, 2, 3] }], /_vectors must be an object/);
    refused(new SearchIndex({}), [{ objectID: 'z', _vectors: { img: [1, 2, 3] } }], /the index has no embedders/);
    expect(idx.getObject('n')).toBeUndefined();
    expect(idx.size).toBe(3);
  });

  it('keeps vectors out of the text and out of hits unless asked', () => {
    const idx = new SearchIndex({ embedders: settings.embedders });
    idx.saveObjects([{ objectID: 'a', name: 'mug', _vectors: { img: [0.5, 0.25, 1] } }]);
    expect(idx.search({ query: '0.5' }).nbHits).toBe(0);
    expect(idx.search({ query: 'mug' }).hits[0]).not.toHaveProperty('_vectors');
    expect(idx.search({ query: 'mug', retrieveVectors: true }).hits[0]._vectors).toEqual({ img: [0.5, 0.25, 1] });
    const { _highlightResult, ...named } = idx.search({ query: 'mug', attributesToRetrieve: ['name', '_vectors'] }).hits[0];
    expect(named).toEqual({ objectID: 'a', name: 'mug', _vectors: { img: [0.5, 0.25, 1] } });
    expect(idx.search({ query: 'mug', attributesToRetrieve: ['_vectors.img'] }).hits[0]._vectors).toEqual({ img: [0.5, 0.25, 1] });
    expect(idx.search({ query: 'mug', attributesToRetrieve: ['_vectors.other'] }).hits[0]).not.toHaveProperty('_vectors');
    expect(idx.search({ query: 'mug', retrieveVectors: true }, { unretrievableAttributes: ['_vectors'] }).hits[0]).not.toHaveProperty('_vectors');
    expect(() => idx.search({ query: 'mug', retrieveVectors: 'yes' as never })).toThrow(/retrieveVectors/);
    expect(idx.browse({ retrieveVectors: true }).hits[0]._vectors).toEqual({ img: [0.5, 0.25, 1] });
    expect(idx.browse({}).hits[0]).not.toHaveProperty('_vectors');
  });

  it('returns them with the record, as float32 values in few digits', () => {
    const idx = index();
    idx.saveObjects([{ objectID: 'd', name: 'x', _vectors: { img: [0.1, 1 / 3, -2.5] } }]);
    // 1/3 as a float32 needs 9 digits (0.333333343 reads back as the same float32); 0.1 reads back from 7.
    expect(idx.getObject('d')?._vectors).toEqual({ img: [0.1, 0.333333343, -2.5] });
    expect(Math.fround(0.333333343)).toBe(Math.fround(1 / 3));
    expect(idx.getObject('c')).not.toHaveProperty('_vectors');
    expect(idx.getObjects(['a', 'c']).map((r) => r?._vectors)).toEqual([{ img: [1, 0, 0] }, undefined]);
    expect([...idx.records()].map((r) => r._vectors)).toEqual([{ img: [1, 0, 0] }, { img: [0, 1, 0] }, undefined, { img: [0.1, 0.333333343, -2.5] }]);
  });

  it('drops vectors with the record, on a replacement without them, and on null', () => {
    const idx = index();
    idx.saveObjects([{ objectID: 'a', name: 'red mug', brand: 'x' }]);
    expect(idx.getObject('a')).not.toHaveProperty('_vectors');
    expect(nearest(idx, [1, 0, 0])).toEqual(['b']);
    idx.saveObjects([{ objectID: 'a', name: 'red mug', brand: 'x', _vectors: { img: [1, 0, 0] } }]);
    expect(nearest(idx, [1, 0, 0])).toEqual(['a', 'b']);
    idx.saveObjects([{ objectID: 'a', name: 'red mug', brand: 'x', _vectors: { img: null } }]);
    expect(nearest(idx, [1, 0, 0])).toEqual(['b']);
    idx.deleteObjects(['b']);
    expect(nearest(idx, [1, 0, 0])).toEqual([]);
  });

  it('moves a vector with its record when only the vector changes (a change in place)', () => {
    const idx = index();
    idx.saveObjects([{ objectID: 'a', name: 'red mug', brand: 'x', _vectors: { img: [0, 1, 0.1] } }]);
    expect(nearest(idx, [0, 1, 0])).toEqual(['b', 'a']);
    expect(idx.getObject('a')?._vectors).toEqual({ img: [0, 1, 0.1] });
  });
});

describe('vectors kept through', () => {
  it('a snapshot round trip, and writes after it', () => {
    const idx = index();
    const restored = loadSnapshot(idx.saveSnapshot());
    expect(nearest(restored, [1, 0.1, 0])).toEqual(['a', 'b']);
    expect([...restored.records()]).toEqual([...idx.records()]);
    restored.saveObjects([{ objectID: 'c', name: 'green mug', brand: 'x', _vectors: { img: [1, 0.2, 0] } }, { objectID: 'a', name: 'red mug', brand: 'x' }]);
    expect(nearest(restored, [1, 0.1, 0])).toEqual(['c', 'b']);
    // The snapshot's bytes are not written: a second index loaded from them sees the vectors as saved.
    expect(nearest(loadSnapshot(idx.saveSnapshot()), [1, 0.1, 0])).toEqual(['a', 'b']);
    expect(nearest(loadSnapshot(restored.saveSnapshot()), [1, 0.1, 0])).toEqual(['c', 'b']);
  });

  it('a compaction and a rebuild', () => {
    const idx = new SearchIndex({ searchableAttributes: ['name'], embedders: settings.embedders });
    const many = Array.from({ length: 25_000 }, (_, i) => ({ objectID: String(i), name: `item ${i % 7}`, _vectors: { img: [i, 25_000 - i, 1] } }));
    idx.saveObjects(many);
    idx.deleteObjects(many.slice(0, 20_000).map((r) => r.objectID));
    expect(idx.size).toBe(5_000);
    // The deletions copied the live records into a fresh store (`index/compaction.ts`), renumbering them.
    expect((idx as unknown as { compactions: number }).compactions).toBe(1);
    expect(nearest(idx, [20_000, 5_000, 1], { hitsPerPage: 2 })).toEqual(['20000', '20001']);
    expect(idx.getObject('24999')?._vectors).toEqual({ img: [24_999, 1, 1] });
    idx.setSettings({ searchableAttributes: ['name', 'objectID'], embedders: settings.embedders });
    expect(nearest(idx, [20_000, 5_000, 1], { hitsPerPage: 2 })).toEqual(['20000', '20001']);
    expect(idx.search({ query: '24999', retrieveVectors: true }).hits[0]._vectors).toEqual({ img: [24_999, 1, 1] });
  });

  it('a settings change that keeps the embedder; not one that changes its dimensions', () => {
    const idx = index();
    idx.setSettings({ ...settings, embedders: { ...settings.embedders, other: { source: 'userProvided', dimensions: 2 } } });
    expect(nearest(idx, [1, 0, 0], { hybrid: { embedder: 'img' } })).toEqual(['a', 'b']);
    idx.setSettings({ ...settings, embedders: { img: { source: 'userProvided' as const, dimensions: 2 } } });
    expect(nearest(idx, [1, 0])).toEqual([]);
    expect(idx.getObject('a')).not.toHaveProperty('_vectors');
  });
});
