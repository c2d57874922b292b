/**
 * Searches and record reads of in-process callers (insights, the storefront's rendered pages, the CLI's seeding,
 * tests): the same code path as the query routes, over the store's indexes. Without `auth` (trusted callers)
 * nothing is forced; with a caller's auth, its forced parameters and filters apply. `searchStore` and
 * `storeObjects` read this thread's registry (a server without search threads); `searchReads` and `objectReads`
 * go wherever the records are (`ReadTarget`: the search threads when the server has them).
 */
import type { IndexRecord, SearchParams, SearchResponse } from '@vitrine/protocol';
import type { AuthContext } from '../auth/authenticate.ts';
import { validateSearchParams } from '../http/params.ts';
import type { Store } from '../storage/store.ts';
import { withLearning, type LearningSource, type Searcher } from './learning.ts';
import { labelResponse, type QuerySpec } from './queries.ts';
import { readAuth, type ReadTarget } from './reads.ts';
import { readObjects, runSearch, withForcedParams } from './run.ts';

/** The parameters as the query routes check them, with what the caller's key forces on top. */
function checkedParams(store: Store, params: SearchParams, auth: AuthContext | null): SearchParams {
  return withForcedParams(validateSearchParams({ ...params }, store.limits), auth, store.limits);
}

/** A search as the query routes run it; 404 for a missing index. */
export function searchStore(store: Store, indexName: string, params: SearchParams, auth: AuthContext | null = null): SearchResponse {
  return runSearch(store.registry, indexName, checkedParams(store, params, auth), readAuth(auth));
}

/**
 * Records by objectID, in order; null for missing ones (all of them on a missing index) and, with a caller's
 * auth, for those outside its forced filter. Attributes are not trimmed.
 */
export function storeObjects(store: Store, indexName: string, objectIDs: readonly string[], auth: AuthContext | null = null): Array<IndexRecord | null> {
  return readObjects(store.registry, indexName, objectIDs, auth);
}

/** Makes a search ready as the query routes do before it goes to a thread (`embedders/query-vectors.ts`). */
export type SearchPreparer = (indexName: string, params: SearchParams) => Promise<{ params: SearchParams; queryVector?: number[] }>;

/** One default query answered by `reads` after `prepare`, with what it carries of learning, labelled as the routes label it. */
async function readQuery(reads: ReadTarget, query: QuerySpec, auth: AuthContext | null, withIndex: boolean, prepare?: SearchPreparer): Promise<SearchResponse> {
  const ready = prepare === undefined ? { params: query.params } : await prepare(query.indexName, query.params);
  const { reRanking, personalization } = query;
  const response = await reads.read({
    kind: 'search', indexName: query.indexName, params: ready.params, auth: readAuth(auth),
    ...(ready.queryVector === undefined ? {} : { queryVector: ready.queryVector }),
    ...(reRanking === undefined ? {} : { reRanking }),
    ...(personalization === undefined ? {} : { personalization }),
  });
  return labelResponse(query, response, withIndex);
}

/** `searchStore`, answered by `reads`; `prepare`: the query routes' own step (the index's default hybrid, the query's vector). */
export function searchReads(store: Store, reads: ReadTarget, indexName: string, params: SearchParams, auth: AuthContext | null = null, prepare?: SearchPreparer): Promise<SearchResponse> {
  return readQuery(reads, { indexName, type: 'default', params: checkedParams(store, params, auth) }, auth, false, prepare);
}

/**
 * A multi-query's searches as the query routes make them for `searcher`: checked, sent to their A/B test's
 * variant with what the shop learned (`withLearning`), made ready (`prepare`), each answered by `reads` and
 * labelled as a multi-query's results are (the index named, the test and variant, query categorization).
 */
export function learnedSearchReads(store: Store, reads: ReadTarget, requests: ReadonlyArray<{ indexName: string; params: SearchParams }>, searcher: Searcher, insights: LearningSource, prepare?: SearchPreparer): Promise<SearchResponse[]> {
  const queries: QuerySpec[] = requests.map(({ indexName, params }) => ({ indexName, type: 'default', params: checkedParams(store, params, searcher.auth) }));
  return Promise.all(withLearning(queries, searcher, insights, store.registry, store.limits).map((query) => readQuery(reads, query, searcher.auth, true, prepare)));
}

/** `storeObjects`, answered by `reads`. */
export function objectReads(reads: ReadTarget, indexName: string, objectIDs: readonly string[], auth: AuthContext | null = null): Promise<Array<IndexRecord | null>> {
  return reads.read({ kind: 'objects', indexName, objectIDs: [...objectIDs], auth: readAuth(auth) });
}

/**
 * Every record of an index, a page at a time, with only `attributes` (and objectID): nothing highlighted or
 * snippeted, which the engine would otherwise do for every hit of every page.
 */
export async function* recordReads(reads: ReadTarget, indexName: string, attributes: readonly string[], auth: AuthContext | null = null): AsyncGenerator<IndexRecord> {
  const params: SearchParams = { hitsPerPage: 1000, attributesToRetrieve: [...attributes], attributesToHighlight: [], attributesToSnippet: [] };
  let cursor: string | undefined;
  do {
    const page = await reads.read({ kind: 'browse', indexName, params: cursor ? { ...params, cursor } : params, auth: readAuth(auth) });
    yield* page.hits;
    cursor = page.cursor;
  } while (cursor);
}

