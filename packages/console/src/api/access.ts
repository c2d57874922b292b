/**
 * What the signed-in key may do. Only the admin key may list keys; any other key is told its own ACL by
 * `GET /1/keys/{key}` (the admin key is no key object: that call answers it 404). Every screen asks `can(...)` before
 * offering an action, and turns a 403 into a sentence naming the missing permission.
 */
import type { AdminClient } from './client.ts';

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
  // Listing keys first: only the admin key may, and so the admin key never travels in a URL path
  // (`/1/keys/{key}`), which a reverse proxy's access log would keep.
  try {
    await client.listApiKeys();
    return { admin: true, acl: new Set(allAcls), indexes: [], description: 'Admin API key' };
  } catch (error) {
    if (statusOf(error) !== 403) throw error;
  }
  const key = await client.getApiKey({ key: apiKey });
  return { admin: false, acl: new Set(key.acl), indexes: key.indexes ?? [], description: key.description ?? '' };
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
