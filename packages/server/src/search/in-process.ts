/**
 * Searches and record reads of in-process callers (insights, the CLI's seeding, tests): the same code path as
 * the query routes, on the main thread, over the store's indexes. Without `auth` (trusted callers) nothing is
 * forced; with a caller's auth, its forced parameters and filters apply.
 */
import type { IndexRecord, SearchParams, SearchResponse } from '@vitrine/protocol';
import type { AuthContext } from '../auth/authenticate.ts';
import { validateSearchParams } from '../http/params.ts';
import type { Store } from '../storage/store.ts';
import { readObjects, runSearch, withForcedParams } from './run.ts';

/** A search as the query routes run it; 404 for a missing index. */
export function searchStore(store: Store, indexName: string, params: SearchParams, auth: AuthContext | null = null): SearchResponse {
  return runSearch(store.registry, indexName, withForcedParams(validateSearchParams({ ...params }, store.limits), auth, store.limits), auth);
}

/**
 * Records by objectID, in order; null for missing ones (all of them on a missing index) and, with a caller's
 * auth, for those outside its forced filter. Attributes are not trimmed.
 */
export function storeObjects(store: Store, indexName: string, objectIDs: readonly string[], auth: AuthContext | null = null): Array<IndexRecord | null> {
  return readObjects(store.registry, indexName, objectIDs, auth);
}
