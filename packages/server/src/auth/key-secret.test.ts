import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../test-support.ts';
import { KEY_SECRET_FILE, loadKeySecret } from './key-secret.ts';

describe('server key secret', () => {
  const dirs: string[] = [];
  const dir = () => {
    const made = tempDir();
    dirs.push(made);
    return made;
  };
  afterEach(() => {
    for (const made of dirs.splice(0)) removeDir(made);
  });

  it('is created once, 32 random bytes readable by the owner only, and read back unchanged', () => {
    const dataDir = dir();
    const secret = loadKeySecret(dataDir);
    expect(secret).toHaveLength(32);
    const file = join(dataDir, KEY_SECRET_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toBe(secret.toString('hex'));
    expect(loadKeySecret(dataDir).equals(secret)).toBe(true);
    // Another data folder, another secret.
    expect(loadKeySecret(dir()).equals(secret)).toBe(false);
  });

  it('refuses a damaged file instead of silently replacing the secret', () => {
    const dataDir = dir();
    writeFileSync(join(dataDir, KEY_SECRET_FILE), 'not hex\n');
    expect(() => loadKeySecret(dataDir)).toThrow(/is not a 32-byte hex secret/);
    expect(readFileSync(join(dataDir, KEY_SECRET_FILE), 'utf8')).toBe('not hex\n');
  });
});
