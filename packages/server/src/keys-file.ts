/**
 * The admin and search-only keys: taken from the environment when given, otherwise generated on first start and
 * kept in `<dataDir>/keys.json` (mode 0600) so that restarts keep working with the same keys.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ResolvedKeys {
  adminApiKey: string;
  searchApiKey: string;
  /** True when at least one key came from (or was just written to) the data folder rather than the environment. */
  generated: boolean;
}

export const KEYS_FILE = 'keys.json';

/** 32 lowercase hex characters, the shape of Algolia's keys. */
export function generateApiKey(): string {
  return randomBytes(16).toString('hex');
}

export function resolveKeys(dataDir: string, env: { adminApiKey?: string; searchApiKey?: string }): ResolvedKeys {
  const adminFromEnv = env.adminApiKey?.trim() || undefined;
  const searchFromEnv = env.searchApiKey?.trim() || undefined;
  if (adminFromEnv && searchFromEnv) return { adminApiKey: adminFromEnv, searchApiKey: searchFromEnv, generated: false };

  const file = join(dataDir, KEYS_FILE);
  let kept: { adminApiKey?: unknown; searchApiKey?: unknown } = {};
  if (existsSync(file)) {
    try {
      kept = JSON.parse(readFileSync(file, 'utf8')) as typeof kept;
    } catch {
      throw new Error(`${file} is not valid JSON: fix or delete it (new keys are generated when it is missing)`);
    }
  }
  const adminKept = typeof kept.adminApiKey === 'string' && kept.adminApiKey ? kept.adminApiKey : undefined;
  const searchKept = typeof kept.searchApiKey === 'string' && kept.searchApiKey ? kept.searchApiKey : undefined;
  const stored = { adminApiKey: adminKept ?? generateApiKey(), searchApiKey: searchKept ?? generateApiKey() };
  if (stored.adminApiKey !== adminKept || stored.searchApiKey !== searchKept) {
    mkdirSync(dataDir, { recursive: true });
    // Write-then-rename so a crash never leaves a truncated key file behind.
    const tmp = `${file}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
    chmodSync(tmp, 0o600);
    renameSync(tmp, file);
  }
  return {
    adminApiKey: adminFromEnv ?? stored.adminApiKey,
    searchApiKey: searchFromEnv ?? stored.searchApiKey,
    generated: true,
  };
}
