/**
 * The `PageBackend` the storefront's renderer reads through: the query routes' own code (`searchStore`,
 * `storeObjects`'s reads) in process, under the restrictions of the key it is given (the storefront's: `app.ts`), with
 * no HTTP round trip. Searches made for a rendered page are not logged as shoppers' searches (a crawler would
 * fill the analytics); they are made ready as the query routes' (`QueryVectors.prepare`: an index's default
 * hybrid), so that a rendered page shows what the shopper's browser then finds. A shopper's page (`shopper`: the
 * shopper's address and, when the request carries it, user token) is searched with what the shop learned, as the
 * query routes search (`learnedSearchReads`): re-ranking's boosts, query categorization and, with a user token,
 * the shopper's A/B test variant and personalization.
 */
import type { PageBackend, SearchParams } from '@vitrine/protocol';
import type { AuthContext } from '../auth/authenticate.ts';
import { requireIndex } from '../auth/authenticate.ts';
import { learnedSearchReads, objectReads, recordReads, searchReads } from '../search/in-process.ts';
import type { LearningSource, Searcher } from '../search/learning.ts';
import type { ReadTarget } from '../search/reads.ts';
import type { Store } from '../storage/store.ts';
import type { QueryVectors } from '../embedders/query-vectors.ts';

/** A shopper's page: who asks (without the key, which is the backend's) and where learning's models are. */
export interface PageShopper {
  searcher: Omit<Searcher, 'auth'>;
  insights: LearningSource;
}

export function storeBackend(store: Store, reads: ReadTarget, auth: AuthContext, queryVectors: QueryVectors, shopper?: PageShopper): PageBackend {
  const prepare = (indexName: string, params: SearchParams) => queryVectors.prepare(store.registry, indexName, params);
  return {
    async search(requests) {
      for (const { indexName } of requests) requireIndex(auth, indexName);
      if (shopper !== undefined) {
        const checked = requests.map(({ indexName, params }) => ({ indexName, params: params ?? {} }));
        return { results: await learnedSearchReads(store, reads, checked, { ...shopper.searcher, auth }, shopper.insights, prepare) };
      }
      return { results: await Promise.all(requests.map(({ indexName, params }) => searchReads(store, reads, indexName, params ?? {}, auth, prepare))) };
    },
    async getObjects(indexName, objectIDs) {
      requireIndex(auth, indexName);
      return objectReads(reads, indexName, objectIDs, auth);
    },
    records(indexName, attributes) {
      requireIndex(auth, indexName);
      if (!store.registry.has(indexName)) return (async function* () {})();
      return recordReads(reads, indexName, attributes, auth);
    },
  };
}
