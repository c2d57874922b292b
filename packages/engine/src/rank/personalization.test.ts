/**
 * Personalization as a ranking criterion (`personalization.ts`): it orders hits tied on the textual criteria by
 * the user's affinities, and never changes which records are hits, nor moves a rule's pinned record.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { IndexRecord, IndexSettings, Rule, SearchParams, SearchPersonalization } from '@vitrine/protocol';
import { SearchIndex } from '../search-index.ts';

const BRANDS = ['Lumio', 'Nordlys', 'Oakhaus', 'Vela'];
const COLORS = ['red', 'blue', 'green'];
const SETTINGS: IndexSettings = {
  searchableAttributes: ['name'],
  attributesForFaceting: ['brand', 'color', 'filterOnly(stock)', 'series', 'finish'],
  customRanking: ['desc(popularity)'],
};

function records(count: number): IndexRecord[] {
  return Array.from({ length: count }, (_, i) => ({
    objectID: String(i),
    name: i % 3 === 0 ? 'desk lamp' : i % 3 === 1 ? 'floor lamp' : 'oak chair',
    brand: BRANDS[i % BRANDS.length],
    color: COLORS[i % COLORS.length],
    stock: i % 5,
    // Values few records share (a record rarely has two of a shopper's): records of two steps or more are few.
    series: `s${(i * 7) % 53}`,
    finish: `f${(i * 11) % 41}`,
    popularity: count - i,
  }));
}

function indexWith(count: number, rules: Rule[] = []): SearchIndex {
  const index = new SearchIndex(SETTINGS);
  index.saveObjects(records(count));
  if (rules.length > 0) index.setRules(rules);
  return index;
}

const ids = (hits: Array<{ objectID: string }>) => hits.map((hit) => hit.objectID);

describe('personalization criterion', () => {
  const nordlys: SearchPersonalization = { affinities: [['brand', 'Nordlys', 100]], impact: 100 };

  it('moves the user\'s brand up within a textual tie, only when enabled, and explains it', () => {
    const index = indexWith(40);
    const params: SearchParams = { query: 'lamp', hitsPerPage: 10, getRankingInfo: true };
    const plain = index.search(params);
    const off = index.search(params, undefined, { personalization: nordlys });
    expect(ids(off.hits)).toEqual(ids(plain.hits));
    const on = index.search({ ...params, enablePersonalization: true }, undefined, { personalization: nordlys });
    expect(on.nbHits).toBe(plain.nbHits);
    const leading = on.hits.slice(0, 5).map((hit) => hit.brand);
    expect(leading.every((brand) => brand === 'Nordlys')).toBe(true);
    expect(on.hits[0]._rankingInfo?.personalization).toEqual({ filtersScore: 0, rankingScore: 100, score: 100 });
    expect(plain.hits[0]._rankingInfo?.personalization).toBeUndefined();
    // The index's setting turns it on too; the parameter wins over it.
    index.setSettings({ ...SETTINGS, enablePersonalization: true });
    expect(ids(index.search(params, undefined, { personalization: nordlys }).hits)).toEqual(ids(on.hits));
    expect(ids(index.search({ ...params, enablePersonalization: false }, undefined, { personalization: nordlys }).hits)).toEqual(ids(plain.hits));
  });

  it('never puts a weaker textual match first: words before affinities', () => {
    const index = new SearchIndex(SETTINGS);
    index.saveObjects([
      { objectID: 'exact', name: 'desk lamp', brand: 'Lumio', popularity: 1 },
      { objectID: 'partial', name: 'desk', brand: 'Nordlys', popularity: 9 },
    ]);
    const result = index.search({ query: 'desk lamp', optionalWords: ['lamp'], enablePersonalization: true }, undefined, { personalization: nordlys });
    expect(ids(result.hits)).toEqual(['exact', 'partial']);
  });

  it('lets customRanking decide more as the impact falls', () => {
    const index = indexWith(40);
    const weak: SearchPersonalization = { affinities: [['brand', 'Nordlys', 40]], impact: 100 };
    const params: SearchParams = { query: '', hitsPerPage: 5, enablePersonalization: true };
    expect(index.search(params, undefined, { personalization: weak }).hits.every((hit) => hit.brand === 'Nordlys')).toBe(true);
    // At impact 50 a step is 51 points: a score of 40 is below it, so customRanking alone orders the page.
    const halved = index.search({ ...params, personalizationImpact: 50 }, undefined, { personalization: weak });
    expect(ids(halved.hits)).toEqual(ids(index.search({ query: '', hitsPerPage: 5 }).hits));
    expect(ids(index.search({ ...params, personalizationImpact: 0 }, undefined, { personalization: nordlys }).hits)).toEqual(['0', '1', '2', '3', '4']);
  });

  it('counts whole points from 1 to 100: under half a point orders nothing, above 100 counts as 100', () => {
    const index = indexWith(40);
    const params: SearchParams = { query: '', hitsPerPage: 10, enablePersonalization: true, getRankingInfo: true };
    const plain = ids(index.search({ query: '', hitsPerPage: 10 }).hits);
    expect(ids(index.search(params, undefined, { personalization: { affinities: [['brand', 'Nordlys', 0.4]], impact: 100 } }).hits)).toEqual(plain);
    const huge = index.search(params, undefined, { personalization: { affinities: [['brand', 'Nordlys', 250]], impact: 100 } });
    expect(huge.hits[0]._rankingInfo?.personalization).toEqual({ filtersScore: 0, rankingScore: 100, score: 100 });
  });

  it('costs a search little: 10,000 records, personalization on and off alternately (figures in the output)', () => {
    const index = indexWith(10_000);
    index.setResultCacheBytes(0);
    // Affinities for every record (each brand and two colours: the worst case), and for a quarter of them.
    const everything: SearchPersonalization = { affinities: [...BRANDS.map((b, i): [string, string, number] => ['brand', b, 100 - 20 * i]), ['color', 'blue', 30], ['color', 'red', 10]], impact: 100 };
    const typical: SearchPersonalization = { affinities: [['brand', 'Vela', 100], ['color', 'blue', 20]], impact: 100 };
    for (const [query, profile, name] of [['', everything, 'every record'], ['lamp', everything, 'every record'], ['', typical, 'one brand, one colour']] as const) {
      const times: Record<'on' | 'off', number[]> = { on: [], off: [] };
      for (let i = 0; i < 400; i++) {
        const on = i % 2 === 0;
        const started = performance.now();
        index.search({ query, hitsPerPage: 20, enablePersonalization: on }, undefined, { personalization: profile });
        (on ? times.on : times.off).push(performance.now() - started);
      }
      const median = (list: number[]) => [...list].sort((a, b) => a - b)[list.length >> 1];
      console.log(`engine search "${query}" over 10,000 records, affinities for ${name}: median ${(median(times.on) * 1000).toFixed(0)} us personalized, ${(median(times.off) * 1000).toFixed(0)} us not (200 each)`);
      expect(median(times.on)).toBeLessThan(median(times.off) * 3 + 2);
    }
  });

  it('oracle: an empty query orders hits by score in steps of 101 - impact, then customRanking', () => {
    // The split path (a tie of more than 1,024 records: a whole catalogue on an empty query) against the
    // definition, record by record.
    const affinity = fc.tuple(fc.constantFrom('brand', 'color'), fc.constantFrom(...BRANDS, ...COLORS), fc.integer({ min: 1, max: 100 }));
    fc.assert(
      fc.property(fc.integer({ min: 1025, max: 3000 }), fc.array(affinity, { minLength: 1, maxLength: 6 }), fc.integer({ min: 1, max: 100 }), (count, affinities, impact) => {
        const all = records(count);
        const index = indexWith(count);
        const result = index.search({ query: '', hitsPerPage: 1000, enablePersonalization: true }, undefined, { personalization: { affinities, impact } });
        const score = (record: IndexRecord): number =>
          affinities.reduce((sum, [facet, value, points]) => sum + (record[facet] === value ? points : 0), 0);
        const expected = [...all]
          .sort((a, b) => Math.floor(score(b) / (101 - impact)) - Math.floor(score(a) / (101 - impact)) || Number(b.popularity) - Number(a.popularity))
          .map((record) => record.objectID);
        expect(ids(result.hits)).toEqual(expected.slice(0, 1000));
      }),
      { numRuns: 40 },
    );
  });

  /**
   * Ties narrowed by a filter or a query: a bucket a walk meets often, one it meets rarely (the words path, or a
   * count of what the shopper's affinities can lift in it first, `walkPays`), one that shares none of them.
   */
  const NARROWINGS: Array<{ params: SearchParams; keeps: (record: IndexRecord) => boolean }> = [
    { params: { query: '' }, keeps: () => true },
    { params: { query: 'desk' }, keeps: (record) => record.name === 'desk lamp' },
    { params: { query: '', filters: 'brand:Nordlys' }, keeps: (record) => record.brand === 'Nordlys' },
    { params: { query: '', filters: 'color:red AND stock < 2' }, keeps: (record) => record.color === 'red' && Number(record.stock) < 2 },
    { params: { query: '', filters: 'series:s3 OR series:s8' }, keeps: (record) => record.series === 's3' || record.series === 's8' },
  ];

  it('oracle: any page of a tie (all records, a filter\'s, a query\'s), with customRanking, without it, and with a criterion after it', () => {
    // Pages smaller than the tie stop the walk over the shopper's lifted records early (`splitRanked`); without
    // customRanking ids break ties; a criterion after customRanking keeps the word-by-word split, and so do
    // strong affinities (many records of two steps or more), and narrow ties.
    const affinity = fc.oneof(
      fc.tuple(fc.constantFrom('brand', 'color'), fc.constantFrom(...BRANDS, ...COLORS), fc.integer({ min: 1, max: 100 })),
      fc.tuple(fc.constant('series'), fc.nat(52).map((n) => `s${n}`), fc.integer({ min: 1, max: 100 })),
      fc.tuple(fc.constant('finish'), fc.nat(40).map((n) => `f${n}`), fc.integer({ min: 1, max: 100 })),
    );
    const layouts: Array<{ settings: IndexSettings; order: (a: IndexRecord, b: IndexRecord) => number }> = [
      { settings: SETTINGS, order: (a, b) => Number(b.popularity) - Number(a.popularity) },
      { settings: { ...SETTINGS, customRanking: [] }, order: (a, b) => Number(a.objectID) - Number(b.objectID) },
      // An order unlike the ids' (ties on stock by id).
      { settings: { ...SETTINGS, customRanking: ['asc(stock)'] }, order: (a, b) => Number(a.stock) - Number(b.stock) || Number(a.objectID) - Number(b.objectID) },
      {
        settings: { ...SETTINGS, customRanking: ['asc(stock)'], ranking: ['typo', 'words', 'proximity', 'attribute', 'exact', 'custom', 'desc(popularity)'] },
        order: (a, b) => Number(a.stock) - Number(b.stock) || Number(b.popularity) - Number(a.popularity),
      },
    ];
    fc.assert(
      fc.property(
        fc.integer({ min: 1025, max: 2500 }),
        fc.array(affinity, { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 100 }),
        fc.nat(layouts.length - 1),
        fc.integer({ min: 1, max: 60 }),
        fc.nat(6),
        fc.constantFrom(...NARROWINGS),
        (count, affinities, impact, layout, hitsPerPage, page, narrowing) => {
          const { settings, order } = layouts[layout];
          const all = records(count);
          const index = new SearchIndex(settings);
          index.saveObjects(all);
          const score = (record: IndexRecord): number => affinities.reduce((sum, [facet, value, points]) => sum + (record[facet] === value ? points : 0), 0);
          const steps = (record: IndexRecord): number => Math.floor(score(record) / (101 - impact));
          const expected = all.filter(narrowing.keeps).sort((a, b) => steps(b) - steps(a) || order(a, b)).map((record) => record.objectID);
          const search = (page: number) =>
            index.search({ ...narrowing.params, hitsPerPage, page, enablePersonalization: true }, undefined, { personalization: { affinities, impact } });
          expect(ids(search(page).hits)).toEqual(expected.slice(page * hitsPerPage, (page + 1) * hitsPerPage));
          // The next page goes on with the shopper's walk of the order where this one left it.
          expect(ids(search(page + 1).hits)).toEqual(expected.slice((page + 1) * hitsPerPage, (page + 2) * hitsPerPage));
        },
      ),
      { numRuns: 120 },
    );
  });

  it('pages on through a shopper\'s walk: each page of a category goes on where the last stopped', () => {
    // A common value and small pages: the first page counts what the affinities lift in the tie before walking,
    // later ones find the walk's list already long enough and walk at once (`walkPays`).
    const index = indexWith(3000);
    index.setResultCacheBytes(0);
    const affinities: Array<[string, string, number]> = [['brand', 'Nordlys', 70], ['color', 'green', 20]];
    const score = (record: IndexRecord) => (record.brand === 'Nordlys' ? 70 : 0) + (record.color === 'green' ? 20 : 0);
    // Steps of 51: the brand lifts a record one step, the colour adds none (a record of both still has one).
    const expected = [...records(3000)].sort((a, b) => Math.floor(score(b) / 51) - Math.floor(score(a) / 51) || Number(b.popularity) - Number(a.popularity));
    for (let page = 0; page < 12; page++) {
      const { hits } = index.search({ query: '', hitsPerPage: 4, page, enablePersonalization: true }, undefined, { personalization: { affinities, impact: 50 } });
      expect(ids(hits)).toEqual(ids(expected.slice(page * 4, page * 4 + 4)));
    }
  });

  it('oracle: a shopper\'s searches before and after writes (the candidates kept per shopper follow the index)', () => {
    const affinity = fc.tuple(fc.constantFrom('brand', 'color'), fc.constantFrom(...BRANDS, ...COLORS), fc.integer({ min: 1, max: 100 }));
    const edit = fc.tuple(fc.nat(2100), fc.nat(BRANDS.length - 1), fc.nat(COLORS.length - 1), fc.constantFrom('remove', 'replace', 'popularity'));
    fc.assert(
      fc.property(fc.integer({ min: 1025, max: 2000 }), fc.array(affinity, { minLength: 1, maxLength: 4 }), fc.integer({ min: 1, max: 100 }), fc.array(edit, { minLength: 1, maxLength: 30 }), (count, affinities, impact, edits) => {
        const current = new Map(records(count).map((record) => [record.objectID, record]));
        const index = indexWith(count);
        index.setResultCacheBytes(0);
        const search = () => ids(index.search({ query: '', hitsPerPage: 1000, enablePersonalization: true }, undefined, { personalization: { affinities, impact } }).hits);
        const expected = (): string[] => {
          const score = (record: IndexRecord): number => affinities.reduce((sum, [facet, value, points]) => sum + (record[facet] === value ? points : 0), 0);
          return [...current.values()]
            .sort((a, b) => Math.floor(score(b) / (101 - impact)) - Math.floor(score(a) / (101 - impact)) || Number(b.popularity) - Number(a.popularity) || Number(a.objectID) - Number(b.objectID))
            .map((record) => record.objectID)
            .slice(0, 1000);
        };
        expect(search()).toEqual(expected());
        expect(search()).toEqual(expected());
        for (const [id, brand, color, kind] of edits) {
          const objectID = String(id);
          const existing = current.get(objectID);
          if (kind === 'remove') {
            index.deleteObjects([objectID]);
            current.delete(objectID);
          } else if (kind === 'popularity' && existing !== undefined) {
            // Only customRanking's attribute changes: the record is changed in place and moves in the order.
            const record = { ...existing, popularity: ((id * 7919) % 5000) + 0.5 };
            index.saveObjects([record]);
            current.set(objectID, record);
          } else {
            // A changed record or a new one (ids past the catalogue), least popular of all: customRanking puts it last in its step.
            const record = { ...(current.get(objectID) ?? { objectID, name: 'desk lamp', stock: 1 }), brand: BRANDS[brand], color: COLORS[color], popularity: -id };
            index.saveObjects([record]);
            current.set(objectID, record);
          }
          // Twice: the second search goes on with the shopper's walk of the order as the first left it (moved and
          // appended records included).
          expect(search()).toEqual(expected());
          expect(search()).toEqual(expected());
        }
      }),
      { numRuns: 15 },
    );
  });

  it('meets a record that a write in place moved down once, at its new place', () => {
    // Popularity alone changes: the record is changed in place and moves in customRanking's order (its old slot,
    // the first, stays until the order's next merge). A rare value and small pages, so that each page walks on
    // from where the last left it (a short walk each: `walkPays`), from the old slot to the new one.
    const index = indexWith(1500);
    // Each search reaches the engine (not the result cache).
    index.setResultCacheBytes(0);
    const shopper = { personalization: { affinities: [['series', 's0', 60]] as Array<[string, string, number]>, impact: 50 } };
    const pages = (target: SearchIndex) =>
      Array.from({ length: 8 }, (_, page) => ids(target.search({ query: '', hitsPerPage: 5, page, enablePersonalization: true }, undefined, shopper).hits)).flat();
    pages(index);
    const sunk = { ...records(1500)[0], popularity: 0.5 };
    index.saveObjects([sunk]);
    const fresh = indexWith(1500);
    fresh.saveObjects([sunk]);
    const expected = pages(fresh);
    expect(expected.indexOf('0')).toBeGreaterThan(0);
    expect(pages(index)).toEqual(expected);
  });

  it('property: never changes the hit set, nbHits or facets, never moves a pinned record, keeps secured filters', () => {
    const affinity = fc.tuple(fc.constantFrom('brand', 'color', 'unknown'), fc.constantFrom(...BRANDS, ...COLORS, 'nothing'), fc.integer({ min: 1, max: 100 }));
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 120 }),
        fc.array(affinity, { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 0, max: 100 }),
        fc.constantFrom('', 'lamp', 'oak', 'desk lamp'),
        fc.option(fc.constantFrom('color:red', 'stock > 2', 'brand:Vela OR color:blue'), { nil: undefined }),
        fc.integer({ min: 0, max: 20 }),
        (count, affinities, impact, query, filters, pinned) => {
          // Without a condition, the rule applies to every search.
          const pin: Rule = { objectID: 'pin', consequence: { promote: [{ objectID: String(pinned), position: 1 }] } };
          const index = indexWith(count, [pin]);
          const params: SearchParams = { query, hitsPerPage: 1000, facets: ['brand', 'color'], ...(filters === undefined ? {} : { filters }) };
          const secured = { extraFilter: { kind: 'numeric' as const, attribute: 'stock', operator: '<=' as const, value: 3 } };
          const plain = index.search(params, undefined, secured);
          const personal = index.search({ ...params, enablePersonalization: true }, undefined, { ...secured, personalization: { affinities, impact } });
          expect(personal.nbHits).toBe(plain.nbHits);
          expect(personal.facets).toEqual(plain.facets);
          expect(ids(personal.hits).sort()).toEqual(ids(plain.hits).sort());
          for (const hit of personal.hits) expect(Number(hit.stock)).toBeLessThanOrEqual(3);
          const pinnedAt = ids(plain.hits).indexOf(String(pinned));
          expect(ids(personal.hits).indexOf(String(pinned))).toBe(pinnedAt);
        },
      ),
      { numRuns: 150 },
    );
  });
});
