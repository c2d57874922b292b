/**
 * Dictionary routes (`/1/dictionaries/...`): the application's stop words, plurals and compounds. Writes are
 * tasks like every other write (durable, `getTask` / `waitForAppTask` see them) and change every index's
 * searches once published. ACLs as Algolia's spec: `editSettings` to write, `settings` to read; a write needs a
 * key allowed on every index, as it changes them all.
 */
import type { FastifyInstance } from 'fastify';
import { standardStopWords, STOP_WORD_LANGUAGES } from '@vitrine/engine';
import type { DictionaryEntry, DictionaryName, SearchDictionaryEntriesResponse } from '@vitrine/protocol';
import type { RouteDeps } from './deps.ts';
import { requireAllIndexes } from '../auth/authenticate.ts';
import { createError } from '../errors.ts';
import { DICTIONARY_LIMITS, entriesAfter, parseDictionaryBatch, parseDictionaryName, parseDictionarySettings } from '../storage/dictionaries.ts';
import type { IndexRegistry } from '../storage/registry.ts';
import { isPlainObject } from '../storage/validate.ts';
import { countOf } from './synonyms.ts';

type DictionaryParams = { dictionaryName: string };

interface EntryQuery {
  query: string;
  language: string | undefined;
  page: number;
  hitsPerPage: number;
}

function parseSearch(body: unknown): EntryQuery {
  const params = isPlainObject(body) ? body : {};
  if (typeof params.query !== 'string') throw createError('MISSING_PARAMETER', 'query');
  if (params.language !== undefined && typeof params.language !== 'string') throw createError('INVALID_PARAMETER', 'language', 'expected a language code');
  const page = params.page === undefined ? 0 : countOf(params.page);
  const hitsPerPage = params.hitsPerPage === undefined ? 20 : countOf(params.hitsPerPage);
  if (!Number.isInteger(page) || page < 0) throw createError('INVALID_PARAMETER', 'page', 'expected a non-negative integer');
  if (!Number.isInteger(hitsPerPage) || hitsPerPage < 1 || hitsPerPage > 1000) throw createError('INVALID_PARAMETER', 'hitsPerPage', 'must be between 1 and 1000');
  return { query: params.query.trim().toLowerCase(), language: params.language?.toLowerCase(), page, hitsPerPage };
}

/** The words an entry is found by: a query matches when one of them starts with it. */
function wordsOf(entry: DictionaryEntry): string[] {
  return [entry.word ?? '', ...(entry.words ?? []), ...(entry.decomposition ?? [])].map((word) => word.toLowerCase());
}

/**
 * Custom entries first, then (stop words only: the other standard entries are rules, not lists) the standard
 * entries of the languages asked, each marked disabled where the settings or a custom entry turn it off.
 */
function* candidates(registry: IndexRegistry, dictionary: DictionaryName, language: string | undefined): Generator<DictionaryEntry> {
  const { entries } = registry.dictionaries.state;
  for (const entry of entries[dictionary]) if (language === undefined || entry.language === language) yield entry;
  if (dictionary !== 'stopwords') return;
  const disabledWords = new Set(entries.stopwords.filter((entry) => entry.state === 'disabled').map((entry) => `${entry.language}:${entry.word?.toLowerCase()}`));
  for (const code of language === undefined ? [...STOP_WORD_LANGUAGES].sort() : [language]) {
    if (!STOP_WORD_LANGUAGES.has(code)) continue;
    const enabled = registry.dictionaries.standardEnabled('stopwords', code);
    for (const word of [...standardStopWords(code)].sort()) {
      const state = enabled && !disabledWords.has(`${code}:${word}`) ? 'enabled' : 'disabled';
      yield { objectID: `standard-${code}-${word}`, language: code, word, state, type: 'standard' };
    }
  }
}

function searchEntries(registry: IndexRegistry, dictionary: DictionaryName, params: EntryQuery): SearchDictionaryEntriesResponse {
  const matches: DictionaryEntry[] = [];
  for (const entry of candidates(registry, dictionary, params.language)) {
    if (params.query === '' || wordsOf(entry).some((word) => word.startsWith(params.query))) matches.push(entry);
  }
  const start = params.page * params.hitsPerPage;
  return {
    hits: matches.slice(start, start + params.hitsPerPage),
    page: params.page,
    nbHits: matches.length,
    nbPages: Math.ceil(matches.length / params.hitsPerPage),
  };
}

export function dictionaryRoutes(app: FastifyInstance, { store }: RouteDeps): void {
  const registry = store.registry;
  const read = { acl: 'settings' } as const;
  const write = { acl: 'editSettings', largeBody: true } as const;

  app.post<{ Params: DictionaryParams }>('/1/dictionaries/:dictionaryName/batch', { config: write }, async (request) => {
    requireAllIndexes(request.auth!);
    const updatedAt = new Date().toISOString();
    const op = parseDictionaryBatch(parseDictionaryName(request.params.dictionaryName), request.body, updatedAt);
    const total = entriesAfter(registry, op);
    if (total > DICTIONARY_LIMITS.maxEntriesPerDictionary) {
      throw createError('INVALID_PARAMETER', 'requests', `${total} custom entries, the limit is ${DICTIONARY_LIMITS.maxEntriesPerDictionary}`);
    }
    const taskID = await store.submit(op);
    return { taskID, updatedAt };
  });

  app.post<{ Params: DictionaryParams }>('/1/dictionaries/:dictionaryName/search', { config: read }, async (request) => {
    return searchEntries(registry, parseDictionaryName(request.params.dictionaryName), parseSearch(request.body));
  });

  // `*` is literal in Algolia's paths (these settings are the application's); a route wildcard it is not.
  const requireStar = (name: string, method: string, path: string) => {
    if (name !== '*') throw createError('ROUTE_NOT_FOUND', method, path);
  };

  app.get<{ Params: DictionaryParams }>('/1/dictionaries/:dictionaryName/settings', { config: read }, async (request) => {
    requireStar(request.params.dictionaryName, request.method, request.url);
    return { disableStandardEntries: registry.dictionaries.state.settings.disableStandardEntries ?? {} };
  });

  app.put<{ Params: DictionaryParams }>('/1/dictionaries/:dictionaryName/settings', { config: { acl: 'editSettings' } }, async (request) => {
    requireStar(request.params.dictionaryName, request.method, request.url);
    requireAllIndexes(request.auth!);
    const updatedAt = new Date().toISOString();
    const taskID = await store.submit(parseDictionarySettings(request.body, updatedAt));
    return { taskID, updatedAt };
  });

  app.get<{ Params: DictionaryParams }>('/1/dictionaries/:dictionaryName/languages', { config: read }, async (request) => {
    requireStar(request.params.dictionaryName, request.method, request.url);
    return registry.dictionaries.languages();
  });
}
