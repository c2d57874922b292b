/**
 * What the signed-in key may do. `GET /1/keys/{key}` tells a key its own ACL; the admin key is no key object
 * (that call answers 404) but may list keys, which only the admin key can. Every screen asks `can(...)` before
 * offering an action, and turns a 403 into a sentence naming the missing permission.
 */
import type { AdminClient } from '../lib/search-client.ts';

/** Algolia's ACL names, as keys carry them. */
export type Acl =
  | 'search' | 'browse' | 'addObject' | 'deleteObject' | 'listIndexes' | 'deleteIndex' | 'settings'
  | 'editSettings' | 'analytics' | 'recommendation' | 'usage' | 'logs' | 'seeUnretrievableAttributes';

export const allAcls: Acl[] = [
  'search', 'browse', 'addObject', 'deleteObject', 'listIndexes', 'deleteIndex', 'settings', 'editSettings',
  'analytics', 'recommendation', 'usage', 'logs', 'seeUnretrievableAttributes',
];

export interface Access {
  admin: boolean;
  acl: ReadonlySet<string>;
  /** Index patterns the key is limited to (empty: every index). */
  indexes: string[];
  description: string;
}

export function can(access: Access, acl: Acl): boolean {
  return access.admin || access.acl.has(acl);
}

/** The HTTP status of a failed client call (the client's ApiError carries it), or 0 for a network failure. */
export function statusOf(error: unknown): number {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : 0;
}

export async function resolveAccess(client: AdminClient, apiKey: string): Promise<Access> {
  try {
    const key = await client.getApiKey({ key: apiKey });
    return { admin: false, acl: new Set(key.acl), indexes: key.indexes ?? [], description: key.description ?? '' };
  } catch (error) {
    if (statusOf(error) !== 404) throw error;
  }
  // Not a key object: the admin key, if it may list keys.
  await client.listApiKeys();
  return { admin: true, acl: new Set(allAcls), indexes: [], description: 'Admin API key' };
}

/** A failure in the operator's terms: a 403 names the permission the action needs; the key never appears. */
export function describeError(error: unknown, action: string, needed?: Acl | 'admin'): string {
  const status = statusOf(error);
  const message = error instanceof Error ? error.message : String(error);
  if (status === 403) {
    const missing = needed === 'admin' ? 'the admin API key' : needed ? `the "${needed}" permission (ACL)` : 'a permission it lacks';
    return `This key may not ${action}: it needs ${missing}. The server said: ${message}`;
  }
  if (status === 0) return `Could not ${action}: ${message}`;
  return `Could not ${action} (HTTP ${status}): ${message}`;
}
