/**
 * API keys created through `/1/keys`. Only a SHA-256 hash of each key is stored: a stolen database does not
 * yield usable keys. The key value is returned once, at creation. Listing cannot return values it does not
 * have, so it returns a reference (`sha256:<hex>`) that every `/1/keys/{key}` route accepts in place of the
 * value (documented in COMPATIBILITY.md). Deleted keys are kept, restorable, for 72 hours.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../storage/db.ts';
import { createError } from '../errors.ts';
import { isAcl } from './acl.ts';
import type { Acl } from './acl.ts';

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

export class KeyStore {
  /** Every key row, by hash, cached: authentication never touches SQLite. */
  private readonly byHash = new Map<string, StoredKey>();

  constructor(private readonly db: Db) {
    const rows = db.prepare('SELECT hash, data, created_at, deleted_at FROM api_keys').all() as Array<{ hash: string; data: string; created_at: number; deleted_at: number | null }>;
    for (const row of rows) {
      this.byHash.set(row.hash, { ...(JSON.parse(row.data) as ApiKeyDefinition), hash: row.hash, createdAt: row.created_at, deletedAt: row.deleted_at });
    }
  }

  /** The live key with this value, or undefined (also for expired and deleted keys). */
  findByValue(value: string, now = Date.now()): StoredKey | undefined {
    const key = this.byHash.get(hashKey(value));
    if (!key || key.deletedAt !== null) return undefined;
    if (key.validity > 0 && now > key.createdAt + key.validity * 1000) return undefined;
    return key;
  }

  /** A key addressed in a `/1/keys/{key}` path: its value, or the `sha256:` reference that listing returns. */
  private resolve(reference: string, includeDeleted = false): StoredKey {
    const hash = reference.startsWith(KEY_REFERENCE_PREFIX) ? reference.slice(KEY_REFERENCE_PREFIX.length) : hashKey(reference);
    const key = this.byHash.get(hash);
    if (!key || (key.deletedAt !== null && !includeDeleted)) throw createError('KEY_NOT_FOUND');
    return key;
  }

  create(definition: ApiKeyDefinition, now = Date.now()): { value: string; key: StoredKey } {
    const value = randomBytes(16).toString('hex');
    const key: StoredKey = { ...definition, hash: hashKey(value), createdAt: now, deletedAt: null };
    this.db.prepare('INSERT INTO api_keys (hash, data, created_at, deleted_at) VALUES (?, ?, ?, NULL)').run(key.hash, JSON.stringify(definition), now);
    this.byHash.set(key.hash, key);
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
    this.db.prepare('UPDATE api_keys SET data = ? WHERE hash = ?').run(JSON.stringify(definition), current.hash);
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
    for (const [hash, key] of this.byHash) if (key.deletedAt !== null && key.deletedAt < cutoff) this.byHash.delete(hash);
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
