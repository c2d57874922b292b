import { describe, expect, it } from 'vitest';
import { createUserToken, getOrCreateUserToken, isValidUserToken, userTokenStorageKey } from './insights.ts';

describe('anonymous user token', () => {
  it('matches [a-zA-Z0-9_-]{1,64} and differs between calls', () => {
    const token = createUserToken();
    expect(token).toMatch(/^anon-[0-9a-f]{24}$/);
    expect(isValidUserToken(token)).toBe(true);
    expect(createUserToken()).not.toBe(token);
  });

  it('is persisted, and a stored token that is not ours is replaced', () => {
    const data = new Map<string, string>();
    const storage = { getItem: (key: string) => data.get(key) ?? null, setItem: (key: string, value: string) => void data.set(key, value) };
    const first = getOrCreateUserToken(storage);
    expect(getOrCreateUserToken(storage)).toBe(first);
    data.set(userTokenStorageKey, 'bad token with spaces');
    const replaced = getOrCreateUserToken(storage);
    expect(isValidUserToken(replaced)).toBe(true);
    expect(data.get(userTokenStorageKey)).toBe(replaced);
  });

  it('still gives a token when storage throws', () => {
    const broken = { getItem: () => { throw new Error('denied'); }, setItem: () => { throw new Error('denied'); } };
    expect(isValidUserToken(getOrCreateUserToken(broken))).toBe(true);
  });
});
