/**
 * The server key secret: 32 random bytes in `<dataDir>/api-key-secret` (hex, mode 0600), created on first start.
 * Keys created through `/1/keys` are derived from it (see api-keys.ts), which is what lets the server recompute a
 * stored key's value to check the HMAC of a secured key made from it, while the database holds hashes only.
 * The secret is never logged and never leaves this process.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const KEY_SECRET_FILE = 'api-key-secret';
const SECRET_BYTES = 32;

export function loadKeySecret(dataDir: string): Buffer {
  const file = join(dataDir, KEY_SECRET_FILE);
  if (existsSync(file)) {
    const text = readFileSync(file, 'utf8').trim();
    // A damaged file is an error rather than a reason to start over: a new secret would silently stop every
    // existing key from being a parent of secured keys (the keys themselves would keep authenticating).
    if (!/^[0-9a-f]{64}$/.test(text)) throw new Error(`${file} is not a ${SECRET_BYTES}-byte hex secret: restore it from a backup, or delete it to generate a new one (existing keys then stop being parents of secured keys)`);
    return Buffer.from(text, 'hex');
  }
  const secret = randomBytes(SECRET_BYTES);
  mkdirSync(dataDir, { recursive: true });
  // Write-then-rename so a crash never leaves a truncated secret behind; 0600 from creation so it is never readable by others.
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, `${secret.toString('hex')}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
  return secret;
}
