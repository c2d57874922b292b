/**
 * Query semantics through the public API: queryType (prefixLast / prefixAll / prefixNone), AND of words,
 * ignorePlurals, synonyms (regular, one-way, multi-word), removeWordsIfNoResults, advancedSyntax (phrases,
 * exclusions), separatorsToIndex, numbers as words, diacritics and case, nested attributes and arrays.
 */
import { describe, expect, it } from 'vitest';
import type { IndexSettings, SearchParams, SynonymHit } from '@vitrine/protocol';
import { SearchIndex } from '../search-index.ts';
import { EngineError } from '../errors.ts';
import { MAX_TYPO_WORDS } from './match.ts';
import { MAX_QUERY_WORDS } from './parse.ts';

function search(records: Array<Record<string, unknown>>, params: SearchParams, settings: IndexSettings = {}, synonyms: SynonymHit[] = []): string[] {
  const index = new SearchIndex(settings);
  index.saveObjects(records.map((r, i) => ({ objectID: `r${i + 1}`, ...r })));
  index.setSynonyms(synonyms);
  return index.search({ hitsPerPage: 100, ...params }).hits.map((h) => h.objectID);
}

describe('words and prefixes', () => {
  const records = [{ name: 'wireless charger' }, { name: 'wired charger' }, { name: 'wireless mouse' }];

  it('ANDs the words and treats the last one as a prefix', () => {
    expect(search(records, { query: 'wireless cha' })).toEqual(['r1']);
    expect(search(records, { query: 'wire' }).sort()).toEqual(['r1', 'r2', 'r3']);
    // A trailing space ends the word: "wire " is no longer a prefix (and "wire" has no 1-typo neighbour here).
    expect(search(records, { query: 'wire ', typoTolerance: false })).toEqual([]);
  });

  it('honours queryType', () => {
    expect(search(records, { query: 'wirel cha', queryType: 'prefixLast', typoTolerance: false })).toEqual([]);
    expect(search(records, { query: 'wirel cha', queryType: 'prefixAll', typoTolerance: false })).toEqual(['r1']);
    expect(search(records, { query: 'wireless cha', queryType: 'prefixNone', typoTolerance: false })).toEqual([]);
  });

  it('folds case and diacritics, and indexes numbers and nested values', () => {
    const rich = [
      { name: 'Crème Brûlée', specs: { size: 42, tags: ['Été', 'sale'] } },
      { name: 'CREME fraiche', specs: { size: 7 } },
    ];
    expect(search(rich, { query: 'creme' })).toEqual(['r1', 'r2']);
    expect(search(rich, { query: 'BRULEE' })).toEqual(['r1']);
    expect(search(rich, { query: '42' })).toEqual(['r1']);
    expect(search(rich, { query: 'ete' }, { searchableAttributes: ['specs.tags'] })).toEqual(['r1']);
    expect(search(rich, { query: 'creme' }, { searchableAttributes: ['specs'] })).toEqual([]);
  });

  it('keeps separatorsToIndex characters inside words', () => {
    const code = [{ name: 'c++ primer' }, { name: 'c primer' }];
    expect(search(code, { query: 'c++' }, { separatorsToIndex: '+' })).toEqual(['r1']);
    expect(search(code, { query: 'c++', typoTolerance: false }).sort()).toEqual(['r1', 'r2']);
  });

  it(`searches a query's first ${MAX_QUERY_WORDS} words and ignores the rest`, () => {
    const filler = Array.from({ length: MAX_QUERY_WORDS - 1 }, () => 'charger');
    // The word after the cap would match nothing: ignored, it does not empty the results.
    expect(search(records, { query: [...filler, 'wireless', 'nothing'].join(' ') })).toEqual(['r1']);
    // The last word within the cap still counts.
    expect(search(records, { query: [...filler, 'nothing'].join(' ') })).toEqual([]);
    // Exclusions past as many are ignored too.
    const exclusions = Array.from({ length: MAX_QUERY_WORDS }, (_, i) => `-x${i}`).join(' ');
    expect(search(records, { query: `wireless ${exclusions} -mouse`, advancedSyntax: true })).toEqual(['r1', 'r3']);
  });

  it(`allows typos in a query's first ${MAX_TYPO_WORDS} words only`, () => {
    const filler = Array.from({ length: MAX_TYPO_WORDS - 1 }, () => 'charger');
    expect(search(records, { query: [...filler, 'wirelss', 'charger'].join(' ') })).toEqual(['r1']);
    expect(search(records, { query: [...filler, 'charger', 'wirelss', 'charger'].join(' ') })).toEqual([]);
    expect(search(records, { query: [...filler, 'charger', 'wireless', 'charger'].join(' ') })).toEqual(['r1']);
  });
});

describe('plurals and synonyms', () => {
  it('matches other English forms with ignorePlurals', () => {
    const records = [{ name: 'leather boots' }, { name: 'leather boot' }, { name: 'batteries' }];
    expect(search(records, { query: 'boot', queryType: 'prefixNone', typoTolerance: false })).toEqual(['r2']);
    expect(search(records, { query: 'boot', queryType: 'prefixNone', typoTolerance: false, ignorePlurals: true })).toEqual(['r1', 'r2']);
    expect(search(records, { query: 'battery', queryType: 'prefixNone' }, { ignorePlurals: true })).toEqual(['r3']);
    expect(search(records, { query: 'battery', queryType: 'prefixNone' }, { ignorePlurals: ['fr'] })).toEqual([]);
  });

  it('applies regular, one-way and multi-word synonyms', () => {
    const records = [{ name: 'smartphone case' }, { name: 'mobile case' }, { name: 'tv stand' }, { name: 'television stand' }];
    const synonyms: SynonymHit[] = [
      { objectID: 's1', type: 'synonym', synonyms: ['smartphone', 'mobile'] },
      { objectID: 's2', type: 'onewaysynonym', input: 'tv', synonyms: ['television'] },
      { objectID: 's3', type: 'synonym', synonyms: ['flat screen', 'tv'] },
    ];
    const opts = { queryType: 'prefixNone' as const, typoTolerance: false };
    expect(search(records, { query: 'mobile', ...opts }, {}, synonyms)).toEqual(['r1', 'r2']);
    expect(search(records, { query: 'smartphone', ...opts }, {}, synonyms)).toEqual(['r1', 'r2']);
    expect(search(records, { query: 'tv', ...opts }, {}, synonyms)).toEqual(['r3', 'r4']);
    // One-way: "television" does not bring "tv".
    expect(search(records, { query: 'television', ...opts }, {}, synonyms)).toEqual(['r4']);
    expect(search(records, { query: 'flat screen', ...opts }, {}, synonyms)).toEqual(['r3']);
    expect(search(records, { query: 'mobile', ...opts, synonyms: false }, {}, synonyms)).toEqual(['r2']);
  });

  it('rejects malformed synonyms', () => {
    const index = new SearchIndex();
    expect(() => index.setSynonyms([{ objectID: 'x', type: 'onewaysynonym', synonyms: ['a'] }])).toThrow(EngineError);
    expect(() => index.setSynonyms([{ objectID: 'x', type: 'weird' as never }])).toThrow(EngineError);
  });
});

describe('removeWordsIfNoResults', () => {
  const records = [{ name: 'red shoe' }, { name: 'blue shoe' }, { name: 'red hat' }];
  const params = { query: 'red shoe purple', typoTolerance: false, queryType: 'prefixNone' as const };

  it('returns nothing by default when a word matches nothing', () => {
    expect(search(records, params)).toEqual([]);
  });

  it('drops words from the end, the start, or makes all optional', () => {
    expect(search(records, { ...params, removeWordsIfNoResults: 'lastWords' })).toEqual(['r1']);
    expect(search(records, { ...params, removeWordsIfNoResults: 'firstWords' })).toEqual([]);
    expect(search(records, { query: 'purple red shoe', typoTolerance: false, removeWordsIfNoResults: 'firstWords' })).toEqual(['r1']);
    // allOptional: r1 has two words; r2 and r3 one each, and r3's "red" sits at position 0 (attribute criterion).
    expect(search(records, { ...params, removeWordsIfNoResults: 'allOptional' })).toEqual(['r1', 'r3', 'r2']);
  });
});

describe('advancedSyntax', () => {
  const records = [{ name: 'black leather jacket' }, { name: 'leather black jacket' }, { name: 'black denim jacket' }];

  it('matches quoted phrases as consecutive words', () => {
    expect(search(records, { query: '"black leather"', advancedSyntax: true })).toEqual(['r1']);
    expect(search(records, { query: '"black leather"' }).sort()).toEqual(['r1', 'r2']);
    expect(search(records, { query: '"black leather"', advancedSyntax: true, advancedSyntaxFeatures: ['excludeWords'] }).sort()).toEqual(['r1', 'r2']);
  });

  it('excludes -words', () => {
    expect(search(records, { query: 'jacket -leather', advancedSyntax: true })).toEqual(['r3']);
    // Without the excludeWords feature the dash is just a separator: "leather" is an ordinary word.
    expect(search(records, { query: 'jacket -leather', advancedSyntax: true, advancedSyntaxFeatures: ['exactPhrase'] })).toEqual(['r1', 'r2']);
  });
});
