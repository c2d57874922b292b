/**
 * The keys API (`/1/keys`), admin key only: create, list, get, update, delete, restore. Stored hashed; see
 * auth/api-keys.ts for what that changes in the responses.
 */
import type { FastifyInstance } from 'fastify';
import type { RouteDeps } from './deps.ts';
import { hashKey, KEY_REFERENCE_PREFIX, keyResponse, parseKeyDefinition } from '../auth/api-keys.ts';
import type { StoredKey } from '../auth/api-keys.ts';
import { createError } from '../errors.ts';

/** What the configured search-only key is allowed, shown when it reads its own permissions. */
const SEARCH_KEY_DEFINITION: StoredKey = {
  hash: '',
  createdAt: 0,
  deletedAt: null,
  acl: ['search'],
  description: 'Search-only API key',
  indexes: [],
  maxHitsPerQuery: 0,
  maxQueriesPerIPPerHour: 0,
  queryParameters: '',
  referers: [],
  validity: 0,
};

type KeyParams = { key: string };

/** The caller's key value when the path holds one (not a `sha256:` reference). */
function valueOf(reference: string): string | undefined {
  return reference.startsWith(KEY_REFERENCE_PREFIX) ? undefined : reference;
}

export function keyRoutes(app: FastifyInstance, { keys }: RouteDeps): void {
  app.post('/1/keys', async (request) => {
    const { value, key } = keys.create(parseKeyDefinition(request.body));
    return { key: value, createdAt: new Date(key.createdAt).toISOString() };
  });

  app.get('/1/keys', async () => ({ keys: keys.list().map((key) => keyResponse(key)) }));

  // Any key may read its own permissions (as Algolia's `search` ACL on this route); other keys need the admin key.
  app.get<{ Params: KeyParams }>('/1/keys/:key', { config: { anyKey: true } }, async (request) => {
    const auth = request.auth!;
    const reference = request.params.key;
    if (auth.kind !== 'admin') {
      const own = valueOf(reference) !== undefined && hashKey(reference) === auth.keyHash;
      if (!own) throw createError('ACL_DENIED');
      if (auth.kind === 'search') return { ...keyResponse(SEARCH_KEY_DEFINITION, reference), createdAt: 0 };
    }
    return keyResponse(keys.get(reference), valueOf(reference));
  });

  app.put<{ Params: KeyParams }>('/1/keys/:key', async (request) => {
    keys.update(request.params.key, request.body);
    return { key: request.params.key, updatedAt: new Date().toISOString() };
  });

  app.delete<{ Params: KeyParams }>('/1/keys/:key', async (request) => {
    keys.delete(request.params.key);
    return { deletedAt: new Date().toISOString() };
  });

  app.post<{ Params: KeyParams }>('/1/keys/:key/restore', async (request) => {
    const key = keys.restore(request.params.key);
    return { key: request.params.key, createdAt: new Date(key.createdAt).toISOString() };
  });
}
