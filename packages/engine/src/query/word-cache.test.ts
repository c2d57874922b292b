/**
 * The word cache survives writes: an expansion cached before documents were appended is extended by those
 * documents (new terms included) rather than rebuilt. Oracle: after any interleaving of writes and repeated
 * queries, every answer equals that of an index freshly built from the same records.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { IndexRecord } from '@vitrine/protocol';
import { SearchIndex } from '../search-index.ts';
import type { TextIndex } from '../index/text-index.ts';
import type { ExpandedWord } from './expand.ts';
import { DEFAULT_WORD_CACHE_BYTES, WordCache } from './match.ts';

// Few queries, so that the same cached expansions are reused across writes; words that appear only later
// (shoebox, shoelace) join a cached prefix expansion; `table`/`cable`, `shoe`/`shoo` are one typo apart.
const WORDS = ['shoe', 'shoes', 'shoebox', 'shoelace', 'table', 'cable', 'red', 'read'];
const QUERIES = ['sho', 'shoe', 'table', 'red sh', 'cable', 'shoo'];

const record = fc.record({
  objectID: fc.integer({ min: 0, max: 12 }).map(String),
  name: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }).map((words) => words.join(' ')),
});

type Step = { kind: 'save'; records: IndexRecord[] } | { kind: 'delete'; id: string } | { kind: 'search'; query: string };
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.array(record, { minLength: 1, maxLength: 4 }).map((records): Step => ({ kind: 'save', records })),
  fc.integer({ min: 0, max: 12 }).map((id): Step => ({ kind: 'delete', id: String(id) })),
  fc.constantFrom(...QUERIES).map((query): Step => ({ kind: 'search', query })),
);

const settings = { searchableAttributes: ['name'] };

function answer(index: SearchIndex, query: string): unknown {
  const response = index.search({ query, hitsPerPage: 50, getRankingInfo: true });
  return { nbHits: response.nbHits, hits: response.hits.map((hit) => [hit.objectID, hit._rankingInfo?.nbTypos]) };
}

describe('word cache across writes', () => {
  it('answers like a freshly built index after writes', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 40 }), (steps) => {
        const index = new SearchIndex(settings);
        const records = new Map<string, IndexRecord>();
        for (const s of steps) {
          if (s.kind === 'save') {
            index.saveObjects(s.records);
            // A replaced record goes last, as its new internal id does (the final tie-break is insertion order);
            // one whose indexed attributes are unchanged (here: the same name) is replaced in place and stays put.
            for (const r of s.records) {
              if (records.get(r.objectID)?.name !== r.name) records.delete(r.objectID);
              records.set(r.objectID, r);
            }
          } else if (s.kind === 'delete') {
            index.deleteObjects([s.id]);
            records.delete(s.id);
          } else {
            const fresh = new SearchIndex(settings);
            fresh.saveObjects([...records.values()]);
            expect(answer(index, s.query)).toEqual(answer(fresh, s.query));
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('finds a word first written after its prefix was cached', () => {
    const index = new SearchIndex(settings);
    index.saveObjects([{ objectID: '1', name: 'red shoe' }]);
    expect(index.search({ query: 'sho' }).nbHits).toBe(1);
    index.saveObjects([{ objectID: '2', name: 'shoebox' }, { objectID: '3', name: 'table' }]);
    expect(index.search({ query: 'sho' }).hits.map((hit) => hit.objectID).sort()).toEqual(['1', '2']);
  });
});

describe('word cache budget', () => {
  const text = { documentCount: 10 } as TextIndex;
  /** A stand-in expansion of `bytes` bytes that records its retirement. */
  function entry(bytes: number, retired: Set<string>, key: string): ExpandedWord {
    return { text, documents: 10, bytes: () => bytes, retire: () => retired.add(key) } as unknown as ExpandedWord;
  }
  function fill(cache: WordCache, count: number, bytes: number, retired: Set<string>): void {
    for (let i = 0; i < count; i++) cache.get(text, `w${i}`, () => entry(bytes, retired, `w${i}`));
  }

  it('keeps every entry within the budget', () => {
    const retired = new Set<string>();
    const cache = new WordCache();
    fill(cache, 2000, 16 << 10, retired);
    cache.trim();
    expect(cache.size).toBe(2000);
    expect(retired.size).toBe(0);
  });

  it('drops the least recently used past the budget, once the search has ended', () => {
    const retired = new Set<string>();
    const cache = new WordCache();
    const bytes = 100 << 10;
    fill(cache, 1000, bytes, retired);
    // Nothing is dropped while a search may still use its words.
    expect(cache.size).toBe(1000);
    // The oldest entry used again becomes the newest.
    cache.get(text, 'w0', () => {
      throw new Error('w0 is cached');
    });
    cache.trim();
    const kept = Math.floor(DEFAULT_WORD_CACHE_BYTES / bytes);
    expect(cache.size).toBe(kept);
    expect(retired.has('w0')).toBe(false);
    expect(retired.has('w1')).toBe(true);
    expect(retired.has(`w${1000 - kept + 1}`)).toBe(false);
    expect(retired.size).toBe(1000 - kept);
  });

  it('keeps the most recent 128 entries whatever their size', () => {
    const retired = new Set<string>();
    const cache = new WordCache(1 << 20);
    fill(cache, 300, 1 << 20, retired);
    cache.trim();
    expect(cache.size).toBe(128);
    expect(retired.has('w171')).toBe(true);
    expect(retired.has('w172')).toBe(false);
  });

  it('answers the same with a budget that keeps almost nothing', () => {
    const records = Array.from({ length: 60 }, (_, i) => ({ objectID: String(i), name: `${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]} item${i}` }));
    const roomy = new SearchIndex(settings);
    const tight = new SearchIndex(settings);
    roomy.saveObjects(records);
    tight.saveObjects(records);
    (tight as unknown as { words: WordCache }).words = new WordCache(0);
    // More distinct words than the floor keeps, asked twice: the second round meets dropped and kept entries.
    const queries = [...QUERIES, ...Array.from({ length: 150 }, (_, i) => `item${i % 60} ${WORDS[i % WORDS.length].slice(0, 3)}`)];
    for (let round = 0; round < 2; round++) {
      for (const query of queries) expect(answer(tight, query)).toEqual(answer(roomy, query));
    }
  });
});
