/**
 * Dynamic re-ranking in the engine: a property test over random catalogues, boosts, filters, forced filters and
 * pins (re-ranking never changes the hit set or nbHits, never moves a pinned hit, never brings in a record the
 * filters leave out, and every boosted hit comes before the unboosted ones), plus the switches (setting,
 * parameter, `reRankingApplyFilter`), sorted replicas and `_rankingInfo`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { IndexSettings, Rule, SearchParams } from '@vitrine/protocol';
import { SearchIndex } from '../search-index.ts';
import { buildFilterNode } from '../filter/index.ts';
import type { ReRankingBoost } from './re-ranking.ts';

const BRANDS = ['Acme', 'Bolt', 'Cobalt'];
const SETTINGS: IndexSettings = { searchableAttributes: ['name'], attributesForFaceting: ['brand', 'price'], customRanking: ['desc(popularity)'], enableReRanking: true };

function catalogue(size: number, brands: number[]): Array<Record<string, unknown>> {
  return Array.from({ length: size }, (_, i) => ({
    objectID: `p${i}`, name: i % 3 === 0 ? 'desk lamp' : 'floor lamp', brand: BRANDS[brands[i % brands.length] % BRANDS.length], price: (i * 7) % 50, popularity: size - i,
  }));
}

const boost = (objectID: string, score: number): ReRankingBoost => ({ objectID, score, clicks: 10, conversions: 1, expectedClicks: 2 });
const ids = (hits: Array<{ objectID: string }>) => hits.map((hit) => hit.objectID);

describe('dynamic re-ranking in the engine', () => {
  it('re-orders only the hits found: same hits and counts, pins kept, filters and forced filters respected, boosted first', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 5, max: 60 }),
        fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 5 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 80 }), fc.double({ min: 1.01, max: 9, noNaN: true })), { maxLength: 12 }),
        fc.option(fc.constantFrom('brand:Acme', 'price < 20', 'NOT brand:Bolt'), { nil: undefined }),
        fc.option(fc.constantFrom('brand:Cobalt', 'price >= 10'), { nil: undefined }),
        fc.option(fc.tuple(fc.integer({ min: 0, max: 80 }), fc.integer({ min: 0, max: 6 })), { nil: undefined }),
        fc.constantFrom('lamp', 'desk', ''),
        (size, brands, boosts, filters, forced, pin, query) => {
          const index = new SearchIndex(SETTINGS);
          index.saveObjects(catalogue(size, brands) as never);
          if (pin !== undefined) {
            // No condition: the rule applies to every query.
            const rule: Rule = { objectID: 'pin', consequence: { promote: [{ objectID: `p${pin[0]}`, position: pin[1] }] } };
            index.setRules([rule]);
          }
          const params: SearchParams = { query, hitsPerPage: 1000, getRankingInfo: true, ...(filters === undefined ? {} : { filters }) };
          const extraFilter = forced === undefined ? undefined : buildFilterNode({ filters: forced })!;
          const reRanking = { query, boosts: boosts.map(([id, score]) => boost(`p${id}`, score)) };
          const without = index.search(params, undefined, { extraFilter });
          const withBoosts = index.search(params, undefined, { extraFilter, reRanking });
          expect(withBoosts.nbHits).toBe(without.nbHits);
          expect(new Set(ids(withBoosts.hits))).toEqual(new Set(ids(without.hits)));
          expect(withBoosts.facets).toEqual(without.facets);
          // Pinned hits stay where the rule put them.
          without.hits.forEach((hit, i) => {
            if (hit._rankingInfo?.promoted === true) expect(withBoosts.hits[i].objectID).toBe(hit.objectID);
          });
          // Boosted hits (not pinned) come first among the unpinned, higher scores first.
          const unpinned = withBoosts.hits.filter((hit) => hit._rankingInfo?.promoted !== true);
          const scores = unpinned.map((hit) => hit._rankingInfo?.reRanking?.score ?? 0);
          for (let i = 1; i < scores.length; i++) expect(scores[i]).toBeLessThanOrEqual(scores[i - 1]);
          for (const hit of withBoosts.hits) {
            if (hit._rankingInfo?.promotedByReRanking === true) expect(reRanking.boosts.map((b) => b.objectID)).toContain(hit.objectID);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('oracle: in a tie of more than 1,024 records (the split path), boosted hits first by score, then customRanking', () => {
    fc.assert(
      // A model boosts a record once per query: ids unique.
      fc.property(fc.integer({ min: 1025, max: 2500 }), fc.uniqueArray(fc.tuple(fc.nat(3000), fc.double({ min: 1.01, max: 9, noNaN: true })), { maxLength: 20, selector: ([id]) => id }), (size, boosts) => {
        const index = new SearchIndex(SETTINGS);
        index.saveObjects(catalogue(size, [0]) as never);
        const reRanking = { query: '', boosts: boosts.map(([id, score]) => boost(`p${id}`, score)) };
        const result = index.search({ query: '', hitsPerPage: 1000 }, undefined, { reRanking });
        // Each boosted record present by its score; ties by customRanking (popularity falls with the id).
        const best = new Map<number, number>(boosts.filter(([id]) => id < size));
        const boosted = [...best].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([id]) => `p${id}`);
        const rest = Array.from({ length: size }, (_, i) => i).filter((i) => !best.has(i)).map((i) => `p${i}`);
        expect(ids(result.hits)).toEqual([...boosted, ...rest].slice(0, 1000));
      }),
      { numRuns: 30 },
    );
  });

  it('applies only when the index enables it and the search does not turn it off, to what reRankingApplyFilter allows', () => {
    const records = catalogue(12, [0, 1, 2]);
    const reRanking = { query: 'lamp', boosts: [boost('p11', 3), boost('p10', 2)] };
    const first = (settings: IndexSettings, params: SearchParams = {}) => {
      const index = new SearchIndex({ ...SETTINGS, ...settings });
      index.saveObjects(records as never);
      return ids(index.search({ query: 'lamp', ...params }, undefined, { reRanking }).hits).slice(0, 2);
    };
    expect(first({})).toEqual(['p11', 'p10']);
    expect(first({ enableReRanking: false })).toEqual(['p0', 'p1']);
    expect(first({ enableReRanking: undefined })).toEqual(['p0', 'p1']);
    expect(first({}, { enableReRanking: false })).toEqual(['p0', 'p1']);
    // p11 is a Cobalt (11 % 3 = 2), p10 an Bolt: the filter keeps p10's boost only.
    expect(first({ reRankingApplyFilter: 'brand:Bolt' })).toEqual(['p10', 'p0']);
    expect(first({}, { reRankingApplyFilter: ['brand:Cobalt'] })).toEqual(['p11', 'p0']);
    // The parameter wins over the setting.
    expect(first({ reRankingApplyFilter: 'brand:Bolt' }, { reRankingApplyFilter: 'brand:Cobalt' })).toEqual(['p11', 'p0']);
  });

  it('steps aside on a personalized search unless allowReRankingOnPersonalization, and with distinct above 1', () => {
    const records = catalogue(12, [0, 1, 2]).map((record, i) => ({ ...record, group: `g${i >> 1}` }));
    const index = new SearchIndex({ ...SETTINGS, enablePersonalization: true, attributeForDistinct: 'group' });
    index.saveObjects(records as never);
    const reRanking = { query: 'lamp', boosts: [boost('p11', 3)] };
    // The shopper likes Bolt (p1, p4, p7, p10): p1 first when personalization alone orders the page.
    const personalization = { impact: 100, affinities: [['brand', 'Bolt', 50]] as Array<[string, string, number]> };
    const first = (params: SearchParams, options: { personalization?: typeof personalization } = {}) =>
      index.search({ query: 'lamp', getRankingInfo: true, ...params }, undefined, { reRanking, ...options }).hits[0];
    expect(first({}).objectID).toBe('p11');
    expect(first({}, { personalization }).objectID).toBe('p1');
    expect(first({}, { personalization })._rankingInfo?.reRanking).toBeUndefined();
    expect(first({ allowReRankingOnPersonalization: true }, { personalization }).objectID).toBe('p11');
    // As url-encoded params send it; personalization turned off by the search: re-ranking applies again.
    expect(first({ allowReRankingOnPersonalization: 'true' as never }, { personalization }).objectID).toBe('p11');
    expect(first({ enablePersonalization: false }, { personalization }).objectID).toBe('p11');
    // distinct: 1 keeps re-ranking; 2 turns it off, allowed or not.
    expect(first({ distinct: 1 }).objectID).toBe('p11');
    expect(first({ distinct: 2 }).objectID).toBe('p0');
    expect(first({ distinct: 2, allowReRankingOnPersonalization: true }, { personalization }).objectID).toBe('p1');
    expect(() => first({ allowReRankingOnPersonalization: 3 as never })).toThrow(/allowReRankingOnPersonalization/);
  });

  it('only breaks ties of a sorted replica\'s leading sort', () => {
    const index = new SearchIndex({ ...SETTINGS, ranking: ['asc(price)', 'typo', 'words', 'filters', 'proximity', 'attribute', 'exact', 'custom'] });
    // Four prices, five records each; p19 is the least popular of price 30.
    index.saveObjects(catalogue(20, [0]).map((record, i) => ({ ...record, price: (i % 4) * 10 })) as never);
    const reRanking = { query: 'lamp', boosts: [boost('p19', 5)] };
    const hits = index.search({ query: 'lamp', hitsPerPage: 20 }, undefined, { reRanking }).hits;
    const prices = hits.map((hit) => hit.price as number);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    // First among its price, not first of all.
    expect(hits.findIndex((hit) => hit.objectID === 'p19')).toBe(prices.indexOf(30));
    expect(prices.indexOf(30)).toBe(15);
  });

  it('explains a boosted hit in _rankingInfo, and refuses a malformed reRankingApplyFilter', () => {
    const index = new SearchIndex(SETTINGS);
    index.saveObjects(catalogue(6, [0]) as never);
    const reRanking = { query: 'lamp', boosts: [{ objectID: 'p5', score: 2.5, clicks: 12, conversions: 3, expectedClicks: 1.5 }] };
    const [hit, next] = index.search({ query: 'lamp', getRankingInfo: true }, undefined, { reRanking }).hits;
    expect(hit.objectID).toBe('p5');
    expect(hit._rankingInfo).toMatchObject({ promotedByReRanking: true, reRanking: { score: 2.5, clicks: 12, conversions: 3, expectedClicks: 1.5 } });
    expect(next._rankingInfo?.promotedByReRanking).toBeUndefined();
    expect(() => index.search({ query: 'lamp', reRankingApplyFilter: 12 as never })).toThrow(/reRankingApplyFilter/);
    expect(() => index.setSettings({ ...SETTINGS, enableReRanking: 'yes' as never })).toThrow(/enableReRanking/);
    expect(() => index.setSettings({ ...SETTINGS, reRankingApplyFilter: 'brand:' })).toThrow();
  });

  it('keys the result cache with the boosts: a new model re-orders a repeated search', () => {
    const index = new SearchIndex(SETTINGS);
    index.saveObjects(catalogue(6, [0]) as never);
    const search = (objectID: string) => ids(index.search({ query: 'lamp' }, undefined, { reRanking: { query: 'lamp', boosts: [boost(objectID, 2)] } }).hits)[0];
    for (let i = 0; i < 3; i++) expect(search('p4')).toBe('p4');
    expect(search('p3')).toBe('p3');
  });
});
