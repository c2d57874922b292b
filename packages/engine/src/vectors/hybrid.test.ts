/**
 * Properties tested: hybrid search through the facade (`vectors/hybrid.ts`).
 * 1. parameters: `hybrid` and `vector` validated (embedder named or the only one, ratio 0 to 1, dimensions);
 *    ratio 0 is the keyword search unchanged; `vector` alone is a vector search; a query without text and no
 *    vector stays a keyword search; a userProvided embedder without `vector` is refused;
 * 2. the fusion as stated: weighted reciprocal ranks (1 − r)/(60 + keyword rank) + r/(60 + vector rank), shown
 *    in `_rankingInfo`, hits in that order (ties: keyword rank, vector rank, id);
 * 3. filters (the request's and a forced one), rules (hidden and pinned records), distinct and facets apply to
 *    the merged set exactly as to keyword hits; nbHits counts the merged set;
 * 4. a vector search (ratio 1) equals a naive cosine over the records passing the filters, through random
 *    writes, deletions, compactions in steps and snapshots (fast-check);
 * 5. results kept by the result cache follow vector changes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { IndexRecord, SearchParams } from '@vitrine/protocol';
import { SearchIndex } from '../search-index.ts';
import { loadSnapshot } from '../snapshot/index.ts';
import { buildFilterNode } from '../filter/index.ts';

const embedders = { img: { source: 'userProvided' as const, dimensions: 2 } };
const settings = { searchableAttributes: ['name'], attributesForFaceting: ['brand', 'group'], embedders };
/** Vectors on the unit circle: the angle to the query orders them. */
const at = (degrees: number) => [Math.cos((degrees * Math.PI) / 180), Math.sin((degrees * Math.PI) / 180)];
const catalogue: IndexRecord[] = [
  { objectID: 'k1', name: 'coffee mug', brand: 'acme', group: 'g1', _vectors: { img: at(80) } },
  { objectID: 'k2', name: 'coffee cup', brand: 'bolt', group: 'g2', _vectors: { img: at(60) } },
  { objectID: 'k3', name: 'coffee pot', brand: 'acme', group: 'g3' },
  { objectID: 'v1', name: 'thermos flask', brand: 'bolt', group: 'g1', _vectors: { img: at(0) } },
  { objectID: 'v2', name: 'travel bottle', brand: 'acme', group: 'g4', _vectors: { img: at(10) } },
  { objectID: 'v3', name: 'lunch box', brand: 'cosy', group: 'g5', _vectors: { img: at(20) } },
];

function index(): SearchIndex {
  const idx = new SearchIndex(settings);
  idx.saveObjects(catalogue);
  return idx;
}
const ids = (response: { hits: Array<{ objectID: string }> }) => response.hits.map((h) => h.objectID);
const query = (extra: SearchParams = {}): SearchParams => ({ query: 'coffee', vector: at(0), hybrid: { semanticRatio: 0.5 }, ...extra });

describe('hybrid parameters', () => {
  it('are checked', () => {
    const idx = index();
    expect(() => idx.search({ vector: [1, 0, 0] })).toThrow(/expected 2 numbers, got 3/);
    expect(() => idx.search({ vector: [0, 0] })).toThrow(/zeros/);
    expect(() => idx.search({ vector: at(0), hybrid: { embedder: 'txt' } })).toThrow(/no embedder "txt"/);
    expect(() => idx.search({ vector: at(0), hybrid: { semanticRatio: 1.5 } })).toThrow(/semanticRatio/);
    expect(() => idx.search({ vector: at(0), hybrid: 'yes' as never })).toThrow(/hybrid/);
    expect(() => idx.search({ query: 'mug', hybrid: {} })).toThrow(/userProvided: send the query's vector/);
    expect(() => new SearchIndex({}).search({ vector: [1] })).toThrow(/no embedders/);
    const two = new SearchIndex({ embedders: { ...embedders, other: { source: 'userProvided' as const, dimensions: 2 } } });
    expect(() => two.search({ vector: at(0) })).toThrow(/name one of img, other/);
  });

  it('ratio 0 is the keyword search; no text and no vector is browsing', () => {
    const idx = index();
    const keywords = idx.search({ query: 'coffee' });
    expect(idx.search(query({ hybrid: { semanticRatio: 0 } }))).toEqual({ ...keywords, params: expect.any(String), processingTimeMS: expect.any(Number) });
    expect(ids(idx.search({ query: '', hybrid: { semanticRatio: 0.5 } }))).toEqual(ids(idx.search({ query: '' })));
  });

  it('a vector alone is a vector search', () => {
    const response = index().search({ vector: at(0), getRankingInfo: true });
    expect(ids(response)).toEqual(['v1', 'v2', 'v3', 'k2', 'k1']);
    expect(response.nbHits).toBe(5);
    expect(response.semanticHitCount).toBe(5);
    expect(response.hits[1]._rankingInfo).toMatchObject({ semanticRank: 2, hybridScore: 1 / 62 });
    expect(response.hits[1]._rankingInfo?.semanticScore).toBeCloseTo(0.9848, 4);
  });
});

describe('fusion', () => {
  it('orders by weighted reciprocal ranks, shown in _rankingInfo', () => {
    const response = index().search(query({ getRankingInfo: true }));
    // Keyword ranks: k1, k2, k3 (ties broken by id); vector ranks: v1, v2, v3, k2, k1.
    const expected = new Map<string, number>([
      ['k1', 0.5 / 61 + 0.5 / 65],
      ['k2', 0.5 / 62 + 0.5 / 64],
      ['k3', 0.5 / 63],
      ['v1', 0.5 / 61],
      ['v2', 0.5 / 62],
      ['v3', 0.5 / 63],
    ]);
    const order = [...expected].sort((a, b) => b[1] - a[1]).map(([id]) => id);
    // k3 and v3 tie at 0.5/63: the keyword hit goes first.
    expect(ids(response)).toEqual(order);
    expect(order.indexOf('k3')).toBe(order.indexOf('v3') - 1);
    for (const hit of response.hits) expect(hit._rankingInfo?.hybridScore, hit.objectID).toBeCloseTo(expected.get(hit.objectID)!, 12);
    const k2 = response.hits.find((h) => h.objectID === 'k2')!._rankingInfo!;
    expect(k2).toMatchObject({ keywordRank: 2, semanticRank: 4 });
    expect(response.hits.find((h) => h.objectID === 'k3')!._rankingInfo).not.toHaveProperty('semanticRank');
    expect(response.hits.find((h) => h.objectID === 'v1')!._rankingInfo).not.toHaveProperty('keywordRank');
    expect(response.nbHits).toBe(6);
    expect(response.semanticHitCount).toBe(5);
  });

  it('leans towards the list with the larger share', () => {
    const idx = index();
    // Keyword ranks k1 1, k2 2, k3 3; vector ranks v1 1, v2 2, v3 3, k2 4, k1 5.
    const keyword = new Map([['k1', 1], ['k2', 2], ['k3', 3]]);
    const vector = new Map([['v1', 1], ['v2', 2], ['v3', 3], ['k2', 4], ['k1', 5]]);
    for (const ratio of [0.1, 0.3, 0.7, 0.9, 1]) {
      const score = (id: string) => (keyword.has(id) ? (1 - ratio) / (60 + keyword.get(id)!) : 0) + (vector.has(id) ? ratio / (60 + vector.get(id)!) : 0);
      const members = ratio === 1 ? [...vector.keys()] : ['k1', 'k2', 'k3', 'v1', 'v2', 'v3'];
      const expected = members.sort((a, b) => score(b) - score(a) || (keyword.get(a) ?? 99) - (keyword.get(b) ?? 99));
      expect(ids(idx.search(query({ hybrid: { semanticRatio: ratio } }))), String(ratio)).toEqual(expected);
    }
    expect(ids(idx.search(query({ hybrid: { semanticRatio: 0.1 } }))).slice(0, 3)).toEqual(['k1', 'k2', 'k3']);
    expect(ids(idx.search(query({ hybrid: { semanticRatio: 0.9 } }))).slice(0, 4)).toEqual(['k2', 'k1', 'v1', 'v2']);
  });
});

describe('the merged set', () => {
  it('passes the filters, a forced one too', () => {
    const idx = index();
    expect(ids(idx.search(query({ filters: 'brand:acme' })))).toEqual(['k1', 'v2', 'k3']);
    expect(ids(idx.search(query({ facetFilters: [['brand:bolt', 'brand:cosy']] })))).toEqual(['k2', 'v1', 'v3']);
    const forced = buildFilterNode({ filters: 'NOT brand:bolt' })!;
    expect(ids(idx.search(query(), undefined, { extraFilter: forced }))).toEqual(['k1', 'v2', 'k3', 'v3']);
  });

  it('counts facets over every hit', () => {
    const response = index().search(query({ facets: ['brand'], filters: 'NOT group:g5' }));
    expect(response.nbHits).toBe(5);
    expect(response.facets).toEqual({ brand: { acme: 3, bolt: 2 } });
  });

  it('follows the rules: hidden records are not hits, pinned ones are placed', () => {
    const idx = index();
    idx.setRules([
      { objectID: 'r1', conditions: [{ pattern: 'coffee', anchoring: 'contains' }], consequence: { hide: [{ objectID: 'v1' }, { objectID: 'k1' }], promote: [{ objectID: 'v3', position: 0 }] } },
    ]);
    const response = idx.search(query({ getRankingInfo: true }));
    expect(ids(response)[0]).toBe('v3');
    expect(ids(response)).not.toContain('v1');
    expect(ids(response)).not.toContain('k1');
    expect(response.nbHits).toBe(4);
    expect(response.hits[0]._rankingInfo?.promoted).toBe(true);
  });

  it('keeps the best of each distinct group in the merged order', () => {
    const idx = new SearchIndex({ ...settings, attributeForDistinct: 'group' });
    idx.saveObjects(catalogue);
    // Merged order k1, k2, v1, v2, k3, v3; k1 and v1 share g1: v1 goes.
    expect(ids(idx.search(query()))).toEqual(['k1', 'k2', 'v1', 'v2', 'k3', 'v3']);
    const response = idx.search(query({ distinct: true }));
    expect(ids(response)).toEqual(['k1', 'k2', 'v2', 'k3', 'v3']);
    expect(response.nbHits).toBe(5);
  });

  it('stays a keyword search on a replica sorting by an attribute, merged on one ranking by relevance', () => {
    const idx = index();
    const byBrand = { ...settings, ranking: ['desc(brand)', 'typo', 'words', 'proximity', 'attribute', 'exact', 'custom'] };
    expect(ids(idx.search(query(), byBrand))).toEqual(ids(idx.search({ query: 'coffee' }, byBrand)));
    expect(idx.search(query(), byBrand).nbHits).toBe(3);
    const relevant = { ...settings, customRanking: ['desc(brand)'], relevancyStrictness: 50 };
    expect(ids(idx.search(query(), relevant))).toEqual(ids(idx.search({ query: 'coffee' }, relevant)));
    const replica = { ...settings, customRanking: ['desc(brand)'] };
    expect(idx.search(query(), replica).nbHits).toBe(6);
  });

  it('pages through the merged list', () => {
    const idx = index();
    const all = ids(idx.search(query({ hitsPerPage: 6 })));
    expect([0, 1, 2].flatMap((page) => ids(idx.search(query({ hitsPerPage: 2, page }))))).toEqual(all);
  });
});

describe('vector search (ratio 1) against a naive cosine', () => {
  const vector = fc.tuple(fc.integer({ min: -4, max: 4 }), fc.integer({ min: -4, max: 4 })).filter(([x, y]) => x !== 0 || y !== 0);
  const op = fc.oneof(
    fc.record({ kind: fc.constant('save' as const), id: fc.nat(7), vector: fc.option(vector), brand: fc.constantFrom('a', 'b', 'c') }),
    fc.record({ kind: fc.constant('delete' as const), id: fc.nat(7) }),
    fc.record({ kind: fc.constant('snapshot' as const) }),
  );

  it('answers the same through writes, deletions, compactions and snapshots', () => {
    let compactions = 0;
    fc.assert(
      fc.property(fc.array(op, { minLength: 30, maxLength: 80 }), vector, fc.constantFrom(null, 'a'), (ops, q, brand) => {
        let idx = new SearchIndex({ attributesForFaceting: ['brand'], embedders });
        const internals = (i: SearchIndex) => i as unknown as { compactionPolicy: object; compactions: number };
        const tiny = (i: SearchIndex) => Object.assign(internals(i).compactionPolicy, { minTombstones: 3, perWrite: 1, perSearch: 1 });
        tiny(idx);
        const model = new Map<string, { vector: number[] | null; brand: string }>();
        for (const o of ops) {
          if (o.kind === 'save') {
            idx.saveObjects([{ objectID: String(o.id), brand: o.brand, ...(o.vector === null ? {} : { _vectors: { img: o.vector } }) }]);
            model.set(String(o.id), { vector: o.vector, brand: o.brand });
          } else if (o.kind === 'delete') {
            idx.deleteObjects([String(o.id)]);
            model.delete(String(o.id));
          } else {
            compactions += internals(idx).compactions;
            idx = loadSnapshot(idx.saveSnapshot());
            tiny(idx);
          }
          idx.search({ query: '' });
        }
        compactions += internals(idx).compactions;
        const cos = (v: number[]) => (v[0] * q[0] + v[1] * q[1]) / (Math.hypot(v[0], v[1]) * Math.hypot(q[0], q[1]));
        const expected = [...model]
          .filter(([, r]) => r.vector !== null && (brand === null || r.brand === brand))
          .map(([id, r]) => ({ id, score: cos(r.vector!) }))
          .sort((a, b) => b.score - a.score);
        const response = idx.search({ vector: q, hitsPerPage: 50, getRankingInfo: true, ...(brand === null ? {} : { filters: `brand:${brand}` }) });
        expect(response.nbHits).toBe(expected.length);
        response.hits.forEach((hit, i) => {
          expect(hit._rankingInfo!.semanticScore).toBeCloseTo(expected[i].score, 6);
          expect(cos(model.get(hit.objectID)!.vector!)).toBeCloseTo(expected[i].score, 6);
        });
      }),
      { numRuns: 200 },
    );
    expect(compactions).toBeGreaterThan(50);
  });
});

describe('the result cache', () => {
  it('does not answer a hybrid search from before a vector changed', () => {
    const idx = index();
    expect(ids(idx.search(query({ hitsPerPage: 1 })))).toEqual(['k1']);
    expect(ids(idx.search(query({ hitsPerPage: 1 })))).toEqual(['k1']);
    expect(idx.resultCacheStats().entries).toBe(1);
    idx.saveObjects([{ ...catalogue[1], _vectors: { img: at(0) } }]);
    expect(ids(idx.search(query({ hitsPerPage: 1 })))).toEqual(['k2']);
  });

  it('keys a query vector given by the caller', () => {
    const idx = index();
    const params = { query: 'coffee', hybrid: { semanticRatio: 1 }, hitsPerPage: 1 };
    for (let i = 0; i < 2; i++) expect(ids(idx.search(params, undefined, { queryVector: at(0) }))).toEqual(['v1']);
    expect(ids(idx.search(params, undefined, { queryVector: at(80) }))).toEqual(['k1']);
  });
});
