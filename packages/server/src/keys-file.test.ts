import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveKeys } from './keys-file.ts';

describe('resolveKeys', () => {
  const dirs: string[] = [];
  const newDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'vitrine-keys-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('uses the environment when both keys are given, writing nothing', () => {
    const dir = newDir();
    expect(resolveKeys(dir, { adminApiKey: 'admin', searchApiKey: 'search' })).toEqual({ adminApiKey: 'admin', searchApiKey: 'search', generated: false });
    expect(() => statSync(join(dir, 'keys.json'))).toThrow();
  });

  it('generates keys once, keeps them (mode 0600) and returns the same ones next time', () => {
    const dir = newDir();
    const first = resolveKeys(dir, {});
    expect(first.generated).toBe(true);
    expect(first.adminApiKey).toMatch(/^[0-9a-f]{32}$/);
    expect(first.searchApiKey).not.toBe(first.adminApiKey);
    expect(statSync(join(dir, 'keys.json')).mode & 0o777).toBe(0o600);
    expect(resolveKeys(dir, {})).toEqual(first);
    expect(JSON.parse(readFileSync(join(dir, 'keys.json'), 'utf8'))).toEqual({ adminApiKey: first.adminApiKey, searchApiKey: first.searchApiKey });
  });

  it('mixes an environment key with a kept one', () => {
    const dir = newDir();
    const kept = resolveKeys(dir, {});
    const mixed = resolveKeys(dir, { adminApiKey: 'from-env' });
    expect(mixed.adminApiKey).toBe('from-env');
    expect(mixed.searchApiKey).toBe(kept.searchApiKey);
  });
});
