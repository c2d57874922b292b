/**
 * The application's dictionaries (stop words, plurals, compounds) as writes: requests checked and reduced to
 * clean entries before they are logged, and the logged operations applied to the registry's dictionary state,
 * which every index's engine then uses. Entries are rebuilt field by field from what the spec names, so nothing
 * else a caller sends (`__proto__` included) is stored.
 */
import { DICTIONARY_NAMES } from '@vitrine/engine';
import type { DictionaryEntry, DictionaryEntryState, DictionaryName, DictionarySettings } from '@vitrine/protocol';
import { createError } from '../errors.ts';
import type { Op } from './ops.ts';
import type { IndexRegistry } from './registry.ts';
import { isPlainObject } from './validate.ts';

type EntriesOp = Extract<Op, { kind: 'dictionaryEntries' }>;
type SettingsOp = Extract<Op, { kind: 'dictionarySettings' }>;

/** Caps on what a caller stores: the entries live in memory and in every snapshot. */
export const DICTIONARY_LIMITS = { maxEntriesPerDictionary: 100_000, maxWordBytes: 256, maxWordsPerEntry: 100 };

/** An ISO 639-1 code, optionally with a region (`pt-br`), as Algolia's `supportedLanguage` values. */
const LANGUAGE = /^[a-z]{2,3}(-[a-z]{2,4})?$/i;

export function parseDictionaryName(raw: string): DictionaryName {
  if (!(DICTIONARY_NAMES as readonly string[]).includes(raw)) {
    throw createError('INVALID_PARAMETER', 'dictionaryName', 'expected stopwords, plurals or compounds');
  }
  return raw as DictionaryName;
}

function word(value: unknown, where: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw createError('INVALID_PARAMETER', where, 'expected a non-empty string');
  if (Buffer.byteLength(value) > DICTIONARY_LIMITS.maxWordBytes) {
    throw createError('PARAMETER_TOO_LONG', where, Buffer.byteLength(value), DICTIONARY_LIMITS.maxWordBytes);
  }
  return value;
}

function wordList(value: unknown, where: string, min: number): string[] {
  if (!Array.isArray(value) || value.length < min || value.length > DICTIONARY_LIMITS.maxWordsPerEntry) {
    throw createError('INVALID_PARAMETER', where, `expected an array of ${min} to ${DICTIONARY_LIMITS.maxWordsPerEntry} words`);
  }
  return value.map((item, i) => word(item, `${where}[${i}]`));
}

/** One `addEntry` body as stored: the fields its dictionary uses, `state` defaulting to enabled, `type` custom. */
export function parseDictionaryEntry(dictionary: DictionaryName, raw: unknown, position: number): DictionaryEntry {
  const at = `requests[${position}].body`;
  if (!isPlainObject(raw)) throw createError('INVALID_PARAMETER', at, 'expected an object');
  const objectID = word(raw.objectID, `${at}.objectID`);
  if (typeof raw.language !== 'string' || !LANGUAGE.test(raw.language)) throw createError('INVALID_PARAMETER', `${at}.language`, 'expected a language code such as "en"');
  const state = raw.state ?? 'enabled';
  if (state !== 'enabled' && state !== 'disabled') throw createError('INVALID_PARAMETER', `${at}.state`, 'expected enabled or disabled');
  const entry: DictionaryEntry = { objectID, language: raw.language.toLowerCase() };
  if (dictionary === 'plurals') entry.words = wordList(raw.words, `${at}.words`, 2);
  else entry.word = word(raw.word, `${at}.word`);
  if (dictionary === 'compounds') entry.decomposition = wordList(raw.decomposition, `${at}.decomposition`, 2);
  entry.state = state as DictionaryEntryState;
  entry.type = 'custom';
  return entry;
}

/** The requests of `batchDictionaryEntries`, checked whole: a bad one refuses the batch. */
export function parseDictionaryBatch(dictionary: DictionaryName, body: unknown, at: string): EntriesOp {
  if (!isPlainObject(body)) throw createError('INVALID_BODY', 'expected an object with requests');
  if (!Array.isArray(body.requests)) throw createError('MISSING_PARAMETER', 'requests');
  const clear = body.clearExistingDictionaryEntries ?? false;
  if (typeof clear !== 'boolean') throw createError('INVALID_PARAMETER', 'clearExistingDictionaryEntries', 'expected a boolean');
  const requests = body.requests.map((request: unknown, position): EntriesOp['requests'][number] => {
    if (!isPlainObject(request)) throw createError('INVALID_PARAMETER', `requests[${position}]`, 'expected an object');
    if (request.action === 'addEntry') return { action: 'addEntry', entry: parseDictionaryEntry(dictionary, request.body, position) };
    if (request.action === 'deleteEntry') {
      const objectID = isPlainObject(request.body) ? request.body.objectID : undefined;
      return { action: 'deleteEntry', objectID: word(objectID, `requests[${position}].body.objectID`) };
    }
    throw createError('INVALID_PARAMETER', `requests[${position}].action`, 'expected addEntry or deleteEntry');
  });
  return { kind: 'dictionaryEntries', at, dictionaryName: dictionary, clearExisting: clear, requests };
}

/** `disableStandardEntries`: per dictionary, language → boolean (null or absent: leave as is). */
export function parseDictionarySettings(body: unknown, at: string): SettingsOp {
  if (!isPlainObject(body) || !('disableStandardEntries' in body)) throw createError('MISSING_PARAMETER', 'disableStandardEntries');
  const raw = body.disableStandardEntries;
  if (raw !== null && !isPlainObject(raw)) throw createError('INVALID_PARAMETER', 'disableStandardEntries', 'expected an object');
  const settings: DictionarySettings = { disableStandardEntries: {} };
  for (const [dictionary, languages] of Object.entries(raw ?? {})) {
    const name = parseDictionaryName(dictionary);
    if (languages === null) {
      settings.disableStandardEntries![name] = null;
      continue;
    }
    if (!isPlainObject(languages)) throw createError('INVALID_PARAMETER', `disableStandardEntries.${name}`, 'expected an object of language → boolean');
    const flags: Record<string, boolean> = {};
    for (const [language, flag] of Object.entries(languages)) {
      if (!LANGUAGE.test(language) || typeof flag !== 'boolean') {
        throw createError('INVALID_PARAMETER', `disableStandardEntries.${name}.${language}`, 'expected a language code and a boolean');
      }
      flags[language.toLowerCase()] = flag;
    }
    settings.disableStandardEntries![name] = flags;
  }
  return { kind: 'dictionarySettings', at, settings };
}

/** Applies a batch: custom entries by objectID, in the order sent. Deterministic, for replay. */
export function applyDictionaryEntries(registry: IndexRegistry, op: EntriesOp): void {
  const state = registry.dictionaries.state;
  const current = new Map(op.clearExisting ? [] : state.entries[op.dictionaryName].map((entry) => [entry.objectID, entry]));
  for (const request of op.requests) {
    if (request.action === 'addEntry') current.set(request.entry.objectID, request.entry);
    else current.delete(request.objectID);
  }
  // Past the cap the oldest entries go (checked again when accepted: this keeps replay within it whatever came).
  const entries = [...current.values()].slice(-DICTIONARY_LIMITS.maxEntriesPerDictionary);
  registry.setDictionaryState({ ...state, entries: { ...state.entries, [op.dictionaryName]: entries } });
}

/**
 * Merges language flags into the stored settings: `true` turns a language's standard entries off, `false` back
 * on (stored as absent), `null` for a dictionary turns them all back on.
 */
export function applyDictionarySettings(registry: IndexRegistry, op: SettingsOp): void {
  const state = registry.dictionaries.state;
  const disabled: NonNullable<DictionarySettings['disableStandardEntries']> = { ...(state.settings.disableStandardEntries ?? {}) };
  for (const [name, flags] of Object.entries(op.settings.disableStandardEntries ?? {}) as Array<[DictionaryName, Record<string, boolean> | null]>) {
    const merged: Record<string, boolean> = { ...(flags === null ? {} : (disabled[name] ?? {})) };
    for (const [language, flag] of Object.entries(flags ?? {})) {
      if (flag) merged[language] = true;
      else delete merged[language];
    }
    if (Object.keys(merged).length > 0) disabled[name] = merged;
    else delete disabled[name];
  }
  registry.setDictionaryState({ ...state, settings: { disableStandardEntries: disabled } });
}

/** The count of custom entries a batch leaves, for the cap checked before it is logged. */
export function entriesAfter(registry: IndexRegistry, op: EntriesOp): number {
  const ids = new Set(op.clearExisting ? [] : registry.dictionaries.state.entries[op.dictionaryName].map((entry) => entry.objectID));
  for (const request of op.requests) {
    if (request.action === 'addEntry') ids.add(request.entry.objectID);
    else ids.delete(request.objectID);
  }
  return ids.size;
}
