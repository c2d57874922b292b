/**
 * Oracle property test for writes: the derived structures (customRanking order, sort orders, numeric columns,
 * facet rows) are extended on writes rather than rebuilt, so after any interleaving of saves, replacements,
 * deletions and searches, each search must answer exactly as an index freshly built from the same records
 * (hits in order, nbHits, facet counts and stats). Replacements that change only popularity, label or an attribute
 * nothing reads are made in place (same internal id): the customRanking order moves the document, and the
 * structures that cannot follow (the numeric column of a filtered popularity) make the store append instead.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { IndexRecord, IndexSettings, SearchParams, SearchResponse } from '@vitrine/protocol';
import { SearchIndex } from '../search-index.ts';
import { loadSnapshot } from '../snapshot/index.ts';

const VOCAB = ['red', 'read', 'shoe', 'shoes', 'sock', 'socket', 'lamp', 'table', 'cable', 'oak'];
const COLORS = ['Red', 'Blue', 'green', 'Teal', 'Ochre', 'Plum', 'Sand'];

const settings: IndexSettings = {
  searchableAttributes: ['name'],
  attributesForFaceting: ['color', 'price', 'tags'],
  customRanking: ['desc(popularity)', 'asc(label)'],
};
// Settings of replicas searched through the index: a sort by a facet, a sort by an attribute changed in place,
// and distinct on one (its groups are dropped by such a change and built again).
const overrides: Record<string, IndexSettings | undefined> = {
  none: undefined,
  price: { ranking: ['asc(price)', 'typo', 'words', 'proximity', 'attribute', 'exact', 'custom'] },
  popularity: { ranking: ['desc(popularity)', 'typo', 'words', 'proximity', 'attribute', 'exact', 'custom'] },
  distinct: { attributeForDistinct: 'label', distinct: 1 },
};

const record = fc.record({
  objectID: fc.integer({ min: 0, max: 30 }).map(String),
  name: fc.array(fc.constantFrom(...VOCAB), { minLength: 1, maxLength: 3 }).map((w) => w.join(' ')),
  color: fc.option(fc.constantFrom(...COLORS), { nil: undefined }),
  // New prices and labels appear as writes go on: new facet values, new keys to merge into the orders.
  price: fc.integer({ min: 0, max: 40 }),
  popularity: fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined }),
  label: fc.option(fc.constantFrom('a', 'b', 'c', 'd'), { nil: undefined }),
  tags: fc.array(fc.constantFrom('x', 'y', 'z'), { maxLength: 2 }),
});

type Search = { query: string; filter: string | undefined; sorted: keyof typeof overrides };
const search: fc.Arbitrary<Search> = fc.record({
  // Prefixes, whole words (typo alternatives: table/cable, read/red) and two-word queries, repeated across writes
  // so that cached word expansions are extended by the documents written since (new terms included).
  query: fc.oneof(
    fc.constant(''),
    fc.constantFrom(...VOCAB).map((w) => w.slice(0, 3)),
    fc.constantFrom(...VOCAB),
    fc.tuple(fc.constantFrom(...VOCAB), fc.constantFrom(...VOCAB)).map(([a, b]) => `${a} ${b.slice(0, 2)}`),
  ),
  // popularity is not a facet: its numeric column is read from the records, not from a facet column.
  filter: fc.constantFrom(undefined, 'price < 20', 'price: 5 TO 30', 'color:Red OR color:Teal', 'popularity >= 3'),
  sorted: fc.constantFrom(...Object.keys(overrides)),
});

type Touch = { ids: string[]; popularity: number | undefined; label: string | undefined; note: string };
type Step =
  | { kind: 'save'; records: IndexRecord[] }
  | { kind: 'touch'; touch: Touch }
  | { kind: 'delete'; ids: string[] }
  | { kind: 'search'; params: Search }
  | { kind: 'snapshot' };

// A stock-level style update of existing records: popularity, label or an unread note only.
const touch: fc.Arbitrary<Touch> = fc.record({
  ids: fc.array(fc.integer({ min: 0, max: 30 }).map(String), { minLength: 1, maxLength: 4 }),
  popularity: fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined }),
  label: fc.option(fc.constantFrom('a', 'b', 'c', 'd'), { nil: undefined }),
  note: fc.constantFrom('', 'restocked', 'on sale'),
});

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 1, arbitrary: fc.array(record, { minLength: 1, maxLength: 6 }).map((records): Step => ({ kind: 'save', records })) },
  { weight: 2, arbitrary: touch.map((t): Step => ({ kind: 'touch', touch: t })) },
  fc.array(fc.integer({ min: 0, max: 30 }).map(String), { minLength: 1, maxLength: 3 }).map((ids): Step => ({ kind: 'delete', ids })),
  { weight: 1, arbitrary: search.map((params): Step => ({ kind: 'search', params })) },
);

function answer(index: SearchIndex, params: Search): unknown {
  const request: SearchParams = { query: params.query, hitsPerPage: 50, facets: ['color', 'price', 'tags'], filters: params.filter };
  const response: SearchResponse = index.search(request, overrides[params.sorted]);
  return { hits: response.hits.map((hit) => hit.objectID), nbHits: response.nbHits, facets: response.facets, stats: response.facets_stats };
}

/** Replacements made in place by an index's store (and the stores compacted into). */
function inPlaceUpdates(index: SearchIndex): number {
  return (index as unknown as { store: { inPlaceUpdates: number } }).store.inPlaceUpdates;
}

/**
 * Applies the steps to `index`, comparing each search with an index freshly built from its records; a snapshot
 * step goes on with the index restored from a snapshot of it. Returns the index the steps ended with.
 */
function replay(start: SearchIndex, initial: IndexRecord[], steps: Step[]): SearchIndex {
  let index = start;
  index.saveObjects(initial);
  for (const s of steps) {
    if (s.kind === 'snapshot') index = loadSnapshot(index.saveSnapshot()) as SearchIndex;
    else if (s.kind === 'save') index.saveObjects(s.records);
    else if (s.kind === 'touch') {
      const { ids, popularity, label, note } = s.touch;
      const changed = ids.flatMap((id) => {
        const current = index.getObject(id);
        return current === undefined ? [] : [{ ...current, popularity, label, note }];
      });
      index.saveObjects(changed);
    } else if (s.kind === 'delete') index.deleteObjects(s.ids);
    else {
      const fresh = new SearchIndex(settings);
      fresh.saveObjects([...index.records()]);
      expect(answer(index, s.params)).toEqual(answer(fresh, s.params));
    }
  }
  return index;
}

describe('incremental maintenance on writes', () => {
  it('answers like an index freshly built from the same records', () => {
    let inPlace = 0;
    fc.assert(
      fc.property(fc.array(record, { maxLength: 20 }), fc.array(step, { minLength: 1, maxLength: 25 }), (initial, steps) => {
        const index = new SearchIndex(settings);
        replay(index, initial, steps);
        inPlace += inPlaceUpdates(index);
      }),
      { numRuns: 150 },
    );
    expect(inPlace).toBeGreaterThan(80);
  });

  it('answers the same while a compaction copies records a few at a time, and after the swap', () => {
    let completed = 0;
    let inPlace = 0;
    fc.assert(
      fc.property(fc.array(record, { maxLength: 20 }), fc.array(step, { minLength: 20, maxLength: 60, size: 'max' }), (initial, steps) => {
        const index = new SearchIndex(settings);
        // A compaction as soon as 3 tombstones outnumber the live records, one record copied per record written
        // or search: writes and searches land while it runs.
        const internals = index as unknown as { compactionPolicy: { minTombstones: number; perWrite: number; perSearch: number }; compactions: number };
        Object.assign(internals.compactionPolicy, { minTombstones: 3, perWrite: 1, perSearch: 1 });
        replay(index, initial, steps);
        completed += internals.compactions;
        inPlace += inPlaceUpdates(index);
      }),
      { numRuns: 300 },
    );
    expect(completed).toBeGreaterThan(50);
    expect(inPlace).toBeGreaterThan(100);
  });

  it('answers the same after a snapshot taken between changes in place, and as changes go on after it', () => {
    let inPlace = 0;
    const withSnapshots = fc.oneof({ weight: 6, arbitrary: step }, { weight: 1, arbitrary: fc.constant<Step>({ kind: 'snapshot' }) });
    fc.assert(
      fc.property(fc.array(record, { maxLength: 20 }), fc.array(withSnapshots, { minLength: 5, maxLength: 40 }), (initial, steps) => {
        inPlace += inPlaceUpdates(replay(new SearchIndex(settings), initial, steps));
      }),
      { numRuns: 150 },
    );
    expect(inPlace).toBeGreaterThan(80);
  });

  it('numbers records alike on replicas given the same writes, whatever searches each ran', () => {
    fc.assert(
      fc.property(fc.array(record, { maxLength: 20 }), fc.array(step, { minLength: 20, maxLength: 60, size: 'max' }), (initial, steps) => {
        // As two search threads: the same writes, searches on one only (they build derived structures, and
        // advance compactions, on that one only).
        const searched = new SearchIndex(settings);
        const quiet = new SearchIndex(settings);
        for (const index of [searched, quiet]) {
          Object.assign((index as unknown as { compactionPolicy: object }).compactionPolicy, { minTombstones: 3, perWrite: 1, perSearch: 1 });
          index.saveObjects(initial);
        }
        for (const s of steps) {
          if (s.kind === 'search') {
            answer(searched, s.params);
            continue;
          }
          for (const index of [searched, quiet]) replay(index, [], [s]);
        }
        // Ids in the same relative order: every tie breaks the same way on both.
        expect([...searched.records()].map((r) => r.objectID)).toEqual([...quiet.records()].map((r) => r.objectID));
        for (const sorted of Object.keys(overrides)) {
          const params: Search = { query: '', filter: undefined, sorted };
          expect(answer(quiet, params)).toEqual(answer(searched, params));
        }
      }),
      { numRuns: 200 },
    );
  });

  it("walks sort orders in the new order after popularity changes in place (pages far smaller than the 3,000 matches: walked, not keyed)", () => {
    let seed = 7;
    const random = (): number => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const records: IndexRecord[] = Array.from({ length: 3000 }, (_, i) => ({ objectID: String(i), name: 'oak table', color: 'Red', price: i % 40, tags: [], popularity: Math.floor(random() * 1000) }));
    const index = new SearchIndex(settings);
    index.saveObjects(records);
    const top = (target: SearchIndex, sorted: string, filter?: string) =>
      target.search({ query: '', hitsPerPage: 5, filters: filter }, overrides[sorted]).hits.map((hit) => [hit.objectID, hit.popularity]);
    for (let round = 0; round < 20; round++) {
      // Built (or brought up to date) before the changes, so that they follow them rather than being built after.
      top(index, 'popularity');
      top(index, 'none', 'popularity >= 500');
      // Some of the first page sink, some records from anywhere rise to the top.
      const first = top(index, 'popularity').map(([id]) => records[Number(id)]);
      const sinking = first.slice(0, 3).map((record) => ({ ...record, popularity: Math.floor(random() * 500) }));
      const rising = Array.from({ length: 12 }, (_, k) => ({ ...records[Math.floor(random() * records.length)], popularity: 1000 + round * 20 + k }));
      const changed = [...sinking, ...rising].filter((record, i, all) => all.findIndex((r) => r.objectID === record.objectID) === i);
      for (const record of changed) records[Number(record.objectID)] = record;
      index.saveObjects(changed);
      const fresh = new SearchIndex(settings);
      fresh.saveObjects([...index.records()]);
      for (const [sorted, filter] of [['popularity', undefined], ['none', 'popularity >= 500'], ['none', undefined]] as const) {
        expect(top(index, sorted, filter)).toEqual(top(fresh, sorted, filter));
      }
    }
    expect(inPlaceUpdates(index)).toBeGreaterThan(250);
  });
});
