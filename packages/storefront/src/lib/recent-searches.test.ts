import { describe, expect, it } from 'vitest';
import {
  addRecentSearch,
  matchingRecentSearches,
  maxRecentSearches,
  readRecentSearches,
  recentSearchesStorageKey,
  removeRecentSearch,
} from './recent-searches.ts';

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return { getItem: (key: string) => data.get(key) ?? null, setItem: (key: string, value: string) => void data.set(key, value), data };
}

describe('recent searches', () => {
  it('keeps the newest first, without duplicates, at most the limit', () => {
    const storage = memoryStorage();
    for (const query of ['lamp', 'desk', '  Lamp ', 'chair']) addRecentSearch(storage, query);
    expect(readRecentSearches(storage)).toEqual(['chair', 'Lamp', 'desk']);
    for (let i = 0; i < 10; i++) addRecentSearch(storage, `q${i}`);
    expect(readRecentSearches(storage)).toHaveLength(maxRecentSearches);
    expect(readRecentSearches(storage)[0]).toBe('q9');
  });

  it('ignores empty queries and removes one entry', () => {
    const storage = memoryStorage();
    addRecentSearch(storage, '   ');
    expect(readRecentSearches(storage)).toEqual([]);
    addRecentSearch(storage, 'lamp');
    addRecentSearch(storage, 'desk');
    expect(removeRecentSearch(storage, 'lamp')).toEqual(['desk']);
    expect(readRecentSearches(storage)).toEqual(['desk']);
  });

  it('survives corrupt storage and storage that throws', () => {
    expect(readRecentSearches(memoryStorage({ [recentSearchesStorageKey]: '{not json' }))).toEqual([]);
    expect(readRecentSearches(memoryStorage({ [recentSearchesStorageKey]: '[1, "ok", null, ""]' }))).toEqual(['ok']);
    const throwing = { getItem: () => { throw new Error('denied'); }, setItem: () => { throw new Error('denied'); } };
    expect(readRecentSearches(throwing)).toEqual([]);
    // Not stored, but the returned list still has it for this page.
    expect(addRecentSearch(throwing, 'lamp')).toEqual(['lamp']);
  });

  it('offers all entries for an empty box, else those containing what is typed', () => {
    const recent = ['floor lamp', 'desk lamp', 'chair', 'lamp'];
    expect(matchingRecentSearches(recent, '', 3)).toEqual(['floor lamp', 'desk lamp', 'chair']);
    // The exact query is left out: it is what the box already holds.
    expect(matchingRecentSearches(recent, ' LAMP')).toEqual(['floor lamp', 'desk lamp']);
    expect(matchingRecentSearches(recent, 'sofa')).toEqual([]);
  });
});
