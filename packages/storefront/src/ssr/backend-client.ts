/**
 * The search client the server renderer hands to the shop's code: the `algoliasearch` lite client's shape,
 * answered by the server's in-process `PageBackend` instead of HTTP. InstantSearch sends its queries as
 * `[{ indexName, params }]`; the shop's own calls use the v5 form `{ requests: [{ indexName, ...params }] }`;
 * the product page reads records through `customPost` on the objects route.
 */
import type { PageBackend, SearchParams } from '@vitrine/protocol';
import type { SearchClient } from '../lib/search-client.ts';

type QueryRequest = { indexName: string; params?: SearchParams } & SearchParams;

function toBackendRequest(request: QueryRequest): { indexName: string; params: SearchParams } {
  const { indexName, params, ...flat } = request;
  return { indexName, params: { ...flat, ...(params ?? {}) } };
}

export function backendSearchClient(backend: PageBackend): SearchClient {
  const client = {
    appId: 'server-renderer',
    search(input: QueryRequest[] | { requests: QueryRequest[] }) {
      const requests = Array.isArray(input) ? input : input.requests;
      return backend.search(requests.map(toBackendRequest));
    },
    async customPost({ path, body }: { path: string; body?: { requests?: Array<{ indexName: string; objectID: string }> } }) {
      if (path !== '1/indexes/*/objects' || !body?.requests) throw new Error(`the server renderer cannot call ${path}`);
      const byIndex = body.requests;
      const results = await Promise.all(byIndex.map(async ({ indexName, objectID }) => (await backend.getObjects(indexName, [objectID]))[0] ?? null));
      return { results };
    },
    // Recommendations and facet searches are asked for in the browser only (after hydration).
    getRecommendations() {
      return Promise.resolve({ results: [] });
    },
    clearCache() {
      return Promise.resolve();
    },
    addAlgoliaAgent() {},
  };
  return client as unknown as SearchClient;
}
