/**
 * The caller of an insights request (recommendations), as `@vitrine/insights` sees it: it may ask whether an index
 * may be read and hands the caller back to the searches and record reads it runs, which apply the key's forced
 * parameters and filter from `auth`.
 */
import type { InsightsCaller } from '@vitrine/insights';
import type { AuthContext } from './authenticate.ts';
import { requireIndex } from './authenticate.ts';

export interface AuthCaller extends InsightsCaller {
  readonly auth: AuthContext;
}

export function insightsCaller(auth: AuthContext): AuthCaller {
  return {
    auth,
    requireIndex: (indexName) => requireIndex(auth, indexName),
    // Keys forcing the same filter see the same records: they share cached trending-facet rankings.
    visibilityKey: JSON.stringify(auth.forcedFilter ?? null),
  };
}
