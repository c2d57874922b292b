/**
 * Properties checked (sort-first rankings and replicas through `settingsOverride`):
 * - `asc(attr)` first in `ranking` (standard replica) sorts every hit by the attribute, relevance breaking ties,
 *   records without the attribute last;
 * - a virtual replica (override with customRanking + relevancyStrictness) sorts only the relevant hits and
 *   reports nbSortedHits and appliedRelevancyStrictness; strictness 0 sorts every hit.
 */
import { describe, expect, it } from 'vitest';
import { SearchIndex } from '../../search-index.ts';
import { ranked } from './fixture.ts';

const records = [
  { objectID: 's1', name: 'oak table', price: 300 }, // exact words, most expensive
  { objectID: 's2', name: 'oak tables', price: 100 }, // "table" only as a prefix of "tables"
  { objectID: 's3', name: 'oak table', price: 200 },
  { objectID: 's4', name: 'oak table' }, // no price: last when sorting by price
];
const settings = { searchableAttributes: ['name'], customRanking: ['desc(price)'] };

describe('sort-first ranking', () => {
  it('sorts by price first in a standard replica', () => {
    const replica = { ranking: ['asc(price)', 'typo', 'geo', 'words', 'filters', 'proximity', 'attribute', 'exact', 'custom'] };
    // Relevance alone would put s1, s3 (exact, by desc price) then s4, then s2 (prefix match).
    expect(ranked(records, settings, { query: 'oak table' })).toEqual(['s1', 's3', 's4', 's2']);
    expect(ranked(records, settings, { query: 'oak table' }, replica)).toEqual(['s2', 's3', 's1', 's4']);
    expect(ranked(records, { ...settings, ...replica }, { query: '' })).toEqual(['s2', 's3', 's1', 's4']);
  });

  it('keeps only the relevant hits in a virtual replica', () => {
    const index = new SearchIndex(settings);
    index.saveObjects(records);
    const strict = index.search({ query: 'oak table' }, { customRanking: ['asc(price)'], relevancyStrictness: 100 });
    // s2 matches "table" only as a prefix: less relevant, left out; the others are sorted by price.
    expect(strict.hits.map((h) => h.objectID)).toEqual(['s3', 's1', 's4']);
    expect(strict).toMatchObject({ nbHits: 4, nbSortedHits: 3, appliedRelevancyStrictness: 100 });
    const loose = index.search({ query: 'oak table', relevancyStrictness: 0 }, { customRanking: ['asc(price)'], relevancyStrictness: 100 });
    expect(loose.hits.map((h) => h.objectID)).toEqual(['s2', 's3', 's1', 's4']);
    expect(loose).toMatchObject({ nbHits: 4, nbSortedHits: 4, appliedRelevancyStrictness: 0 });
  });
});
