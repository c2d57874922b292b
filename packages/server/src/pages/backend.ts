/**
 * The `PageBackend` the storefront's renderer reads through: the query routes' own code (`searchStore`,
 * `storeObjects`) in process, under the restrictions of the key it is given (the storefront's: `app.ts`), with
 * no HTTP round trip. Searches made for a rendered page are not logged as shoppers' searches (a crawler would
 * fill the analytics).
 */
import type { IndexRecord, PageBackend } from '@vitrine/protocol';
import type { AuthContext } from '../auth/authenticate.ts';
import { requireIndex } from '../auth/authenticate.ts';
import { searchStore, storeObjects } from '../search/in-process.ts';
import type { Store } from '../storage/store.ts';

export function storeBackend(store: Store, auth: AuthContext): PageBackend {
  return {
    async search(requests) {
      return { results: requests.map(({ indexName, params }) => {
        requireIndex(auth, indexName);
        return searchStore(store, indexName, params ?? {}, auth);
      }) };
    },
    async getObjects(indexName, objectIDs) {
      requireIndex(auth, indexName);
      return storeObjects(store, indexName, objectIDs, auth);
    },
    *records(indexName, attributes) {
      requireIndex(auth, indexName);
      const entry = store.registry.get(indexName);
      if (!entry) return;
      for (const record of store.registry.recordsOf(entry)) {
        const picked: IndexRecord = { objectID: record.objectID };
        for (const attribute of attributes) if (attribute in record) picked[attribute] = record[attribute];
        yield picked;
      }
    },
  };
}
