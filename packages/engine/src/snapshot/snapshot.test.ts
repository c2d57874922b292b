/**
 * Snapshot round trip: a loaded index answers every query exactly as the saved one (hits, order, counts,
 * facets, highlighting), keeps settings, synonyms and deleted records deleted, accepts further writes, and a
 * damaged snapshot is refused with a typed error.
 */
import { describe, expect, it } from 'vitest';
import type { IndexSettings, SearchParams, SearchResponse } from '@vitrine/protocol';
import { generateProducts, demoSettings } from '@vitrine/demo';
import { EngineError, SearchIndex, loadSnapshot } from '../index.ts';
import { SnapshotReader, SnapshotWriter } from './format.ts';
import { copySection, sectionsOf } from './test-sections.ts';
import { adjacentPairsFor } from '../index/adjacent-pairs.ts';
import type { IndexStore } from '../index/store.ts';
import { customOrderFor } from '../rank/custom-rank.ts';
import { parseCustomRanking } from '../settings.ts';

const queries: SearchParams[] = [
  { query: '' , facets: ['*'] },
  { query: 'wirel', facets: ['brand', 'color'] },
  { query: 'cotton shirt', filters: 'price < 100', getRankingInfo: true },
  { query: 'lamp', facetFilters: [['color:Red', 'color:Blue']], facets: ['hierarchicalCategories.lvl0'] },
  { query: 'sofa', page: 1, hitsPerPage: 5 },
  { query: 'telly', facets: ['price'] },
];

function comparable(response: SearchResponse): unknown {
  const { processingTimeMS: _t, ...rest } = response;
  return rest;
}

function sample(): SearchIndex {
  const index = new SearchIndex(demoSettings);
  index.saveObjects([...generateProducts(1500, 3)]);
  index.deleteObjects(['5', '6', '7']);
  index.saveObjects([{ ...index.getObject('8')!, name: 'Replaced Telly' }]);
  index.setSynonyms([{ objectID: 'tv', type: 'synonym', synonyms: ['telly', 'television'] }]);
  return index;
}

describe('snapshots', () => {
  it('answers identically after a round trip', () => {
    const index = sample();
    const loaded = loadSnapshot(index.saveSnapshot());
    expect(loaded.size).toBe(index.size);
    expect(loaded.getSettings()).toEqual(index.getSettings());
    expect(loaded.getObject('5')).toBeUndefined();
    expect(loaded.getObject('8')!.name).toBe('Replaced Telly');
    for (const params of queries) expect(comparable(loaded.search(params))).toEqual(comparable(index.search(params)));
    expect(loaded.searchForFacetValues('brand', 'a', {})).toMatchObject({ facetHits: index.searchForFacetValues('brand', 'a', {}).facetHits });
  });

  it('keeps working after more writes', () => {
    const index = sample();
    const loaded = loadSnapshot(index.saveSnapshot());
    for (const target of [index, loaded]) {
      target.saveObjects([{ objectID: 'new', name: 'Quantum Widget', brand: 'Zeta', price: 10 }]);
      target.deleteObjects(['9']);
    }
    for (const params of [...queries, { query: 'quantum' }]) expect(comparable(loaded.search(params))).toEqual(comparable(index.search(params)));
    expect(loaded.search({ query: 'quantum' }).nbHits).toBe(1);
  });

  it('loads snapshots written before objectIDs were kept as bytes (a JSON list, null for deleted records)', () => {
    const index = sample();
    const reader = new SnapshotReader(index.saveSnapshot());
    const writer = new SnapshotWriter();
    for (const name of sectionsOf(reader).keys()) if (name !== 'records.idOffsets' && name !== 'records.idBytes') copySection(reader, writer, name);
    const storeOf = (i: SearchIndex): IndexStore => (i as unknown as { store: IndexStore }).store;
    const previous = Array.from({ length: storeOf(index).capacity }, (_, doc) => (storeOf(index).records.isDeleted(doc) ? null : (storeOf(index).records.get(doc)!.objectID as string)));
    writer.json('records.ids', previous);
    const loaded = loadSnapshot(writer.finish());
    expect(loaded.size).toBe(index.size);
    expect(loaded.getObject('5')).toBeUndefined();
    expect(loaded.getObject('8')!.name).toBe('Replaced Telly');
    for (const params of queries) expect(comparable(loaded.search(params))).toEqual(comparable(index.search(params)));
    loaded.saveObjects([{ objectID: '8', name: 'Replaced Again' }]);
    expect(loaded.getObject('8')!.name).toBe('Replaced Again');
    expect(loaded.size).toBe(index.size);
  });

  it('restores the filter of adjacent terms as saved, and later writes extend it', () => {
    const storeOf = (index: SearchIndex): IndexStore => (index as unknown as { store: IndexStore }).store;
    const index = sample();
    const loaded = loadSnapshot(index.saveSnapshot());
    const saved = adjacentPairsFor(storeOf(index));
    const restored = adjacentPairsFor(storeOf(loaded));
    const terms = Math.min(300, storeOf(index).text.dict.size);
    let adjacent = 0;
    for (let a = 0; a < terms; a++) {
      for (let b = 0; b < terms; b++) {
        expect(restored.mayFollow(a, b)).toBe(saved.mayFollow(a, b));
        if (saved.mayFollow(a, b)) adjacent++;
      }
    }
    expect(adjacent).toBeGreaterThan(0);
    loaded.saveObjects([{ objectID: 'new', name: 'Zyzzyva Quokka' }]);
    const dict = storeOf(loaded).text.dict;
    expect(adjacentPairsFor(storeOf(loaded)).mayFollow(dict.idOf('zyzzyva')!, dict.idOf('quokka')!)).toBe(true);
  });

  it('keeps documents written after a large import, findable by frequent words', () => {
    // The new documents' postings of "lamp" sit in a tail far smaller than the term's grouped postings.
    const index = new SearchIndex({ searchableAttributes: ['name'] });
    index.saveObjects(Array.from({ length: 2000 }, (_, i) => ({ objectID: String(i), name: `lamp ${i % 3 === 0 ? 'desk' : 'floor'}` })));
    index.search({ query: 'lamp' });
    index.saveObjects([{ objectID: 'new', name: 'axolotl lamp' }]);
    const restored = loadSnapshot(index.saveSnapshot());
    expect(restored.search({ query: 'axolotl lamp' }).hits.map((hit) => hit.objectID)).toEqual(['new']);
    expect(restored.search({ query: 'lamp', hitsPerPage: 0 }).nbHits).toBe(2001);
  });

  it('takes writes after restoring an empty index', () => {
    // Empty sections load as zero-length arrays: growing them must not loop forever.
    const restored = loadSnapshot(new SearchIndex(demoSettings).saveSnapshot());
    restored.saveObjects([...generateProducts(50, 3)]);
    expect(restored.search({ query: '' }).nbHits).toBe(50);
    expect(restored.search({ query: 'a', facets: ['brand'] }).nbHits).toBeGreaterThan(0);
  });

  it('restores indexes without explicit searchable attributes', () => {
    const index = new SearchIndex();
    index.saveObjects([{ objectID: 'a', title: 'Blue lamp', extra: { note: 'desk' } }, { objectID: 'b', body: 'lamp shade' }]);
    const loaded = loadSnapshot(index.saveSnapshot());
    for (const query of ['lamp', 'desk', 'shade', '']) expect(comparable(loaded.search({ query }))).toEqual(comparable(index.search({ query })));
  });

  describe('customRanking keys', () => {
    // Numbers (some missing), booleans and strings mixed with numbers: each kind of key column.
    const ranked: IndexSettings = { searchableAttributes: ['name'], customRanking: ['desc(popularity)', 'asc(inStock)', 'asc(label)'] };
    const specs = parseCustomRanking(ranked.customRanking);
    const labels = ['b', 'a', 7, 'c', undefined, 2];
    function rankedIndex(): SearchIndex {
      const index = new SearchIndex(ranked);
      index.saveObjects(
        Array.from({ length: 300 }, (_, i) => ({
          objectID: String(i),
          name: 'lamp',
          ...(i % 7 === 0 ? {} : { popularity: (i * 37) % 50 }),
          inStock: i % 3 === 0,
          ...(labels[i % 6] === undefined ? {} : { label: labels[i % 6] }),
        })),
      );
      index.search({ query: '' });
      return index;
    }
    const columnsOf = (index: SearchIndex) => customOrderFor((index as unknown as { store: IndexStore }).store, specs).columns!;
    const sectionNames = (bytes: Uint8Array): string[] => [...sectionsOf(new SnapshotReader(bytes)).keys()];
    // New documents placed among the old ones by their keys, others moved: wrong restored keys misplace them.
    function writeMore(index: SearchIndex): void {
      index.saveObjects([
        { objectID: 'n1', name: 'lamp', popularity: 25, inStock: true, label: 'a' },
        { objectID: 'n2', name: 'lamp', inStock: false, label: 3 },
        { objectID: 'n3', name: 'lamp', popularity: 0 },
      ]);
      index.saveObjects([{ ...index.getObject('10')!, popularity: 49 }, { ...index.getObject('11')!, popularity: undefined }]);
    }
    const order = (index: SearchIndex): string[] => index.search({ query: 'lamp', hitsPerPage: 1000 }).hits.map((hit) => hit.objectID);
    function expectRestored(index: SearchIndex, loaded: SearchIndex): void {
      const saved = columnsOf(index);
      const restored = columnsOf(loaded);
      expect(restored.map((column) => column.keys === undefined)).toEqual([true, true, false]);
      for (let c = 0; c < specs.length; c++) {
        expect(restored[c].keys).toEqual(saved[c].keys);
        expect([...restored[c].numeric.subarray(0, 300)]).toEqual([...saved[c].numeric.subarray(0, 300)]);
      }
      for (const target of [index, loaded]) writeMore(target);
      const fresh = new SearchIndex(ranked);
      fresh.saveObjects([...index.records()]);
      expect(order(loaded)).toEqual(order(fresh));
      expect(order(index)).toEqual(order(fresh));
    }

    it('keeps numeric columns as numbers and string ones as JSON, and writes after a restore extend the order', () => {
      const index = rankedIndex();
      const bytes = index.saveSnapshot();
      expect(sectionNames(bytes).filter((name) => name.startsWith('custom.'))).toEqual(['custom.rank', 'custom.order', 'custom.numeric.0', 'custom.numeric.1', 'custom.keys.2']);
      expectRestored(index, loadSnapshot(bytes) as SearchIndex);
    });

    it('loads snapshots written when every column was JSON', () => {
      const index = rankedIndex();
      const reader = new SnapshotReader(index.saveSnapshot());
      const writer = new SnapshotWriter();
      for (const name of sectionsOf(reader).keys()) if (!name.startsWith('custom.numeric.') && !name.startsWith('custom.keys.')) copySection(reader, writer, name);
      // Every column as JSON: the numeric ones' keys from their numeric form (negated for desc, Infinity: none).
      const asJson = columnsOf(index).map((column) =>
        column.keys !== undefined ? column.keys.map((key) => key ?? null) : Array.from(column.numeric.subarray(0, column.length), (value) => (value === Infinity ? null : column.spec.ascending ? value : -value)),
      );
      writer.json('custom.keys', asJson);
      expectRestored(index, loadSnapshot(writer.finish()) as SearchIndex);
    });
  });

  it('refuses damaged snapshots', () => {
    const bytes = sample().saveSnapshot();
    expect(() => loadSnapshot(new Uint8Array(10))).toThrow(EngineError);
    expect(() => loadSnapshot(bytes.slice(0, bytes.length / 2))).toThrow(EngineError);
    const wrongMagic = bytes.slice();
    wrongMagic[0] = 0;
    expect(() => loadSnapshot(wrongMagic)).toThrow(/not a Vitrine snapshot/);
  });
});
