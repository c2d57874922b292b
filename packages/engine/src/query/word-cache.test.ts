/**
 * The word cache survives writes: an expansion cached before documents were appended is extended by those
 * documents (new terms included) rather than rebuilt. Oracle: after any interleaving of writes and repeated
 * queries, every answer equals that of an index freshly built from the same records.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { IndexRecord } from '@vitrine/protocol';
import { SearchIndex } from '../search-index.ts';

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
