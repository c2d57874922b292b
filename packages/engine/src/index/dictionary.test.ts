/**
 * Properties checked: the sorted view enumerates exactly the terms with a prefix (vs a filter over a Map), and
 * the fuzzy walk finds exactly the terms within the distance, with the right distance, for whole words and
 * as-you-type prefixes (vs a brute-force optimal-string-alignment distance), including after more terms arrive.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { TermDictionary } from './dictionary.ts';

function osa(a: string, b: string): number {
  const d: number[][] = [];
  for (let i = 0; i <= a.length; i++) d.push(Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

function prefixOsa(word: string, term: string): number {
  let best = Infinity;
  for (let k = 0; k <= term.length; k++) best = Math.min(best, osa(term.slice(0, k), word));
  return best;
}

const letters = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd', 'e'), minLength: 0, maxLength: 7 });
const nonEmpty = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd', 'e'), minLength: 1, maxLength: 7 });

function collect(dict: TermDictionary, word: string, distance: number, prefix: boolean): Map<string, number> {
  const found = new Map<string, number>();
  dict.fuzzy(word, distance, prefix, (id, d) => {
    expect(found.has(dict.terms[id])).toBe(false);
    found.set(dict.terms[id], d);
  });
  return found;
}

/** The terms within the distance, by brute force. */
function expected(terms: Set<string>, word: string, distance: number, prefix: boolean): Map<string, number> {
  const within = new Map<string, number>();
  for (const t of terms) {
    const d = prefix ? prefixOsa(word, t) : osa(t, word);
    if (d <= distance) within.set(t, d);
  }
  return within;
}

describe('TermDictionary', () => {
  it('interns terms with dense ids', () => {
    const dict = new TermDictionary();
    expect(dict.intern('shoe')).toBe(0);
    expect(dict.intern('boot')).toBe(1);
    expect(dict.intern('shoe')).toBe(0);
    expect(dict.idOf('boot')).toBe(1);
    expect(dict.idOf('sock')).toBeUndefined();
    expect(dict.size).toBe(2);
  });

  it('enumerates exactly the terms with a prefix', () => {
    fc.assert(
      fc.property(fc.array(nonEmpty, { maxLength: 40 }), fc.array(nonEmpty, { maxLength: 10 }), letters, (first, later, prefix) => {
        const dict = new TermDictionary();
        for (const t of first) dict.intern(t);
        dict.prefixRange('a'); // build the sorted view once, so `later` exercises the merge
        for (const t of later) dict.intern(t);
        const got: string[] = [];
        dict.forEachWithPrefix(prefix, (id) => got.push(dict.terms[id]));
        const expected = [...new Set([...first, ...later])].filter((t) => t.startsWith(prefix)).sort();
        expect(got).toEqual(expected);
      }),
    );
  });

  it('finds exactly the terms within the edit distance, with their distance', () => {
    fc.assert(
      fc.property(fc.array(nonEmpty, { maxLength: 40 }), nonEmpty, fc.integer({ min: 0, max: 2 }), fc.boolean(), (terms, word, distance, prefix) => {
        const dict = new TermDictionary();
        for (const t of terms) dict.intern(t);
        expect(collect(dict, word, distance, prefix)).toEqual(expected(new Set(terms), word, distance, prefix));
      }),
      { numRuns: 300 },
    );
  });

  it('finds them among terms added after a walk (the recent terms trie), batch after batch', () => {
    fc.assert(
      fc.property(fc.array(fc.array(nonEmpty, { maxLength: 15 }), { minLength: 1, maxLength: 4 }), nonEmpty, fc.integer({ min: 0, max: 2 }), fc.boolean(), (batches, word, distance, prefix) => {
        const dict = new TermDictionary();
        const seen = new Set<string>();
        for (const batch of batches) {
          for (const t of batch) {
            dict.intern(t);
            seen.add(t);
          }
          expect(collect(dict, word, distance, prefix)).toEqual(expected(seen, word, distance, prefix));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('stays exact across the rebuild of its trie as the dictionary grows by thousands of terms', () => {
    const dict = new TermDictionary();
    const seen = new Set<string>();
    let seed = 7;
    const letter = () => String.fromCharCode(97 + ((seed = (seed * 1103515245 + 12345) % 2147483648) % 6));
    for (let step = 0; step < 6; step++) {
      // 1,000 terms per step: the recent terms pass 2,048 at the third step, and a sixteenth of the trie later.
      for (let i = 0; i < 1000; i++) {
        const term = Array.from({ length: 3 + (i % 5) }, letter).join('');
        dict.intern(term);
        seen.add(term);
      }
      for (const word of ['abc', 'fedc', 'aabbc']) {
        expect(collect(dict, word, 1, true)).toEqual(expected(seen, word, 1, true));
        expect(collect(dict, word, 2, false)).toEqual(expected(seen, word, 2, false));
      }
    }
  });

  it('counts a swap of adjacent letters as one typo', () => {
    const dict = new TermDictionary();
    for (const t of ['phone', 'hpone', 'phoen', 'iphone']) dict.intern(t);
    expect(collect(dict, 'phone', 1, false)).toEqual(new Map([['phone', 0], ['hpone', 1], ['phoen', 1], ['iphone', 1]]));
  });
});
