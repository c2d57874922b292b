/** Test helper for the ranking criteria: index a tiny corpus, return the objectIDs in ranking order. */
import type { IndexSettings, SearchParams } from '@vitrine/protocol';
import { SearchIndex } from '../../search-index.ts';

export function ranked(records: Array<Record<string, unknown>>, settings: IndexSettings, params: SearchParams, override?: IndexSettings): string[] {
  const index = new SearchIndex(settings);
  index.saveObjects(records.map((r) => ({ ...r, objectID: String(r.objectID) })));
  return index.search({ hitsPerPage: 100, ...params }, override).hits.map((h) => h.objectID);
}
