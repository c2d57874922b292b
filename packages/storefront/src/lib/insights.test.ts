import { describe, expect, it } from 'vitest';
import { createUserToken, getOrCreateUserToken, isValidUserToken, shareUserTokenWithServer, userTokenStorageKey } from './insights.ts';

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

describe('the user token shared with the server', () => {
  it('is a first-party cookie of the whole site, Secure over https', () => {
    const doc = { cookie: '' };
    shareUserTokenWithServer('anon-0a1b', doc, false);
    expect(doc.cookie).toBe('vitrine_user=anon-0a1b; Path=/; Max-Age=31536000; SameSite=Lax');
    shareUserTokenWithServer('anon-0a1b', doc, true);
    expect(doc.cookie).toMatch(/; Secure$/);
  });

  it('never throws when cookies are refused', () => {
    const doc = {
      set cookie(_value: string) {
        throw new Error('cookies are disabled');
      },
      get cookie() {
        return '';
      },
    };
    expect(() => shareUserTokenWithServer('anon-0a1b', doc, false)).not.toThrow();
  });
});
