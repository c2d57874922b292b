/**
 * What every snapshot carries besides the index (`derived.ts`): the adjacent-pairs filter and the customRanking
 * orders, the index's own and those of the lists the caller names (a virtual replica's), built by the snapshot
 * when no search built them and seeded into the store, saved, and seeded again on restore, each exactly the
 * full sort's; snapshots written before (without them) still load and answer the same.
 */
import { describe, expect, it } from 'vitest';
import type { IndexSettings, SearchParams, SearchResponse } from '@vitrine/protocol';
import { demoReplicaSettings, demoReplicas, demoSettings, generateProducts } from '@vitrine/demo';
import { EngineError, SearchIndex, loadSnapshot } from '../index.ts';
import { SnapshotReader, SnapshotWriter } from './format.ts';
import { copySection, sectionsOf } from './test-sections.ts';
import type { IndexStore } from '../index/store.ts';
import { computeCustomOrder, customOrderFor, customOrderKey, walkOrder } from '../rank/custom-rank.ts';
import { parseCustomRanking } from '../settings.ts';

const virtualReplica: IndexSettings = { ...demoSettings, ...demoReplicaSettings[demoReplicas.relevantPriceAsc] };
/** The virtual replica's list, one of strings (brand) and the index's own again (saved once). */
const customRankings = [virtualReplica.customRanking, ['asc(brand)', 'desc(rating)'], demoSettings.customRanking];
const lists = customRankings.map((list) => parseCustomRanking(list));

const storeOf = (index: SearchIndex): IndexStore => (index as unknown as { store: IndexStore }).store;
const sectionNames = (bytes: Uint8Array): string[] => [...sectionsOf(new SnapshotReader(bytes)).keys()];
const comparable = ({ processingTimeMS: _t, ...rest }: SearchResponse): unknown => rest;

const queries: SearchParams[] = [{ query: '', hitsPerPage: 30 }, { query: 'lamp', facets: ['brand'] }, { query: 'cotton shirt', getRankingInfo: true }, { query: 'oak', page: 1 }];

/** An index being imported, never searched, with deletions and replacements. */
function imported(size = 1500): SearchIndex {
  const index = new SearchIndex(demoSettings);
  index.saveObjects([...generateProducts(size, 7)]);
  index.deleteObjects(['3', '4', '40']);
  index.saveObjects([{ ...index.getObject('8')!, name: 'Replaced Telly', popularity: 3 }, { ...index.getObject('9')!, popularity: 77 }]);
  return index;
}

/** The live documents in the store's cached order for `specs` (which must be cached: nothing built here). */
function liveWalk(index: SearchIndex, specs: ReturnType<typeof parseCustomRanking>): number[] {
  const store = storeOf(index);
  expect(store.hasCached(customOrderKey(specs))).toBe(true);
  const docs: number[] = [];
  walkOrder(customOrderFor(store, specs), (doc) => (store.isLive(doc) && docs.push(doc), true));
  return docs;
}

/** The live documents in the order a full sort of the index's records gives. */
function sortedWalk(index: SearchIndex, specs: ReturnType<typeof parseCustomRanking>): number[] {
  const store = storeOf(index);
  return Array.from(computeCustomOrder(store.records, specs).order).filter((doc) => store.isLive(doc));
}

function expectSameAnswers(loaded: SearchIndex, index: SearchIndex): void {
  for (const params of queries) {
    expect(comparable(loaded.search(params))).toEqual(comparable(index.search(params)));
    expect(comparable(loaded.search(params, virtualReplica))).toEqual(comparable(index.search(params, virtualReplica)));
  }
}

describe('derived structures in snapshots', () => {
  it('are built when no search built them, kept for searches, saved and seeded on restore, as a full sort gives them', () => {
    const index = imported();
    const bytes = index.saveSnapshot({ customRankings });
    const names = sectionNames(bytes);
    expect(names).toEqual(expect.arrayContaining(['pairs.meta', 'pairs.bits', 'custom.rank', 'custom.order', 'orders', 'orders.0.rank', 'orders.0.numeric.0', 'orders.1.keys.0', 'orders.1.numeric.1']));
    // The index's own list named again is saved once, as its own.
    expect(names.some((name) => name.startsWith('orders.2.'))).toBe(false);
    // The snapshot left them in the store: the index's searches use them.
    for (const specs of lists) expect(liveWalk(index, specs)).toEqual(sortedWalk(index, specs));
    const loaded = loadSnapshot(bytes);
    for (const specs of lists) {
      expect(storeOf(loaded).hasCached(customOrderKey(specs))).toBe(true);
      const seeded = customOrderFor(storeOf(loaded), specs);
      expect(Array.from(seeded.order)).toEqual(Array.from(computeCustomOrder(storeOf(loaded).records, specs).order));
    }
    expect(loaded.restoredSnapshotHolds({ customRankings: customRankings.slice(0, 2) })).toBe(true);
    expect(loaded.restoredSnapshotHolds({ customRankings: [['desc(price)']] })).toBe(false);
    const seeded = customOrderFor(storeOf(loaded), lists[0]);
    expectSameAnswers(loaded, index);
    // The replica's searches used the seeded order rather than sorting again.
    expect(customOrderFor(storeOf(loaded), lists[0])).toBe(seeded);
  });

  it('are extended by writes after a snapshot built them, and the next snapshot saves them extended', () => {
    const index = imported(1200);
    index.saveSnapshot({ customRankings });
    // An import's next batch, more documents than the order keeps pending (merged at once), then small writes.
    index.saveObjects([...generateProducts(2600, 8)].slice(1200).map((record) => ({ ...record, objectID: `b${record.objectID}` })));
    index.saveObjects([{ ...index.getObject('b1300')!, price: 1 }, { ...index.getObject('20')!, brand: 'Aardvark' }]);
    index.deleteObjects(['b1301', '21']);
    const loaded = loadSnapshot(index.saveSnapshot({ customRankings }));
    for (const specs of lists) expect(liveWalk(loaded, specs)).toEqual(sortedWalk(loaded, specs));
    expectSameAnswers(loaded, index);
  });

  it('still load from snapshots written without them (built on first use), which hold nothing to reuse', () => {
    const index = imported();
    const reader = new SnapshotReader(index.saveSnapshot({ customRankings }));
    const writer = new SnapshotWriter();
    for (const name of sectionsOf(reader).keys()) if (!/^(pairs|custom|orders)\b/.test(name)) copySection(reader, writer, name);
    const loaded = loadSnapshot(writer.finish());
    expect(loaded.restoredSnapshotHolds()).toBe(false);
    expect(storeOf(loaded).hasCached(customOrderKey(lists[0]))).toBe(false);
    expectSameAnswers(loaded, index);
    // An index not restored holds nothing to reuse either.
    expect(index.restoredSnapshotHolds()).toBe(false);
  });

  it('refuses an invalid customRanking list before giving anything, and a damaged list of orders on load', () => {
    const index = imported(200);
    expect(() => index.saveSnapshot({ customRankings: [['cheap(price)']] })).toThrow(EngineError);
    expect(() => index.saveSnapshotInPieces({ customRankings: ['asc(price)'] }).next()).toThrow(/customRanking/);
    const reader = new SnapshotReader(index.saveSnapshot({ customRankings }));
    for (const damaged of [{ orders: [['cheap(price)']] }, { orders: 'asc(price)' }, { 'orders.0.rank': new Uint32Array(3) }]) {
      const writer = new SnapshotWriter();
      for (const name of sectionsOf(reader).keys()) {
        if (!(name in damaged)) copySection(reader, writer, name);
        else if (name === 'orders') writer.json(name, damaged.orders);
        else writer.u32(name, new Uint32Array(3));
      }
      expect(() => loadSnapshot(writer.finish())).toThrow(/INVALID_SNAPSHOT|customRanking|order/);
    }
  });
});
