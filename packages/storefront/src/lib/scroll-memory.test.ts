import { describe, expect, it } from 'vitest';
import { savedScrollPosition, saveScrollPosition } from './scroll-memory.ts';

function memoryStorage(): Storage {
  const map = new Map<string, string>();
  return {
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, value),
    removeItem: (key) => void map.delete(key),
    clear: () => map.clear(),
    key: () => null,
    get length() {
      return map.size;
    },
  };
}

describe('scroll memory', () => {
  it('keeps the last position per URL and forgets the oldest past 50', () => {
    const storage = memoryStorage();
    saveScrollPosition('/?q=lamp', 100, storage);
    saveScrollPosition('/?q=lamp', 740.6, storage);
    expect(savedScrollPosition('/?q=lamp', storage)).toBe(741);
    for (let index = 0; index < 50; index++) saveScrollPosition(`/?page=${index}`, index, storage);
    expect(savedScrollPosition('/?q=lamp', storage)).toBeUndefined();
    expect(savedScrollPosition('/?page=49', storage)).toBe(49);
  });

  it('reads garbage as nothing saved', () => {
    const storage = memoryStorage();
    storage.setItem('vitrine.scrollPositions', '{not json');
    expect(savedScrollPosition('/', storage)).toBeUndefined();
  });
});
