/**
 * The recommendation models as the recommend route reads them, packed: each table is a few typed arrays and one
 * string holding its objectIDs. Models are built in a thread of their own (`model-thread.ts`); handing a model of
 * a million items to the main thread then costs the copy of a few strings (the arrays are transferred), not the
 * re-creation of an object per item and per partner, and the main thread's garbage collector has nothing to trace
 * in them. A lookup materialises only what it returns (at most 50 partners, or the slice of a ranking asked for).
 *
 * Rejected: `Map`s of objects sent as they are (what the models were while built on the main thread): their copy
 * is rebuilt object by object on the receiving thread, hundreds of milliseconds for a large model, every
 * request waiting; sent in slices, the main thread would still hold millions of objects.
 */

export interface ScoredItem {
  objectID: string;
  /** 0 to 100. */
  score: number;
}

export interface TrendStat {
  recent: number;
  previous: number;
}

export interface TrendingItem extends TrendStat, ScoredItem {}

/** objectIDs end to end in one string: id `i` runs from `ends[i - 1]` (0 for the first) to `ends[i]`. */
export interface PackedIds {
  text: string;
  ends: Uint32Array;
}

/** Items and their best partners: `ids` sorted (code units, found by binary search), partners as positions in it. */
export interface PartnerTable {
  ids: PackedIds;
  /** Item `i`'s partners are `partners[starts[i]]` to `partners[starts[i + 1] - 1]`, best first. */
  starts: Uint32Array;
  partners: Uint32Array;
  scores: Float64Array;
}

/** Items (or `attribute\u0000value` facet keys) in rank order, with their counts in the two trending windows. */
export interface RankedTable {
  ids: PackedIds;
  recent: Float64Array;
  previous: Float64Array;
  /** 0 to 100, the first ranked item 100; 0 for items without recent activity. */
  scores: Float64Array;
  /** The first `ranked` entries have recent activity (the trending items). */
  ranked: number;
}

export interface PackedIndexModels {
  boughtTogether: PartnerTable;
  coInterest: PartnerTable;
  items: RankedTable;
  facets: RankedTable;
}

export interface PackedModels {
  builtAt: number;
  eventsRead: number;
  indexes: Array<[string, PackedIndexModels]>;
}

/** A ranking read a slice at a time. */
export interface RankedList {
  readonly length: number;
  slice(start: number, end: number): TrendingItem[];
}

export interface Models {
  builtAt: number;
  eventsRead: number;
  /** Items bought with `objectID` (bought-together), best first. */
  boughtTogether(indexName: string, objectID: string): ScoredItem[];
  /** Items of the same sessions as `objectID` (blended into related-products), best first. */
  coInterest(indexName: string, objectID: string): ScoredItem[];
  /** Items with recent activity, best first. */
  trending(indexName: string): RankedList;
  /** Every item with activity in either trending window (trending facets sum them per value). */
  itemStats(indexName: string): RankedList;
  /** `attribute\u0000value` → counts from filter events. */
  facetSignals(indexName: string): RankedList;
  /** Items with at least one partner, and trending items, summed over indices. */
  counts: { boughtTogetherItems: number; relatedItems: number; trendingItems: number };
}

const TRENDING_SMOOTHING = 5;

/** Trending score before normalisation: volume times smoothed velocity. */
export function trendScore(stat: TrendStat): number {
  return stat.recent * ((stat.recent + TRENDING_SMOOTHING) / (stat.previous + TRENDING_SMOOTHING));
}

export function packIds(ids: readonly string[]): PackedIds {
  const ends = new Uint32Array(ids.length);
  let end = 0;
  ids.forEach((id, i) => (ends[i] = end += id.length));
  return { text: ids.join(''), ends };
}

export function idAt(ids: PackedIds, i: number): string {
  return ids.text.slice(i === 0 ? 0 : ids.ends[i - 1], ids.ends[i]);
}

/** Position of `id` in sorted `ids`, or -1. */
function findId(ids: PackedIds, id: string): number {
  let low = 0;
  let high = ids.ends.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const found = idAt(ids, middle);
    if (found === id) return middle;
    if (found < id) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

const emptyIds: PackedIds = { text: '', ends: new Uint32Array(0) };
export const emptyPartners: PartnerTable = { ids: emptyIds, starts: new Uint32Array(1), partners: new Uint32Array(0), scores: new Float64Array(0) };
export const emptyRanking: RankedTable = { ids: emptyIds, recent: new Float64Array(0), previous: new Float64Array(0), scores: new Float64Array(0), ranked: 0 };

/** The buffers `postMessage` can hand over instead of copying. */
export function transferList(packed: PackedModels): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  const add = (...arrays: Array<Uint32Array | Float64Array>) => arrays.forEach((array) => array.byteLength > 0 && buffers.add(array.buffer as ArrayBuffer));
  for (const [, index] of packed.indexes) {
    for (const table of [index.boughtTogether, index.coInterest]) add(table.ids.ends, table.starts, table.partners, table.scores);
    for (const table of [index.items, index.facets]) add(table.ids.ends, table.recent, table.previous, table.scores);
  }
  return [...buffers];
}

function partnersOf(table: PartnerTable | undefined, objectID: string): ScoredItem[] {
  if (!table) return [];
  const i = findId(table.ids, objectID);
  if (i < 0) return [];
  const out: ScoredItem[] = [];
  for (let p = table.starts[i]; p < table.starts[i + 1]; p++) out.push({ objectID: idAt(table.ids, table.partners[p]), score: table.scores[p] });
  return out;
}

function rankedList(table: RankedTable | undefined, length: (table: RankedTable) => number): RankedList {
  if (!table) return { length: 0, slice: () => [] };
  const size = length(table);
  return {
    length: size,
    slice(start, end) {
      const out: TrendingItem[] = [];
      for (let i = Math.max(0, start); i < Math.min(end, size); i++) {
        out.push({ objectID: idAt(table.ids, i), score: table.scores[i], recent: table.recent[i], previous: table.previous[i] });
      }
      return out;
    },
  };
}

/** Lookups over packed models. */
export function modelsView(packed: PackedModels): Models {
  const byIndex = new Map(packed.indexes);
  const sum = (count: (index: PackedIndexModels) => number) => packed.indexes.reduce((n, [, index]) => n + count(index), 0);
  return {
    builtAt: packed.builtAt,
    eventsRead: packed.eventsRead,
    boughtTogether: (indexName, objectID) => partnersOf(byIndex.get(indexName)?.boughtTogether, objectID),
    coInterest: (indexName, objectID) => partnersOf(byIndex.get(indexName)?.coInterest, objectID),
    trending: (indexName) => rankedList(byIndex.get(indexName)?.items, (table) => table.ranked),
    itemStats: (indexName) => rankedList(byIndex.get(indexName)?.items, (table) => table.ids.ends.length),
    facetSignals: (indexName) => rankedList(byIndex.get(indexName)?.facets, (table) => table.ids.ends.length),
    counts: {
      boughtTogetherItems: sum((index) => index.boughtTogether.ids.ends.length),
      relatedItems: sum((index) => index.coInterest.ids.ends.length),
      trendingItems: sum((index) => index.items.ranked),
    },
  };
}

export function emptyModels(): Models {
  return modelsView({ builtAt: 0, eventsRead: 0, indexes: [] });
}
