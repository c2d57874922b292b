/**
 * Snapshots: `SearchIndex.saveSnapshot()` writes records, settings, synonyms and every derived structure
 * (postings, forward index, facet columns, customRanking order) as typed arrays in the container of
 * `format.ts`; `loadSnapshot` restores an index that answers exactly as the saved one, without re-tokenising.
 */
import { SearchIndex } from '../search-index.ts';
import { SnapshotReader } from './format.ts';
import type { SnapshotBytes } from './format.ts';

export { snapshotLayout, type SectionPlacement, type SnapshotBytes } from './format.ts';

/**
 * Restores an index from `saveSnapshot()` bytes, or from a file read with its growing sections apart
 * (`snapshotLayout`). The index keeps views into the bytes (no copy of the large arrays): do not modify them
 * afterwards. Throws `INVALID_SNAPSHOT` for anything that is not a sound snapshot.
 */
export function loadSnapshot(snapshot: Uint8Array | SnapshotBytes): SearchIndex {
  return SearchIndex.restore(new SnapshotReader(snapshot));
}
