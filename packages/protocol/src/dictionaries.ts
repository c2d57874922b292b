/**
 * Dictionaries (`/1/dictionaries/...`): the application's stop words, plurals and compounds, per language.
 * Standard entries come with the engine; custom entries are added, or disable a standard one (`state`).
 */

export type DictionaryName = 'stopwords' | 'plurals' | 'compounds';

export type DictionaryEntryState = 'enabled' | 'disabled';
export type DictionaryEntryType = 'custom' | 'standard';

export interface DictionaryEntry {
  objectID: string;
  /** ISO 639-1 code (`en`, `de`, …). */
  language?: string;
  /** `stopwords` and `compounds`: the word. */
  word?: string;
  /** `plurals`: the forms that count as one another. */
  words?: string[];
  /** `compounds`: the parts `word` splits into. */
  decomposition?: string[];
  state?: DictionaryEntryState;
  type?: DictionaryEntryType;
}

export interface DictionaryBatchRequest {
  action: 'addEntry' | 'deleteEntry';
  body: DictionaryEntry | { objectID: string };
}

export interface BatchDictionaryEntriesParams {
  clearExistingDictionaryEntries?: boolean;
  requests: DictionaryBatchRequest[];
}

export interface SearchDictionaryEntriesParams {
  query: string;
  page?: number;
  hitsPerPage?: number;
  language?: string;
}

export interface SearchDictionaryEntriesResponse {
  hits: DictionaryEntry[];
  page: number;
  nbHits: number;
  nbPages: number;
}

/** Which standard entries are turned off, per dictionary and language. */
export interface DictionarySettings {
  disableStandardEntries?: { [dictionary in DictionaryName]?: Record<string, boolean> | null } | null;
}

/** `GET /1/dictionaries/*\/languages`: per language, the custom entries of each dictionary (null: unsupported). */
export type DictionaryLanguages = Record<string, { [dictionary in DictionaryName]: { nbCustomEntries: number } | null }>;
