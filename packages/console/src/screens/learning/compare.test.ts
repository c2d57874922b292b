import { describe, expect, it } from 'vitest';
import { compareHits, comparisonParams, moveText, reasonsOf } from './compare.ts';
import type { ComparedHit } from './compare.ts';

const hit = (objectID: string, info: ComparedHit['_rankingInfo'] = {}): ComparedHit => ({ objectID, _rankingInfo: info });

describe('what learning changed', () => {
  it('turns learning off on one side only, and never counts the look as a shopper\'s search', () => {
    const { on, off } = comparisonParams('lamp', 'demo-user-3', 50);
    expect(on).toMatchObject({ query: 'lamp', userToken: 'demo-user-3', hitsPerPage: 50, getRankingInfo: true, analytics: false, enableABTest: false });
    expect(on).not.toHaveProperty('enableReRanking');
    expect(on.allowReRankingOnPersonalization).toBe(true);
    expect(off).toMatchObject({ ...on, enableReRanking: false, enablePersonalization: false, extensions: { queryCategorization: { enableAutoFiltering: false } } });
    expect(comparisonParams('lamp', '', 20).on).not.toHaveProperty('userToken');
  });

  it('marks each learned hit up, down, same or new against learning off, and each hit off where it went', () => {
    const boost = { promotedByReRanking: true, reRanking: { score: 2.345, clicks: 40, conversions: 3, expectedClicks: 9.04 } };
    const on = [hit('c', boost), hit('a'), hit('b'), hit('z')];
    const off = [hit('a'), hit('b'), hit('c'), hit('d')];
    const { on: learned, off: plain, moved } = compareHits(on, off, 3);
    expect(learned.map((row) => [row.objectID, moveText(row.move)])).toEqual([['c', 'up 2'], ['a', 'down 1'], ['b', 'down 1']]);
    expect(learned[0].reasons).toEqual(['Re-ranking: 40 clicks and 3 conversions where its positions predicted 9 clicks (score 2.35)']);
    expect(learned[1].reasons).toEqual(['Hits learning moved up came before it']);
    expect(plain.map((row) => [row.objectID, moveText(row.move), row.otherPosition])).toEqual([['a', 'down 1', 2], ['b', 'down 1', 3], ['c', 'up 2', 1]]);
    expect(moved).toBe(3);
    const fourth = compareHits(on, off, 4);
    expect(moveText(fourth.on[3].move)).toBe('new');
    expect(moveText(fourth.off[3].move)).toBe('gone');
  });

  it('says why from the ranking info: a pin, the shopper\'s affinities, the category boost', () => {
    expect(reasonsOf(hit('a', { promoted: true }), undefined, { kind: 'same' })).toEqual(['Pinned by a rule']);
    expect(reasonsOf(hit('a', { personalization: { filtersScore: 0, rankingScore: 2, score: 140 } }), hit('a'), { kind: 'up', by: 1 })).toEqual(['Personalization: affinity 140 (step 2)']);
    expect(reasonsOf(hit('a', { personalization: { filtersScore: 0, rankingScore: 0, score: 0 } }), hit('a'), { kind: 'same' })).toEqual([]);
    expect(reasonsOf(hit('a', { filters: 1 }), hit('a', { filters: 0 }), { kind: 'up', by: 4 })).toEqual(["Query categorization's category boost"]);
    expect(reasonsOf(hit('a', { filters: 1 }), hit('a', { filters: 1 }), { kind: 'same' })).toEqual([]);
  });
});
