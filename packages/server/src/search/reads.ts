/**
 * Reads of records other than search calls: records by objectID, browse pages, facet-value searches, single
 * searches of in-process callers (the storefront's rendered pages, recommendations) and index sizes.
 *
 * With search threads the main thread holds no records (`IndexRegistry.recordsHere`): one copy of each index,
 * in the threads, rather than two (the main thread's copy doubled the server's memory during an import). So these
 * reads go to a thread like search calls, as a `ReadCall` that `readIndexes` answers there; without threads they
 * are answered here by the same function.
 */
import type { ReRankingInput } from '@vitrine/engine';
import type { BrowseResponse, IndexRecord, SearchForFacetValuesResponse, SearchParams, SearchPersonalization, SearchResponse } from '@vitrine/protocol';
import type { AuthContext } from '../auth/authenticate.ts';
import { hasAcl } from '../auth/authenticate.ts';
import type { IndexEntry, IndexRegistry } from '../storage/registry.ts';
import { readObjects, runBrowse, runFacetSearch, runSearch, type SearchAuth } from './run.ts';

/** What a read may carry of the caller's key across threads (`SearchAuth`), nothing else. */
export type ReadAuth = SearchAuth;

export type ReadCall =
  | { kind: 'objects'; indexName: string; objectIDs: string[]; auth: ReadAuth }
  | { kind: 'browse'; indexName: string; params: SearchParams & { cursor?: string }; auth: ReadAuth }
  | { kind: 'facets'; indexName: string; facet: string; params: SearchParams; auth: ReadAuth }
  /**
   * `queryVector`: the query text's vector for a hybrid search (`embedders/query-vectors.ts`); `reRanking` and
   * `personalization`: what the shop learned, as a search call's query carries it (`learning.ts`).
   */
  | { kind: 'search'; indexName: string; params: SearchParams; auth: ReadAuth; queryVector?: number[]; reRanking?: ReRankingInput; personalization?: SearchPersonalization }
  | { kind: 'sizes'; indexNames: string[] }
  /** Records still without a vector of a rest embedder (`embedders/document-vectors.ts`), those in `skip` left out. */
  | { kind: 'vectorless'; indexName: string; embedder: string; limit: number; skip: string[] }
  | { kind: 'vectorCounts'; indexName: string; embedders: string[] };

/** An index's record count and the size of its records as JSON (`GET /1/indexes`). */
export interface IndexSize {
  entries: number;
  dataSize: number;
}

export interface ReadResults {
  objects: Array<IndexRecord | null>;
  browse: BrowseResponse;
  facets: SearchForFacetValuesResponse;
  search: SearchResponse;
  sizes: IndexSize[];
  vectorless: IndexRecord[];
  vectorCounts: { records: number; vectors: number[] };
}

export type ReadResult<C extends ReadCall> = ReadResults[C['kind']];

/** Strips a key down to what a read needs (an `AuthContext` holds more, not all of it cloneable). */
export function readAuth(auth: AuthContext | null): ReadAuth {
  if (!auth) return null;
  const read: NonNullable<ReadAuth> = { forcedFilter: auth.forcedFilter, forcedParams: auth.forcedParams };
  if (auth.maxHitsPerQuery > 0) read.maxHitsPerQuery = auth.maxHitsPerQuery;
  if (hasAcl(auth, 'seeUnretrievableAttributes')) read.unretrievableFacets = true;
  return read;
}

/** The indexes a read looks at (a thread applies what it has received of them first). */
export function indexesRead(call: ReadCall): string[] {
  return call.kind === 'sizes' ? call.indexNames : [call.indexName];
}

/** Answers a read from `registry` (the same code on the main thread and in a search thread). */
export function readIndexes<C extends ReadCall>(registry: IndexRegistry, call: C): ReadResult<C> {
  return answer(registry, call) as ReadResult<C>;
}

function answer(registry: IndexRegistry, call: ReadCall): ReadResults[keyof ReadResults] {
  switch (call.kind) {
    case 'objects':
      return readObjects(registry, call.indexName, call.objectIDs, call.auth);
    case 'browse':
      return runBrowse(registry, call.indexName, call.params, call.auth);
    case 'facets':
      return runFacetSearch(registry, call.indexName, call.facet, call.params, call.auth);
    case 'search':
      return runSearch(registry, call.indexName, call.params, call.auth, call.queryVector, call.reRanking, call.personalization);
    case 'vectorless': {
      const engine = registry.get(call.indexName)?.engine;
      const skip = new Set(call.skip);
      return engine === undefined ? [] : engine.vectorless(call.embedder, call.limit + skip.size).filter((record) => !skip.has(record.objectID)).slice(0, call.limit);
    }
    case 'vectorCounts': {
      const engine = registry.get(call.indexName)?.engine;
      return { records: engine?.size ?? 0, vectors: call.embedders.map((name) => engine?.vectorCount(name) ?? 0) };
    }
    case 'sizes':
      return call.indexNames.map((name) => {
        const entry = registry.get(name);
        return entry ? { entries: registry.sizeOf(entry), dataSize: dataSize(registry, entry) } : { entries: 0, dataSize: 0 };
      });
  }
}

/** Records measured exactly; past it the size is extrapolated from their average (listing must stay cheap). */
const SIZE_SAMPLE = 10_000;

/**
 * Size of the records in bytes (JSON), cached per index state. Exact up to SIZE_SAMPLE records, an estimate
 * beyond: serialising a million records on every listing would block searches for seconds.
 */
const sizeCache = new WeakMap<IndexEntry, { updatedAt: string; bytes: number }>();
function dataSize(registry: IndexRegistry, entry: IndexEntry): number {
  if (!entry.engine) return 0;
  const cached = sizeCache.get(entry);
  if (cached && cached.updatedAt === entry.updatedAt) return cached.bytes;
  let bytes = 0;
  let measured = 0;
  for (const record of registry.recordsOf(entry)) {
    bytes += Buffer.byteLength(JSON.stringify(record));
    if (++measured === SIZE_SAMPLE) break;
  }
  const size = registry.sizeOf(entry);
  const total = measured < size && measured > 0 ? Math.round((bytes / measured) * size) : bytes;
  sizeCache.set(entry, { updatedAt: entry.updatedAt, bytes: total });
  return total;
}

/** Where reads are answered: a search thread (`SearchThreads.read`), or this thread's registry. */
export interface ReadTarget {
  read<C extends ReadCall>(call: C): Promise<ReadResult<C>>;
}

/** The reads of a server without search threads: answered here, from the main thread's records. */
export function localReads(registry: IndexRegistry): ReadTarget {
  return {
    read: async <C extends ReadCall>(call: C) => readIndexes(registry, call),
  };
}
