/**
 * The result cache against an index without one: after any sequence of writes (replacements changing one
 * attribute, additions, deletions, settings and synonyms), a search answered by the cached index equals the
 * same search on an uncached index fed the same writes. Plus what the cache promises on its own: results
 * without hits survive writes to attributes they do not read, results with hits survive no write.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { IndexRecord, IndexSettings, SearchParams, SearchResponse } from '@vitrine/protocol';
import { SearchIndex } from '../search-index.ts';
import { ChangeLog, changedTopLevels, sameJson } from '../index/changes.ts';
import { buildFilterNode } from '../filter/index.ts';
import type { SearchOptions } from '../api.ts';

const SETTINGS: IndexSettings = {
  searchableAttributes: ['name', 'meta.title'],
  attributesForFaceting: ['brand', 'color', 'meta.kind', 'price'],
  customRanking: ['desc(popularity)'],
};
const NAMES = ['red lamp', 'blue lamp', 'oak table', 'red sock', 'lamp shade', 'table cloth'];
const BRANDS = ['Acme', 'Bolt', 'Cobalt'];
const COLORS = ['red', 'blue', 'green'];

/** Queries asked again and again: with and without hits, every dependency kind (words, filters, facets, tags, geo). */
const QUERIES: SearchParams[] = [
  { query: 'lamp', hitsPerPage: 0, facets: ['brand'] },
  { query: 'lamp', hitsPerPage: 0, facets: ['color'], facetFilters: [['brand:Acme', 'brand:Bolt']] },
  { query: '', hitsPerPage: 0, facets: ['*'], numericFilters: ['price>=20'] },
  { query: 'tabel', hitsPerPage: 0, facets: ['meta.kind'] },
  { query: '', hitsPerPage: 0, facets: ['brand'], filters: 'color:red OR _tags:sale' },
  { query: '', hitsPerPage: 0, facets: ['price'], filters: 'NOT meta.kind:home' },
  { query: 'red', hitsPerPage: 0, aroundLatLng: '48.85, 2.35', aroundRadius: 100000, facets: ['brand'] },
  { query: 'red', hitsPerPage: 5, facets: ['brand'] },
  { query: '', hitsPerPage: 3 },
  { query: 'lamp', hitsPerPage: 2, page: 1, filters: 'price < 50' },
];

const product = (id: number, random: Seeded): IndexRecord => ({
  objectID: String(id),
  name: NAMES[random.nextInt(0, NAMES.length - 1)],
  brand: BRANDS[random.nextInt(0, BRANDS.length - 1)],
  color: COLORS[random.nextInt(0, COLORS.length - 1)],
  price: random.nextInt(1, 100),
  popularity: random.nextInt(0, 1000),
  stock: random.nextInt(0, 50),
  meta: { title: NAMES[random.nextInt(0, NAMES.length - 1)], kind: random.nextInt(0, 1) ? 'home' : 'garden' },
  _tags: random.nextInt(0, 1) ? ['sale'] : [],
  _geoloc: { lat: 48 + random.nextInt(0, 20) / 10, lng: 2 + random.nextInt(0, 20) / 10 },
});

type Step =
  | { kind: 'search'; query: number; caller: number }
  | { kind: 'change'; id: number; attribute: keyof ReturnType<typeof product> | 'extra'; seed: number }
  | { kind: 'add'; id: number; seed: number }
  | { kind: 'delete'; id: number }
  | { kind: 'settings' }
  | { kind: 'synonyms' };

/** Who searches: the index itself, a virtual replica sorting by price, a secured key forcing a brand. */
const CALLERS: Array<{ override?: IndexSettings; options?: SearchOptions }> = [
  {},
  { override: { ...SETTINGS, customRanking: ['asc(price)'], relevancyStrictness: 50 } },
  { options: { extraFilter: buildFilterNode({ filters: 'brand:Acme' })! } },
];

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 24, arbitrary: fc.record({ kind: fc.constant('search' as const), query: fc.nat(QUERIES.length - 1), caller: fc.constantFrom(0, 0, 0, 0, 1, 2) }) },
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('change' as const),
      id: fc.nat(11),
      attribute: fc.constantFrom('name', 'brand', 'color', 'price', 'popularity', 'stock', 'meta', '_tags', '_geoloc', 'extra' as const),
      seed: fc.nat(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('add' as const), id: fc.integer({ min: 12, max: 15 }), seed: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), id: fc.nat(15) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'settings' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'synonyms' as const }) },
);

/** A response as compared: processing time aside. */
const comparable = (response: SearchResponse): SearchResponse => ({ ...response, processingTimeMS: 0 });

describe('result cache', () => {
  it('answers exactly as an index without a cache, whatever the writes in between', () => {
    let answeredFromCache = 0;
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.array(step, { minLength: 60, maxLength: 160, size: 'max' }), (seed, steps) => {
        const random = new Seeded(seed);
        const cached = new SearchIndex(SETTINGS);
        const plain = new SearchIndex(SETTINGS);
        plain.setResultCacheBytes(0);
        const records = new Map<string, IndexRecord>();
        for (let id = 0; id < 12; id++) records.set(String(id), product(id, random));
        for (const index of [cached, plain]) index.saveObjects([...records.values()]);
        let settingsFlip = false;
        for (const s of steps) {
          if (s.kind === 'search') {
            const params = QUERIES[s.query];
            const { override, options } = CALLERS[s.caller];
            expect(comparable(cached.search(params, override, options))).toEqual(comparable(plain.search(params, override, options)));
            continue;
          }
          if (s.kind === 'change') {
            const current = records.get(String(s.id));
            if (current === undefined) continue;
            const fresh = product(s.id, new Seeded(s.seed));
            const changed = s.attribute === 'extra' ? { ...current, extra: s.seed } : { ...current, [s.attribute]: fresh[s.attribute] };
            records.set(changed.objectID, changed);
            for (const index of [cached, plain]) index.saveObjects([changed]);
          } else if (s.kind === 'add') {
            const added = product(s.id, new Seeded(s.seed));
            records.set(added.objectID, added);
            for (const index of [cached, plain]) index.saveObjects([added]);
          } else if (s.kind === 'delete') {
            records.delete(String(s.id));
            for (const index of [cached, plain]) index.deleteObjects([String(s.id)]);
          } else if (s.kind === 'settings') {
            settingsFlip = !settingsFlip;
            // Alternately a change that rebuilds the index and one that does not (the cache must drop both).
            const next: IndexSettings = settingsFlip ? { ...SETTINGS, typoTolerance: false, maxValuesPerFacet: 1 } : { ...SETTINGS, searchableAttributes: ['name'] };
            for (const index of [cached, plain]) index.setSettings(next);
          } else {
            for (const index of [cached, plain]) index.setSynonyms(settingsFlip ? [] : [{ objectID: 's', type: 'synonym', synonyms: ['lamp', 'sock'] }]);
          }
        }
        answeredFromCache += cached.resultCacheStats().hits;
      }),
      { numRuns: 200 },
    );
    // The comparison means something only if the cache answered often, across writes: a few hundred of the
    // ~14,000 searches, with room below for unlucky random inputs.
    expect(answeredFromCache).toBeGreaterThan(250);
  });

  it('keeps a result without hits across writes to attributes it does not read, and drops it on one it reads', () => {
    const index = new SearchIndex(SETTINGS);
    const random = new Seeded(7);
    const records = Array.from({ length: 20 }, (_, id) => product(id, random));
    index.saveObjects(records);
    const params: SearchParams = { query: 'lamp', hitsPerPage: 0, facets: ['brand'], numericFilters: ['price>=1'] };
    index.search(params);
    index.search(params); // asked twice: now kept
    const before = index.resultCacheStats().hits;
    index.saveObjects([{ ...records[3], popularity: 5000, stock: 0 }]);
    const kept = index.search(params);
    expect(index.resultCacheStats().hits).toBe(before + 1);
    index.saveObjects([{ ...records[3], brand: 'Zed' }]);
    const recounted = index.search(params);
    expect(index.resultCacheStats().hits).toBe(before + 1);
    expect(recounted.facets?.brand?.Zed ?? 0).toBe(String(records[3].name).includes('lamp') ? 1 : 0);
    expect(kept.nbHits).toBe(recounted.nbHits);
  });

  it('drops a result with hits on any write, and a result without hits when records come or go', () => {
    const index = new SearchIndex(SETTINGS);
    const random = new Seeded(11);
    const records = Array.from({ length: 10 }, (_, id) => product(id, random));
    index.saveObjects(records);
    const withHits: SearchParams = { query: '', hitsPerPage: 5 };
    const counts: SearchParams = { query: '', hitsPerPage: 0, facets: ['color'] };
    for (const p of [withHits, counts, withHits, counts]) index.search(p);
    const hits = () => index.resultCacheStats().hits;
    const start = hits();
    index.search(withHits);
    index.search(counts);
    expect(hits()).toBe(start + 2);
    index.saveObjects([{ ...records[0], stock: 99 }]);
    index.search(withHits);
    expect(hits()).toBe(start + 2);
    index.search(counts);
    expect(hits()).toBe(start + 3);
    index.deleteObjects(['4']);
    expect(index.search(counts).nbHits).toBe(9);
    expect(hits()).toBe(start + 3);
  });

  it('shares results across analytics parameters, echoing each caller its own, and keeps callers apart', () => {
    const index = new SearchIndex(SETTINGS);
    index.saveObjects(Array.from({ length: 5 }, (_, id) => product(id, new Seeded(id + 1))));
    const base: SearchParams = { query: 'lamp', hitsPerPage: 0, facets: ['brand'] };
    index.search({ ...base, userToken: 'a' });
    const first = index.search({ ...base, userToken: 'b', clickAnalytics: true });
    first.index = 'changed by a caller';
    const second = index.search({ ...base, userToken: 'c', analytics: false });
    expect(index.resultCacheStats().hits).toBe(1);
    expect(second.params).toContain('userToken=c');
    expect(second.params).toContain('analytics=false');
    expect(second.index).toBeUndefined();
    expect(second.facets).toEqual(first.facets);
  });

  it('never answers the queryID a caller gave the search it kept', () => {
    const index = new SearchIndex(SETTINGS);
    index.saveObjects(Array.from({ length: 5 }, (_, id) => product(id, new Seeded(id + 1))));
    const params: SearchParams = { query: 'lamp', hitsPerPage: 2 };
    for (const queryID of ['q1', 'q2']) {
      // As the server answers clickAnalytics: the queryID set as the search starts, its hits built after.
      const search = index.searchInSteps({ ...params, clickAnalytics: true });
      search.response.queryID = queryID;
      search.buildHits(Number.POSITIVE_INFINITY);
    }
    const cached = index.searchInSteps(params);
    expect(index.resultCacheStats().hits).toBe(1);
    expect(cached.response).not.toHaveProperty('queryID');
  });

  it('stays off when its budget is 0, and within its budget otherwise', () => {
    const index = new SearchIndex(SETTINGS);
    index.saveObjects(Array.from({ length: 5 }, (_, id) => product(id, new Seeded(id + 1))));
    index.setResultCacheBytes(0);
    for (let i = 0; i < 3; i++) index.search({ query: 'lamp', hitsPerPage: 0 });
    expect(index.resultCacheStats()).toMatchObject({ hits: 0, entries: 0 });
    index.setResultCacheBytes(4096);
    for (let round = 0; round < 2; round++) for (let i = 0; i < 20; i++) index.search({ query: 'lamp', hitsPerPage: 0, page: i });
    const { entries, bytes } = index.resultCacheStats();
    expect(bytes).toBeLessThanOrEqual(4096);
    expect(entries).toBeGreaterThan(0);
    expect(entries).toBeLessThan(20);
  });
});

describe('change log', () => {
  it('compares JSON values deeply, whatever the key order', () => {
    expect(sameJson({ a: [1, { b: 2, c: 3 }] }, { a: [1, { c: 3, b: 2 }] })).toBe(true);
    expect(sameJson({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
    expect(sameJson({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(sameJson([], {})).toBe(false);
    expect(sameJson(null, {})).toBe(false);
    expect(sameJson({ a: {} }, { b: {} })).toBe(false);
  });

  it('tells which top-level attributes a replacement changed, and treats an unread replacement as changing all', () => {
    const log = new ChangeLog();
    log.replaced(changedTopLevels({ objectID: '1', a: { x: 1 }, b: 2, c: 3 }, { objectID: '1', a: { x: 2 }, b: 2, d: 4 }), 5);
    expect(log.unchangedSince(4, ['b'])).toBe(true);
    for (const attribute of ['a', 'c', 'd']) expect(log.unchangedSince(4, [attribute])).toBe(false);
    expect(log.unchangedSince(5, ['a'])).toBe(true);
    log.replaced(null, 6);
    expect(log.unchangedSince(5, ['b'])).toBe(false);
    log.membershipChanged(7);
    expect(log.unchangedSince(6, [])).toBe(false);
  });
});

/** A small seeded generator (mulberry32): records drawn from a step's seed are the same on both indexes. */
class Seeded {
  constructor(private state: number) {}
  nextInt(min: number, max: number): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = Math.imul(this.state ^ (this.state >>> 15), 1 | this.state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return min + Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * (max - min + 1));
  }
}
