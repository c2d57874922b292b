/**
 * Where the shopper was on each page they left by a link, so Back returns there. Positions are kept per URL in
 * sessionStorage (this tab only, survives a reload), at most `maxEntries` of them.
 */
const storageKey = 'vitrine.scrollPositions';
const maxEntries = 50;

type Positions = Array<[url: string, y: number]>;

function read(storage: Storage | undefined): Positions {
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(storageKey) ?? '[]');
    return Array.isArray(parsed) ? (parsed as Positions).filter((entry) => Array.isArray(entry) && typeof entry[1] === 'number') : [];
  } catch {
    return [];
  }
}

function session(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}

export function saveScrollPosition(url: string, y: number, storage = session()): void {
  const kept = read(storage).filter(([candidate]) => candidate !== url);
  kept.push([url, Math.round(y)]);
  try {
    storage?.setItem(storageKey, JSON.stringify(kept.slice(-maxEntries)));
  } catch {
    // Full or disabled storage: Back lands at the top, as without this feature.
  }
}

export function savedScrollPosition(url: string, storage = session()): number | undefined {
  return read(storage).find(([candidate]) => candidate === url)?.[1];
}
