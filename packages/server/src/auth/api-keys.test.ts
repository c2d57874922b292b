import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../storage/db.ts';
import { openDb } from '../storage/db.ts';
import { removeDir, tempDir } from '../test-support.ts';
import { hashKey, KeyStore, parseKeyDefinition } from './api-keys.ts';

const SEARCH = parseKeyDefinition({ acl: ['search'] });

describe('key store: derived values, hashed rows', () => {
  let dataDir: string;
  let db: Db;
  const secret = randomBytes(32);
  beforeEach(() => {
    dataDir = tempDir();
    db = openDb(dataDir);
  });
  afterEach(() => {
    db.close();
    removeDir(dataDir);
  });

  it('recomputes a created key\'s value from the secret and the row, in a fresh store', () => {
    const { value, key } = new KeyStore(db, secret).create(SEARCH);
    expect(value).toMatch(/^[0-9a-f]{32}$/);
    expect(key.hash).toBe(hashKey(value));
    const seen: string[] = [];
    const found = new KeyStore(db, secret).findParent((candidate) => {
      seen.push(candidate);
      return candidate === value;
    });
    expect(found?.hash).toBe(key.hash);
    expect(seen).toEqual([value]);
    // The row: the hash, the definition and the id; never the value.
    expect(JSON.stringify(db.prepare('SELECT * FROM api_keys').all())).not.toContain(value);
  });

  it('with another secret, keys still authenticate but are offered as parents no more', () => {
    const { value } = new KeyStore(db, secret).create(SEARCH);
    const other = new KeyStore(db, randomBytes(32));
    expect(other.findByValue(value)).toBeDefined();
    // Not even tried: the id no longer derives the stored hash.
    expect(other.findParent(() => true)).toBeUndefined();
  });

  it('keeps rows written before derivation (no id) authenticating, never as parents', () => {
    const legacy = randomBytes(16).toString('hex');
    db.prepare('INSERT INTO api_keys (hash, data, created_at, deleted_at) VALUES (?, ?, ?, NULL)').run(hashKey(legacy), JSON.stringify(SEARCH), Date.now());
    const store = new KeyStore(db, secret);
    expect(store.findByValue(legacy)?.acl).toEqual(['search']);
    expect(store.findParent(() => true)).toBeUndefined();
    // An update does not invent an id for it.
    store.update(legacy, { description: 'old' });
    expect(JSON.parse((db.prepare('SELECT data FROM api_keys').get() as { data: string }).data)).not.toHaveProperty('id');
  });

  it('keeps a key a parent through updates, and offers only live keys with the search ACL', () => {
    const store = new KeyStore(db, secret);
    const { value } = store.create(SEARCH);
    store.update(value, { description: 'renamed', maxHitsPerQuery: 3 });
    expect(new KeyStore(db, secret).findParent((candidate) => candidate === value)).toMatchObject({ description: 'renamed', maxHitsPerQuery: 3 });

    store.update(value, { acl: ['browse'] });
    expect(store.findParent(() => true)).toBeUndefined();
    store.update(value, { acl: ['search'] });
    store.delete(value);
    expect(store.findParent(() => true)).toBeUndefined();
    store.restore(value);
    expect(store.findParent(() => true)?.hash).toBe(hashKey(value));

    const expiring = store.create(parseKeyDefinition({ acl: ['search'], validity: 10 }), Date.now() - 60_000);
    expect(store.findLiveByHash(expiring.key.hash)).toBeUndefined();
    expect(store.findParent((candidate) => candidate === expiring.value)).toBeUndefined();
  });

  it('takes the secret from the database\'s folder by default', () => {
    const { value } = new KeyStore(db).create(SEARCH);
    expect(new KeyStore(db).findParent((candidate) => candidate === value)).toBeDefined();
  });
});
