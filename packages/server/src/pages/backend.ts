/**
 * The `PageBackend` the storefront's renderer reads through: the query routes' own code (`searchStore`,
 * `storeObjects`'s reads) in process, under the restrictions of the key it is given (the storefront's: `app.ts`), with
 * no HTTP round trip. Searches made for a rendered page are not logged as shoppers' searches (a crawler would
 * fill the analytics); they are made ready as the query routes' (`QueryVectors.prepare`: an index's default
 * hybrid), so that a rendered page shows what the shopper's browser then finds.
 */
import type { PageBackend, SearchParams } from '@vitrine/protocol';
import type { AuthContext } from '../auth/authenticate.ts';
import { requireIndex } from '../auth/authenticate.ts';
import { objectReads, recordReads, searchReads } from '../search/in-process.ts';
import type { ReadTarget } from '../search/reads.ts';
import type { Store } from '../storage/store.ts';
import type { QueryVectors } from '../embedders/query-vectors.ts';

export function storeBackend(store: Store, reads: ReadTarget, auth: AuthContext, queryVectors: QueryVectors): PageBackend {
  const prepare = (indexName: string, params: SearchParams) => queryVectors.prepare(store.registry, indexName, params);
  return {
    async search(requests) {
      return { results: await Promise.all(requests.map(({ indexName, params }) => {
        requireIndex(auth, indexName);
        return searchReads(store, reads, indexName, params ?? {}, auth, prepare);
      })) };
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
