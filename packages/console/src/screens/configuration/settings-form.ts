/**
 * Index settings ↔ the Configuration screen's form. Attribute lists are rows of (attribute, modifier) so the
 * form never asks the operator to type Algolia's `unordered(...)`/`filterOnly(...)` syntax; the conversion both
 * ways lives here, tested on its own.
 */
import type { IndexSettings } from 'algoliasearch';

export interface Row {
  value: string;
  modifier: string;
}

/** How each list field writes a modifier; the first modifier is the plain one (no wrapper). */
export const listModifiers = {
  searchableAttributes: ['ordered', 'unordered'],
  attributesForFaceting: ['filter and facet', 'searchable', 'filterOnly'],
  customRanking: ['desc', 'asc'],
  ranking: ['criterion'],
  attributesToHighlight: ['attribute'],
  replicas: ['standard', 'virtual'],
} as const;

export type ListField = keyof typeof listModifiers;

export interface SettingsForm {
  lists: Record<ListField, Row[]>;
  typoTolerance: 'true' | 'false' | 'min' | 'strict';
  minWordSizefor1Typo: number;
  minWordSizefor2Typos: number;
  highlightPreTag: string;
  highlightPostTag: string;
  distinct: number;
  attributeForDistinct: string;
}

export const defaultRanking = ['typo', 'geo', 'words', 'filters', 'proximity', 'attribute', 'exact', 'custom'];

function toRow(field: ListField, entry: string): Row {
  const [plain, ...wrapped] = listModifiers[field];
  const match = /^(\w+)\((.*)\)$/.exec(entry);
  // customRanking is always wrapped (desc/asc); ranking keeps asc(x)/desc(x) criteria as they are.
  if (match && field !== 'ranking' && (wrapped as readonly string[]).concat(field === 'customRanking' ? [plain] : []).includes(match[1])) {
    return { value: match[2], modifier: match[1] };
  }
  return { value: entry, modifier: plain };
}

function fromRow(field: ListField, row: Row): string {
  const [plain] = listModifiers[field];
  if (field === 'customRanking') return `${row.modifier}(${row.value})`;
  return row.modifier === plain ? row.value : `${row.modifier}(${row.value})`;
}

export function settingsToForm(settings: IndexSettings): SettingsForm {
  const list = (field: ListField, values: string[] | undefined) => (values ?? []).map((entry) => toRow(field, entry));
  const typo = settings.typoTolerance;
  return {
    lists: {
      searchableAttributes: list('searchableAttributes', settings.searchableAttributes),
      attributesForFaceting: list('attributesForFaceting', settings.attributesForFaceting),
      customRanking: list('customRanking', settings.customRanking),
      ranking: list('ranking', settings.ranking ?? defaultRanking),
      attributesToHighlight: list('attributesToHighlight', settings.attributesToHighlight),
      replicas: list('replicas', settings.replicas),
    },
    typoTolerance: typo === undefined ? 'true' : (String(typo) as SettingsForm['typoTolerance']),
    minWordSizefor1Typo: settings.minWordSizefor1Typo ?? 4,
    minWordSizefor2Typos: settings.minWordSizefor2Typos ?? 8,
    highlightPreTag: settings.highlightPreTag ?? '<em>',
    highlightPostTag: settings.highlightPostTag ?? '</em>',
    distinct: typeof settings.distinct === 'number' ? settings.distinct : settings.distinct ? 1 : 0,
    attributeForDistinct: settings.attributeForDistinct ?? '',
  };
}

/** The settings the form describes (all of its fields, so one setSettings task writes them together). */
export function formToSettings(form: SettingsForm): IndexSettings {
  const list = (field: ListField) => form.lists[field].filter((row) => row.value.trim() !== '').map((row) => fromRow(field, { ...row, value: row.value.trim() }));
  const typo = form.typoTolerance === 'true' ? true : form.typoTolerance === 'false' ? false : form.typoTolerance;
  const settings: IndexSettings = {
    searchableAttributes: list('searchableAttributes'),
    attributesForFaceting: list('attributesForFaceting'),
    customRanking: list('customRanking'),
    ranking: list('ranking'),
    attributesToHighlight: list('attributesToHighlight'),
    replicas: list('replicas'),
    typoTolerance: typo,
    minWordSizefor1Typo: form.minWordSizefor1Typo,
    minWordSizefor2Typos: form.minWordSizefor2Typos,
    highlightPreTag: form.highlightPreTag,
    highlightPostTag: form.highlightPostTag,
    distinct: form.distinct,
  };
  if (form.attributeForDistinct.trim()) settings.attributeForDistinct = form.attributeForDistinct.trim();
  return settings;
}

/** A replica's sort order as its own settings: standard replicas sort first, virtual ones within relevance. */
export function replicaSortSettings(virtual: boolean, attribute: string, direction: 'asc' | 'desc'): IndexSettings {
  const criterion = `${direction}(${attribute})`;
  return virtual ? { customRanking: [criterion] } : { ranking: [criterion, ...defaultRanking] };
}

/** A replica's current sort order, read back from its settings, if it has one. */
export function replicaSortOf(virtual: boolean, settings: IndexSettings): { attribute: string; direction: 'asc' | 'desc' } | undefined {
  const first = virtual ? settings.customRanking?.[0] : settings.ranking?.[0];
  const match = first ? /^(asc|desc)\((.+)\)$/.exec(first) : null;
  return match ? { attribute: match[2], direction: match[1] as 'asc' | 'desc' } : undefined;
}
