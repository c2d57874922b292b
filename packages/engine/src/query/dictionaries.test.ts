/**
 * Dictionaries change results: standard stop words of other languages, custom stop words, a standard one
 * disabled by a custom entry or a whole language's standard entries turned off; custom plural groups in any
 * language; compounds split by decompoundQuery; the languages each parameter applies to.
 */
import type { DictionaryEntry } from '@vitrine/protocol';
import { describe, expect, it } from 'vitest';
import { SearchIndex } from '../search-index.ts';
import { Dictionaries, emptyDictionaryState, languagesFor, type DictionaryState } from './dictionaries.ts';

function shop(records: Array<Record<string, unknown>>, state?: Partial<DictionaryState['entries']>, settings: DictionaryState['settings'] = {}): SearchIndex {
  const index = new SearchIndex({ searchableAttributes: ['name'] });
  index.saveObjects(records.map((record, i) => ({ objectID: String(i + 1), ...record })));
  if (state) index.setDictionaries(new Dictionaries({ entries: { ...emptyDictionaryState().entries, ...state }, settings }));
  return index;
}

const ids = (index: SearchIndex, params: Record<string, unknown>): string[] => index.search({ hitsPerPage: 10, ...params }).hits.map((hit) => hit.objectID).sort();
const entry = (fields: Partial<DictionaryEntry>): DictionaryEntry => ({ objectID: `${fields.language}-${fields.word ?? fields.words?.join('-')}`, ...fields });

describe('stop words', () => {
  const french = [{ name: 'lampe de bureau' }, { name: 'lampe bureau' }];

  it('removes the standard stop words of the query languages', () => {
    expect(ids(shop(french), { query: 'lampe de bureau ' })).toEqual(['1']);
    expect(ids(shop(french), { query: 'lampe de bureau ', removeStopWords: true, queryLanguages: ['fr'] })).toEqual(['1', '2']);
    expect(ids(shop(french), { query: 'lampe de bureau ', removeStopWords: ['fr'] })).toEqual(['1', '2']);
    // English stop words are not French ones.
    expect(ids(shop(french), { query: 'lampe de bureau ', removeStopWords: ['en'] })).toEqual(['1']);
  });

  it('adds custom stop words and takes out a standard one disabled by a custom entry', () => {
    const records = [{ name: 'acme lamp' }, { name: 'lamp' }, { name: 'the lamp' }];
    const custom = shop(records, { stopwords: [entry({ language: 'en', word: 'acme', state: 'enabled' }), entry({ language: 'en', word: 'the', state: 'disabled' })] });
    expect(ids(custom, { query: 'acme lamp ', removeStopWords: true })).toEqual(['1', '2', '3']);
    expect(ids(custom, { query: 'the lamp ', removeStopWords: true })).toEqual(['3']);
    expect(ids(shop(records), { query: 'the lamp ', removeStopWords: true })).toEqual(['1', '2', '3']);
  });

  it("turns a language's standard entries off, custom ones staying", () => {
    const records = [{ name: 'the lamp' }, { name: 'lamp' }];
    const off = shop(records, { stopwords: [] }, { disableStandardEntries: { stopwords: { en: true } } });
    expect(ids(off, { query: 'the lamp ', removeStopWords: true })).toEqual(['1']);
  });
});

describe('plurals', () => {
  it('counts the words of a custom plural group as one another, in any language', () => {
    const records = [{ name: 'cheval blanc' }, { name: 'chevaux blancs' }];
    const custom = shop(records, { plurals: [entry({ language: 'fr', words: ['cheval', 'chevaux'] })] });
    expect(ids(custom, { query: 'cheval ' })).toEqual(['1']);
    expect(ids(custom, { query: 'cheval ', ignorePlurals: ['fr'] })).toEqual(['1', '2']);
    expect(ids(custom, { query: 'chevaux ', ignorePlurals: true, queryLanguages: ['fr'] })).toEqual(['1', '2']);
    // English rules do not know this group.
    expect(ids(custom, { query: 'cheval ', ignorePlurals: ['en'] })).toEqual(['1']);
  });

  it("turns the English rules off with disableStandardEntries", () => {
    const records = [{ name: 'lamp' }, { name: 'lamps' }];
    // Without typos, "lamps" is found only as a plural.
    expect(ids(shop(records), { query: 'lamp ', ignorePlurals: true, typoTolerance: false })).toEqual(['1', '2']);
    const off = shop(records, { plurals: [] }, { disableStandardEntries: { plurals: { en: true } } });
    expect(ids(off, { query: 'lamp ', ignorePlurals: true, typoTolerance: false })).toEqual(['1']);
  });
});

describe('compounds', () => {
  const records = [{ name: 'kopfschmerztablette' }, { name: 'tablette gegen kopf schmerz' }, { name: 'kopf' }];
  const compounds = { compounds: [entry({ language: 'de', word: 'Kopfschmerztablette', decomposition: ['kopf', 'schmerz', 'tablette'] })] };

  it('splits a compound of a query language into its parts, each also matching the compound', () => {
    const index = shop(records, compounds);
    expect(ids(index, { query: 'kopfschmerztablette ', queryLanguages: ['de'] })).toEqual(['1', '2']);
    expect(ids(index, { query: 'kopfschmerztablette ', queryLanguages: ['de'], decompoundQuery: false })).toEqual(['1']);
    // Not a compound language of the query: left whole.
    expect(ids(index, { query: 'kopfschmerztablette ', queryLanguages: ['en'] })).toEqual(['1']);
  });

  it('leaves the word being typed whole', () => {
    expect(ids(shop(records, compounds), { query: 'kopfschmerztablette', queryLanguages: ['de'] })).toEqual(['1']);
  });
});

describe('languagesFor', () => {
  it('reads true as the query languages, else the index languages, else English; a list as itself', () => {
    expect(languagesFor(true, ['fr'], ['de'])).toEqual(['fr']);
    expect(languagesFor(true, [], ['de'])).toEqual(['de']);
    expect(languagesFor(true, undefined, undefined)).toEqual(['en']);
    expect(languagesFor(['es', 'it'], ['fr'], undefined)).toEqual(['es', 'it']);
    expect(languagesFor(false, ['fr'], undefined)).toEqual([]);
  });

  it('lists the languages with standard or custom entries, counting custom ones', () => {
    const dictionaries = new Dictionaries({ ...emptyDictionaryState(), entries: { ...emptyDictionaryState().entries, plurals: [entry({ language: 'fr', words: ['oeil', 'yeux'] })] } });
    const languages = dictionaries.languages();
    expect(languages.en).toEqual({ stopwords: { nbCustomEntries: 0 }, plurals: { nbCustomEntries: 0 }, compounds: null });
    expect(languages.fr).toEqual({ stopwords: { nbCustomEntries: 0 }, plurals: { nbCustomEntries: 1 }, compounds: null });
    expect(languages.de.compounds).toEqual({ nbCustomEntries: 0 });
  });
});
