/**
 * Oracle property test: on random small catalogues and random queries, nbHits, the set of hits and every facet
 * count equal a brute-force scan that re-tokenises each record and applies the matching rules directly
 * (AND of words, last word as prefix, typos by optimal string alignment distance within the length limits,
 * a facet filter), including after random deletions and replacements.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SearchIndex } from '../search-index.ts';
import { terms } from '../tokenize/index.ts';

const VOCAB = ['red', 'read', 'bead', 'shoe', 'shoes', 'sock', 'socket', 'blue', 'glue', 'lamp', 'lamps', 'table', 'cable', 'stable', 'oak'];
const COLORS = ['Red', 'red', 'Blue', 'GREEN', 'green', 'Ünique'];

function osa(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

function wordMatches(token: string, word: string, prefix: boolean): boolean {
  const maxTypos = word.length >= 8 ? 2 : word.length >= 4 ? 1 : 0;
  if (!prefix) return osa(token, word) <= maxTypos;
  for (let k = 0; k <= token.length; k++) if (osa(token.slice(0, k), word) <= maxTypos) return true;
  return false;
}

const record = fc.record({
  name: fc.array(fc.constantFrom(...VOCAB), { minLength: 1, maxLength: 4 }).map((w) => w.join(' ')),
  color: fc.constantFrom(...COLORS),
  tags: fc.array(fc.constantFrom(...VOCAB), { maxLength: 2 }),
});
const queryWord = fc.oneof(fc.constantFrom(...VOCAB), fc.constantFrom(...VOCAB).map((w) => w.slice(0, Math.max(1, w.length - 2))), fc.constantFrom('rde', 'shoo', 'tabel', 'lmap'));

describe('search vs brute force', () => {
  it('nbHits, hits and facet counts match a scan', () => {
    fc.assert(
      fc.property(
        fc.array(record, { minLength: 1, maxLength: 30 }),
        fc.array(fc.nat(40), { maxLength: 6 }),
        fc.array(queryWord, { maxLength: 3 }),
        fc.option(fc.constantFrom('red', 'green', 'blue', 'unique')),
        (records, deletions, words, color) => {
          const index = new SearchIndex({ searchableAttributes: ['name', 'tags'], attributesForFaceting: ['color', 'tags'] });
          const stored = records.map((r, i) => ({ objectID: String(i), ...r }));
          index.saveObjects(stored);
          // Replace one record and delete some, so tombstones and re-added ids are exercised.
          const live = new Map(stored.map((r) => [r.objectID, r]));
          if (stored.length > 1) {
            const replaced = { ...stored[1], name: 'oak lamp' };
            index.saveObjects([replaced]);
            live.set(replaced.objectID, replaced);
          }
          const gone = deletions.map(String);
          index.deleteObjects(gone);
          for (const id of gone) live.delete(id);

          const query = words.join(' ');
          const response = index.search({ query, hitsPerPage: 1000, facets: ['color', 'tags'], ...(color ? { filters: `color:${color}` } : {}) });
          const expected = [...live.values()].filter((r) => {
            if (color && r.color.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase() !== color) return false;
            const tokens = [...terms(r.name), ...r.tags.flatMap((t) => terms(t))];
            return words.every((w, i) => tokens.some((t) => wordMatches(t, w, i === words.length - 1)));
          });
          expect(response.nbHits).toBe(expected.length);
          expect(response.hits.map((h) => h.objectID).sort()).toEqual(expected.map((r) => r.objectID).sort());
          const colorCounts = new Map<string, number>();
          for (const r of expected) colorCounts.set(r.color.toLowerCase(), (colorCounts.get(r.color.toLowerCase()) ?? 0) + 1);
          const got = Object.entries(response.facets!.color ?? {}).map(([k, v]) => [k.toLowerCase(), v]);
          expect(new Map(got as Array<[string, number]>)).toEqual(colorCounts);
          const tagCounts = new Map<string, number>();
          for (const r of expected) for (const t of new Set(r.tags)) tagCounts.set(t, (tagCounts.get(t) ?? 0) + 1);
          expect(new Map(Object.entries(response.facets!.tags ?? {}))).toEqual(tagCounts);
        },
      ),
      { numRuns: 150 },
    );
  });
});
