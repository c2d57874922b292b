/**
 * Parsing of the settings that shape the index (searchable attributes, faceting, ranking) into the forms the
 * stages use, with Algolia's defaults. Invalid values are caller mistakes: `INVALID_SETTING`.
 */
import type { IndexSettings } from '@vitrine/protocol';
import { createEngineError } from './errors.ts';
import { parsePath, type AttributePath } from './index/attributes.ts';
import { parseEmbedders } from './vectors/embedders.ts';
import { validateReRankingSettings } from './rank/re-ranking.ts';
import { validatePersonalizationSettings } from './rank/personalization.ts';

/** One searchable attribute path; attributes listed together (`"name,brand"`) share a rank. */
export interface SearchableSlot {
  attribute: string;
  path: AttributePath;
  rank: number;
  /** `unordered(attr)`: the position of a match within the attribute does not matter. */
  ordered: boolean;
}

export interface FacetAttribute {
  attribute: string;
  path: AttributePath;
  searchable: boolean;
  filterOnly: boolean;
}

export type RankingCriterion =
  | { kind: 'typo' | 'geo' | 'words' | 'filters' | 'proximity' | 'attribute' | 'exact' | 'custom' }
  | { kind: 'sort'; attribute: string; path: AttributePath; ascending: boolean };

export interface SortSpec {
  attribute: string;
  path: AttributePath;
  ascending: boolean;
}

export const DEFAULT_RANKING = ['typo', 'geo', 'words', 'filters', 'proximity', 'attribute', 'exact', 'custom'];
const CRITERIA = new Set(DEFAULT_RANKING);
const SORT = /^(asc|desc)\((.+)\)$/;
const MODIFIER = /^(unordered|searchable|filterOnly|afterDistinct)\((.+)\)$/;

function stringList(name: string, value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw createEngineError('INVALID_SETTING', name, 'expected an array of strings');
  return value as string[];
}

/** `null` means "not set": every attribute of every record is searchable, with equal rank. */
export function parseSearchableAttributes(value: unknown): SearchableSlot[] | null {
  const list = stringList('searchableAttributes', value);
  if (value === undefined || value === null || list.length === 0) return null;
  const slots: SearchableSlot[] = [];
  const seen = new Set<string>();
  list.forEach((entry, rank) => {
    for (const part of entry.split(',')) {
      const trimmed = part.trim();
      if (trimmed === '') continue;
      const modifier = MODIFIER.exec(trimmed);
      if (modifier && modifier[1] !== 'unordered') throw createEngineError('INVALID_SETTING', 'searchableAttributes', `unknown modifier ${modifier[1]}()`);
      const attribute = modifier ? modifier[2].trim() : trimmed;
      if (seen.has(attribute)) continue;
      seen.add(attribute);
      slots.push({ attribute, path: parsePath(attribute), rank, ordered: !modifier });
    }
  });
  return slots;
}

/**
 * Parsed setting lists are memoised by their content: every search reads the same few lists (the index's
 * attributesForFaceting, ranking, customRanking), and parsing them again per query — regular expressions and
 * path splits — cost about 3% of a search (CPU profile of the HTTP benchmark's search thread). Keyed by content,
 * not by array identity, so an array changed in place is parsed again. Results are shared: callers only read.
 */
function memoisedByContent<T>(parse: (value: unknown) => T): (value: unknown) => T {
  const cache = new Map<string, T>();
  // The last list asked, with a copy of its entries: the same list asked again (every search asks for its
  // index's) is recognised without making its JSON key, a string per call.
  let lastList: unknown[] | null = null;
  let lastEntries: unknown[] = [];
  let lastParsed: T | undefined;
  return (value) => {
    if (!Array.isArray(value)) return parse(value);
    if (value === lastList && sameStrings(value, lastEntries)) return lastParsed!;
    const key = JSON.stringify(value);
    let parsed = cache.get(key);
    if (parsed === undefined) {
      parsed = parse(value);
      // A handful of settings in use at a time; a server with many indexes just parses some lists again.
      if (cache.size >= MEMOISED_LISTS) cache.clear();
      cache.set(key, parsed);
    }
    lastList = value;
    lastEntries = value.slice();
    lastParsed = parsed;
    return parsed;
  };
}
const MEMOISED_LISTS = 64;

/** Whether `list` holds the strings of `entries`, in order (strings only: an object may have changed inside). */
function sameStrings(list: unknown[], entries: unknown[]): boolean {
  if (list.length !== entries.length) return false;
  for (let i = 0; i < list.length; i++) if (typeof list[i] !== 'string' || list[i] !== entries[i]) return false;
  return true;
}

export const parseAttributesForFaceting = memoisedByContent(parseAttributesForFacetingList);

function parseAttributesForFacetingList(value: unknown): FacetAttribute[] {
  return stringList('attributesForFaceting', value).map((entry) => {
    const modifier = MODIFIER.exec(entry.trim());
    if (modifier && modifier[1] === 'unordered') throw createEngineError('INVALID_SETTING', 'attributesForFaceting', 'unordered() is for searchableAttributes');
    const attribute = modifier ? modifier[2].trim() : entry.trim();
    return {
      attribute,
      path: parsePath(attribute),
      searchable: modifier?.[1] === 'searchable',
      filterOnly: modifier?.[1] === 'filterOnly',
    };
  });
}

export function parseSort(name: string, entry: string): SortSpec {
  const match = SORT.exec(entry.trim());
  if (!match) throw createEngineError('INVALID_SETTING', name, `"${entry}" is not asc(attribute) or desc(attribute)`);
  const attribute = match[2].trim();
  return { attribute, path: parsePath(attribute), ascending: match[1] === 'asc' };
}

export const parseRanking = memoisedByContent(parseRankingList);

function parseRankingList(value: unknown): RankingCriterion[] {
  const list = value === undefined || value === null ? DEFAULT_RANKING : stringList('ranking', value);
  return list.map((entry) => {
    if (CRITERIA.has(entry)) return { kind: entry } as RankingCriterion;
    const sort = parseSort('ranking', entry);
    return { kind: 'sort', ...sort };
  });
}

export const parseCustomRanking = memoisedByContent(parseCustomRankingList);

function parseCustomRankingList(value: unknown): SortSpec[] {
  return stringList('customRanking', value).map((entry) => parseSort('customRanking', entry));
}

/** Settings whose change requires re-indexing the text. */
export const TEXT_SETTINGS = ['searchableAttributes', 'separatorsToIndex'] as const;

/** Validates what would otherwise fail later, deep in a query, so a bad PUT settings is a 400 right away. */
export function validateSettings(settings: IndexSettings): void {
  if (settings === null || typeof settings !== 'object' || Array.isArray(settings)) throw createEngineError('INVALID_SETTING', 'settings', 'expected an object');
  parseSearchableAttributes(settings.searchableAttributes);
  parseAttributesForFaceting(settings.attributesForFaceting);
  parseRanking(settings.ranking);
  parseCustomRanking(settings.customRanking);
  parseEmbedders(settings.embedders);
  validateReRankingSettings(settings);
  validatePersonalizationSettings(settings);
  if (settings.separatorsToIndex !== undefined && typeof settings.separatorsToIndex !== 'string') {
    throw createEngineError('INVALID_SETTING', 'separatorsToIndex', 'expected a string');
  }
  if (settings.attributeForDistinct !== undefined && settings.attributeForDistinct !== null && typeof settings.attributeForDistinct !== 'string') {
    throw createEngineError('INVALID_SETTING', 'attributeForDistinct', 'expected a string');
  }
}
