/**
 * The shopper's recent searches, kept in this browser only (localStorage), newest first. Nothing here leaves the
 * browser: the list exists to save retyping, not for analytics.
 */

export const recentSearchesStorageKey = 'vitrine.recentSearches';
export const maxRecentSearches = 6;
/** Longer entries are not worth offering again (and keep the stored list small). */
const maxRecentLength = 100;

type StorageLike = Pick<Storage, 'getItem' | 'setItem'>;

/** Trims and collapses spaces; empty means "nothing to remember". */
export function normalizeRecent(query: string): string {
  return query.trim().replace(/\s+/g, ' ');
}

export function readRecentSearches(storage: StorageLike | undefined): string[] {
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(recentSearchesStorageKey) ?? '[]');
    if (!Array.isArray(parsed)) return [];
    // A hand-edited or older entry is dropped rather than trusted.
    return parsed.filter((item): item is string => typeof item === 'string' && item.length > 0 && item.length <= maxRecentLength).slice(0, maxRecentSearches);
  } catch {
    return [];
  }
}

function write(storage: StorageLike | undefined, list: string[]): string[] {
  try {
    storage?.setItem(recentSearchesStorageKey, JSON.stringify(list));
  } catch {
    // Private mode or a full quota: the list lives for this page only.
  }
  return list;
}

/** Puts `query` first (moving it up when already there, case-insensitively); returns the new list. */
export function addRecentSearch(storage: StorageLike | undefined, query: string): string[] {
  const entry = normalizeRecent(query);
  const current = readRecentSearches(storage);
  if (entry === '' || entry.length > maxRecentLength) return current;
  const rest = current.filter((item) => item.toLowerCase() !== entry.toLowerCase());
  return write(storage, [entry, ...rest].slice(0, maxRecentSearches));
}

export function removeRecentSearch(storage: StorageLike | undefined, query: string): string[] {
  return write(storage, readRecentSearches(storage).filter((item) => item !== query));
}

/** The recent searches to offer for what is typed: all of them for an empty box, else those containing it. */
export function matchingRecentSearches(recent: string[], typed: string, limit = 3): string[] {
  const needle = normalizeRecent(typed).toLowerCase();
  if (needle === '') return recent.slice(0, limit);
  return recent.filter((item) => item.toLowerCase().includes(needle) && item.toLowerCase() !== needle).slice(0, limit);
}
