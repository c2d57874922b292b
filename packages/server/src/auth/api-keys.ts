/**
 * API keys created through `/1/keys`. Only a SHA-256 hash of each key is stored: a stolen database does not
 * yield usable keys. The key value is returned once, at creation. Listing cannot return values it does not
 * have, so it returns a reference (`sha256:<hex>`) that every `/1/keys/{key}` route accepts in place of the
 * value (documented in COMPATIBILITY.md). Deleted keys are kept, restorable, for 72 hours.
 *
 * Values are derived, not drawn: value = first 32 hex chars of HMAC-SHA256(server secret, "api-key:" + id), with a
 * random id kept in the key's row. The server can thus recompute the value of any key it created, which a
 * secured key needs (its HMAC is keyed with the parent's value), while the database alone (hash + id) and the
 * secret alone (no ids) each reveal no key; both together do (DESIGN.md, "Authentication"). Rows written before
 * derivation existed have no id: they authenticate as before but cannot be parents of secured keys.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { dirname } from 'node:path';
import type { Db } from '../storage/db.ts';
import { createError } from '../errors.ts';
import { isAcl } from './acl.ts';
import type { Acl } from './acl.ts';
import { loadKeySecret } from './key-secret.ts';

export interface ApiKeyDefinition {
  acl: Acl[];
  description: string;
  indexes: string[];
  maxHitsPerQuery: number;
  maxQueriesPerIPPerHour: number;
  queryParameters: string;
  referers: string[];
  validity: number;
}

export interface StoredKey extends ApiKeyDefinition {
  hash: string;
  /** Milliseconds since the epoch. */
  createdAt: number;
  deletedAt: number | null;
}

/** How long a deleted key can be restored, as Algolia. */
const RESTORE_WINDOW_MS = 72 * 3600 * 1000;
export const KEY_REFERENCE_PREFIX = 'sha256:';

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringArray(body: Record<string, unknown>, name: string): string[] {
  const value = body[name];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) throw createError('INVALID_PARAMETER', name, 'expected an array of strings');
  return value as string[];
}

function nonNegativeInteger(body: Record<string, unknown>, name: string): number {
  const value = body[name];
  if (value === undefined || value === null) return 0;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw createError('INVALID_PARAMETER', name, 'expected a non-negative integer');
  return value;
}

/** Validates a `POST /1/keys` or `PUT /1/keys/{key}` body; `base` supplies the fields an update leaves out. */
export function parseKeyDefinition(body: unknown, base?: ApiKeyDefinition): ApiKeyDefinition {
  if (!isPlainObject(body)) throw createError('INVALID_BODY', 'expected a JSON object');
  if (base === undefined && body.acl === undefined) throw createError('MISSING_PARAMETER', 'acl');
  const has = (name: string) => body[name] !== undefined;
  const acl = has('acl') ? stringArray(body, 'acl') : (base?.acl ?? []);
  for (const item of acl) if (!isAcl(item)) throw createError('INVALID_PARAMETER', 'acl', `unknown ACL "${item}"`);
  if (has('description') && typeof body.description !== 'string') throw createError('INVALID_PARAMETER', 'description', 'expected a string');
  if (has('queryParameters') && typeof body.queryParameters !== 'string') throw createError('INVALID_PARAMETER', 'queryParameters', 'expected a url-encoded string');
  return {
    acl: acl as Acl[],
    description: has('description') ? (body.description as string) : (base?.description ?? ''),
    indexes: has('indexes') ? stringArray(body, 'indexes') : (base?.indexes ?? []),
    maxHitsPerQuery: has('maxHitsPerQuery') ? nonNegativeInteger(body, 'maxHitsPerQuery') : (base?.maxHitsPerQuery ?? 0),
    maxQueriesPerIPPerHour: has('maxQueriesPerIPPerHour') ? nonNegativeInteger(body, 'maxQueriesPerIPPerHour') : (base?.maxQueriesPerIPPerHour ?? 0),
    queryParameters: has('queryParameters') ? (body.queryParameters as string) : (base?.queryParameters ?? ''),
    referers: has('referers') ? stringArray(body, 'referers') : (base?.referers ?? []),
    validity: has('validity') ? nonNegativeInteger(body, 'validity') : (base?.validity ?? 0),
  };
}

/** Whether a key can be used now: not deleted, not past its `validity`. */
function isLive(key: StoredKey, now: number): boolean {
  return key.deletedAt === null && !(key.validity > 0 && now > key.createdAt + key.validity * 1000);
}

/** The secret of the database's own folder; an in-memory database (no folder) gets one for its lifetime. */
function secretBeside(db: Db): Buffer {
  return db.memory || db.name === '' ? randomBytes(32) : loadKeySecret(dirname(db.name));
}

export class KeyStore {
  /** Every key row, by hash, cached: authentication never touches SQLite. */
  private readonly byHash = new Map<string, StoredKey>();
  /**
   * Derivation ids by key hash, kept out of `StoredKey` (which responses are built from). `parent` is true when the
   * id derives this very hash under the current secret: only those keys' values can be recomputed, so only they can
   * sign secured keys (a replaced secret or a row from elsewhere is never trusted on its word).
   */
  private readonly ids = new Map<string, { id: string; parent: boolean }>();

  /** `secret` defaults to the one in the database's folder (the data folder), created there on first use. */
  constructor(
    private readonly db: Db,
    private readonly secret: Buffer = secretBeside(db),
  ) {
    const rows = db.prepare('SELECT hash, data, created_at, deleted_at FROM api_keys').all() as Array<{ hash: string; data: string; created_at: number; deleted_at: number | null }>;
    for (const row of rows) {
      const { id, ...definition } = JSON.parse(row.data) as ApiKeyDefinition & { id?: unknown };
      this.byHash.set(row.hash, { ...definition, hash: row.hash, createdAt: row.created_at, deletedAt: row.deleted_at });
      if (typeof id === 'string') this.ids.set(row.hash, { id, parent: hashKey(this.derive(id)) === row.hash });
    }
  }

  private derive(id: string): string {
    return createHmac('sha256', this.secret).update(`api-key:${id}`).digest('hex').slice(0, 32);
  }

  /** The live key with this value, or undefined (also for expired and deleted keys). */
  findByValue(value: string, now = Date.now()): StoredKey | undefined {
    const key = this.byHash.get(hashKey(value));
    return key && isLive(key, now) ? key : undefined;
  }

  /**
   * The live key with this hash, or undefined. Update replaces a key's object (delete and restore do not), so a
   * holder of an earlier object can tell its copy of the definition is stale by identity.
   */
  findLiveByHash(hash: string, now = Date.now()): StoredKey | undefined {
    const key = this.byHash.get(hash);
    return key && isLive(key, now) ? key : undefined;
  }

  /**
   * The live key with the `search` ACL whose value `signed` accepts, trying every key that can be a parent. Values
   * are recomputed for the check and never kept, nor handed out beyond `signed`.
   */
  findParent(signed: (value: string) => boolean, now = Date.now()): StoredKey | undefined {
    for (const [hash, { id, parent }] of this.ids) {
      if (!parent) continue;
      const key = this.byHash.get(hash);
      if (!key || !isLive(key, now) || !key.acl.includes('search')) continue;
      if (signed(this.derive(id))) return key;
    }
    return undefined;
  }

  /** A key addressed in a `/1/keys/{key}` path: its value, or the `sha256:` reference that listing returns. */
  private resolve(reference: string, includeDeleted = false): StoredKey {
    const hash = reference.startsWith(KEY_REFERENCE_PREFIX) ? reference.slice(KEY_REFERENCE_PREFIX.length) : hashKey(reference);
    const key = this.byHash.get(hash);
    if (!key || (key.deletedAt !== null && !includeDeleted)) throw createError('KEY_NOT_FOUND');
    return key;
  }

  /** The row's `data` on update: the definition and, for derived keys, their id (so they stay parents). */
  private rowData(definition: ApiKeyDefinition, hash: string): string {
    const id = this.ids.get(hash)?.id;
    return JSON.stringify(id === undefined ? definition : { ...definition, id });
  }

  create(definition: ApiKeyDefinition, now = Date.now()): { value: string; key: StoredKey } {
    const id = randomBytes(16).toString('hex');
    const value = this.derive(id);
    const key: StoredKey = { ...definition, hash: hashKey(value), createdAt: now, deletedAt: null };
    this.db.prepare('INSERT INTO api_keys (hash, data, created_at, deleted_at) VALUES (?, ?, ?, NULL)').run(key.hash, JSON.stringify({ ...definition, id }), now);
    this.byHash.set(key.hash, key);
    this.ids.set(key.hash, { id, parent: true });
    return { value, key };
  }

  get(reference: string): StoredKey {
    return this.resolve(reference);
  }

  list(): StoredKey[] {
    return [...this.byHash.values()].filter((key) => key.deletedAt === null).sort((a, b) => b.createdAt - a.createdAt);
  }

  update(reference: string, body: unknown): StoredKey {
    const current = this.resolve(reference);
    const definition = parseKeyDefinition(body, current);
    this.db.prepare('UPDATE api_keys SET data = ? WHERE hash = ?').run(this.rowData(definition, current.hash), current.hash);
    // A new object, not a mutation: see findLiveByHash.
    const next: StoredKey = { ...current, ...definition };
    this.byHash.set(current.hash, next);
    return next;
  }

  delete(reference: string, now = Date.now()): void {
    const key = this.resolve(reference);
    this.db.prepare('UPDATE api_keys SET deleted_at = ? WHERE hash = ?').run(now, key.hash);
    key.deletedAt = now;
    this.purge(now);
  }

  restore(reference: string, now = Date.now()): StoredKey {
    const key = this.resolve(reference, true);
    if (key.deletedAt === null) return key;
    if (now - key.deletedAt > RESTORE_WINDOW_MS) throw createError('KEY_NOT_FOUND');
    this.db.prepare('UPDATE api_keys SET deleted_at = NULL WHERE hash = ?').run(key.hash);
    key.deletedAt = null;
    return key;
  }

  /** Forgets keys deleted longer ago than the restore window. */
  private purge(now: number): void {
    const cutoff = now - RESTORE_WINDOW_MS;
    this.db.prepare('DELETE FROM api_keys WHERE deleted_at IS NOT NULL AND deleted_at < ?').run(cutoff);
    for (const [hash, key] of this.byHash) {
      if (key.deletedAt !== null && key.deletedAt < cutoff) {
        this.byHash.delete(hash);
        this.ids.delete(hash);
      }
    }
  }
}

/** The shape `GET /1/keys/{key}` and `GET /1/keys` answer. `value` is the caller's value when known, else the reference. */
export function keyResponse(key: StoredKey, value?: string): Record<string, unknown> {
  return {
    value: value ?? `${KEY_REFERENCE_PREFIX}${key.hash}`,
    createdAt: key.createdAt,
    acl: key.acl,
    description: key.description,
    indexes: key.indexes,
    maxHitsPerQuery: key.maxHitsPerQuery,
    maxQueriesPerIPPerHour: key.maxQueriesPerIPPerHour,
    queryParameters: key.queryParameters,
    referers: key.referers,
    validity: key.validity,
  };
}
