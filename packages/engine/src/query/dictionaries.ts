/**
 * The application's dictionaries — stop words, plurals, compounds — per language, as the query stage reads
 * them: standard entries (our English stop words and plural rules, other languages' stop words from the
 * `stopword` package) turned off per language by the settings, plus custom entries, which add words or, with
 * `state: "disabled"`, take one standard word out.
 *
 * Immutable: the server builds a new one for each change and gives it to every index (`setDictionaries`), which
 * drops the caches that depended on the previous one.
 */
import type { DictionaryEntry, DictionaryLanguages, DictionaryName, DictionarySettings } from '@vitrine/protocol';
import { normalizeText } from '../tokenize/normalize.ts';
import { englishForms } from './plurals.ts';
import { standardStopWords, STOP_WORD_LANGUAGES } from './standard-stop-words.ts';

export const DICTIONARY_NAMES: readonly DictionaryName[] = ['stopwords', 'plurals', 'compounds'];

/** Languages whose plurals have standard entries (rules) here. */
const PLURAL_LANGUAGES = new Set(['en']);
/** Languages Algolia decompounds; no standard compounds here, custom entries only. */
export const COMPOUND_LANGUAGES: ReadonlySet<string> = new Set(['de', 'nl', 'fi', 'da', 'sv', 'no', 'nb']);

export interface DictionaryState {
  entries: Record<DictionaryName, DictionaryEntry[]>;
  settings: DictionarySettings;
}

export function emptyDictionaryState(): DictionaryState {
  return { entries: { stopwords: [], plurals: [], compounds: [] }, settings: { disableStandardEntries: {} } };
}

interface LanguageTables {
  /** Custom stop words added, and standard ones disabled. */
  addedStopWords: Set<string>;
  disabledStopWords: Set<string>;
  /** word → the other forms of its custom plural groups. */
  plurals: Map<string, Set<string>>;
  /** compound word → its parts. */
  compounds: Map<string, string[]>;
}

export class Dictionaries {
  private readonly tables = new Map<string, LanguageTables>();
  private readonly stopWordCache = new Map<string, ReadonlySet<string>>();

  constructor(readonly state: DictionaryState = emptyDictionaryState()) {
    for (const entry of state.entries.stopwords) {
      const word = entry.word === undefined ? '' : normalizeText(entry.word);
      if (!entry.language || word === '') continue;
      const tables = this.tablesOf(entry.language);
      (entry.state === 'disabled' ? tables.disabledStopWords : tables.addedStopWords).add(word);
    }
    for (const entry of state.entries.plurals) {
      if (!entry.language || entry.state === 'disabled') continue;
      const words = (entry.words ?? []).map(normalizeText).filter((word) => word !== '');
      const plurals = this.tablesOf(entry.language).plurals;
      for (const word of words) {
        const forms = plurals.get(word) ?? new Set<string>();
        for (const other of words) if (other !== word) forms.add(other);
        plurals.set(word, forms);
      }
    }
    for (const entry of state.entries.compounds) {
      if (!entry.language || entry.state === 'disabled' || entry.word === undefined) continue;
      const parts = (entry.decomposition ?? []).map(normalizeText).filter((part) => part !== '');
      if (parts.length > 1) this.tablesOf(entry.language).compounds.set(normalizeText(entry.word), parts);
    }
  }

  /** Whether the standard entries of a dictionary are on for a language. */
  standardEnabled(dictionary: DictionaryName, language: string): boolean {
    return this.state.settings.disableStandardEntries?.[dictionary]?.[language] !== true;
  }

  /** The stop words of the languages, standard and custom, minus the disabled ones. */
  stopWords(languages: readonly string[]): ReadonlySet<string> {
    const key = languages.join(',');
    let words = this.stopWordCache.get(key);
    if (words === undefined) {
      const set = new Set<string>();
      for (const language of languages) {
        const tables = this.tables.get(language);
        if (this.standardEnabled('stopwords', language)) {
          for (const word of standardStopWords(language)) if (!tables?.disabledStopWords.has(word)) set.add(word);
        }
        for (const word of tables?.addedStopWords ?? []) set.add(word);
      }
      words = set;
      this.stopWordCache.set(key, words);
    }
    return words;
  }

  /** Other forms of `term` in the languages: English rules (unless disabled) and custom plural groups. */
  pluralForms(term: string, languages: readonly string[]): string[] {
    const forms = new Set<string>();
    for (const language of languages) {
      if (language === 'en' && this.standardEnabled('plurals', 'en')) for (const form of englishForms(term)) forms.add(form);
      for (const form of this.tables.get(language)?.plurals.get(term) ?? []) forms.add(form);
    }
    forms.delete(term);
    return [...forms];
  }

  /** The parts of a compound word in the first of the languages that knows it, or null. */
  decomposition(term: string, languages: readonly string[]): string[] | null {
    for (const language of languages) {
      const parts = this.tables.get(language)?.compounds.get(term);
      if (parts) return parts;
    }
    return null;
  }

  /** `GET /1/dictionaries/*\/languages`: every language with standard or custom entries. */
  languages(): DictionaryLanguages {
    const result: DictionaryLanguages = {};
    const codes = new Set([...STOP_WORD_LANGUAGES, ...PLURAL_LANGUAGES, ...COMPOUND_LANGUAGES, ...this.tables.keys()]);
    const count = (dictionary: DictionaryName, language: string) =>
      this.state.entries[dictionary].filter((entry) => entry.language === language).length;
    for (const language of [...codes].sort()) {
      const supports = (dictionary: DictionaryName, standard: boolean) =>
        standard || count(dictionary, language) > 0 ? { nbCustomEntries: count(dictionary, language) } : null;
      result[language] = {
        stopwords: supports('stopwords', STOP_WORD_LANGUAGES.has(language)),
        plurals: supports('plurals', PLURAL_LANGUAGES.has(language)),
        compounds: supports('compounds', COMPOUND_LANGUAGES.has(language)),
      };
    }
    return result;
  }

  private tablesOf(language: string): LanguageTables {
    let tables = this.tables.get(language);
    if (tables === undefined) {
      tables = { addedStopWords: new Set(), disabledStopWords: new Set(), plurals: new Map(), compounds: new Map() };
      this.tables.set(language, tables);
    }
    return tables;
  }
}

/**
 * The languages a language-dependent parameter (`removeStopWords`, `ignorePlurals`) applies to: `true` means
 * the query's languages, else the index's, else English (Algolia would use every language it knows, which
 * turns words of one language into stop words of another: `queryLanguages` is its own advice); a list names
 * them; anything else, none.
 */
export function languagesFor(value: unknown, queryLanguages: unknown, indexLanguages: unknown): string[] {
  if (Array.isArray(value)) return value.filter((language): language is string => typeof language === 'string');
  if (value !== true && value !== 'true') return [];
  for (const list of [queryLanguages, indexLanguages]) {
    if (Array.isArray(list) && list.length > 0) return list.filter((language): language is string => typeof language === 'string');
  }
  return ['en'];
}
