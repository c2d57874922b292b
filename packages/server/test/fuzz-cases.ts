/**
 * The request-parsing fuzz cases, shared by the unit suite (`fuzz.test.ts`, a few hundred inputs each) and the
 * long run outside CI (`bench/fuzz-requests.ts`, a million and more): random bodies, random params strings and
 * random paths against the real app. Whatever arrives, the answer is never a 5xx (the clients would retry it on
 * another host) and every error carries Algolia's `{ message, status }` body.
 */
import fc from 'fast-check';
import { createHmac } from 'node:crypto';
import { SEARCH_KEY } from '../src/test-support.ts';
import type { TestApp } from '../src/test-support.ts';

const ROUTES: Array<[string, string]> = [
  ['POST', '/1/indexes/fuzz/query'],
  ['POST', '/1/indexes/*/queries'],
  ['POST', '/1/indexes/fuzz/browse'],
  ['POST', '/1/indexes/fuzz/facets/brand/query'],
  ['POST', '/1/indexes/fuzz/batch'],
  ['POST', '/1/indexes/*/batch'],
  ['POST', '/1/indexes/*/objects'],
  ['POST', '/1/indexes/fuzz/p1/partial'],
  ['PUT', '/1/indexes/fuzz/p1'],
  ['PUT', '/1/indexes/fuzz/settings'],
  ['POST', '/1/indexes/fuzz/deleteByQuery'],
  ['POST', '/1/indexes/fuzz/operation'],
  ['POST', '/1/indexes/fuzz/synonyms/batch'],
  ['POST', '/1/indexes/fuzz/synonyms/search'],
  ['POST', '/1/keys'],
  ['POST', '/1/events'],
  ['POST', '/1/indexes/*/recommendations'],
];

/** Bodies shaped like real requests, with random values where the server must be defensive. */
const requestLike = fc.oneof(
  fc.jsonValue(),
  fc.record({ requests: fc.array(fc.record({ indexName: fc.constantFrom('fuzz', '', 'other'), action: fc.string(), body: fc.jsonValue(), params: fc.string(), type: fc.constantFrom('default', 'facet', 'x'), facet: fc.string() }, { requiredKeys: [] }), { maxLength: 4 }) }),
  fc.record({ query: fc.jsonValue(), filters: fc.jsonValue(), facetFilters: fc.jsonValue(), hitsPerPage: fc.jsonValue(), page: fc.jsonValue(), facets: fc.jsonValue(), params: fc.string() }, { requiredKeys: [] }),
  fc.record({
    requests: fc.array(fc.record({
      indexName: fc.constantFrom('fuzz', 'other'), model: fc.constantFrom('related-products', 'bought-together', 'trending-items', 'trending-facets', 'looking-similar', 'x'),
      objectID: fc.oneof(fc.constant('p1'), fc.jsonValue()), facetName: fc.jsonValue(), facetValue: fc.jsonValue(), threshold: fc.jsonValue(),
      maxRecommendations: fc.jsonValue(), queryParameters: fc.jsonValue(), fallbackParameters: fc.jsonValue(),
    }, { requiredKeys: [] }), { maxLength: 3 }),
  }),
  fc.record({ events: fc.array(fc.dictionary(fc.constantFrom('eventType', 'eventName', 'index', 'userToken', 'objectIDs', 'positions', 'queryID'), fc.jsonValue()), { maxLength: 3 }) }),
);

const ANALYTICS = ['searches', 'searches/count', 'searches/noResults', 'clicks/clickThroughRate', 'conversions/revenue', 'hits', 'filters', 'filters/brand', 'users/count', 'status'];
const ANALYTICS_PARAMS = ['index', 'startDate', 'endDate', 'limit', 'offset', 'tags', 'orderBy', 'direction', 'search', 'clickAnalytics'];

/** Search parameters, each given any JSON value below (or, in a params string, any text). */
const SEARCH_PARAMS = [
  'query', 'filters', 'facetFilters', 'numericFilters', 'tagFilters', 'optionalFilters', 'facets', 'page', 'hitsPerPage',
  'offset', 'length', 'maxValuesPerFacet', 'sortFacetValuesBy', 'attributesToRetrieve', 'attributesToHighlight',
  'attributesToSnippet', 'highlightPreTag', 'highlightPostTag', 'snippetEllipsisText', 'restrictHighlightAndSnippetArrays',
  'restrictSearchableAttributes', 'typoTolerance', 'minWordSizefor1Typo', 'minWordSizefor2Typos', 'allowTyposOnNumericTokens',
  'disableTypoToleranceOnAttributes', 'ignorePlurals', 'removeStopWords', 'queryLanguages', 'queryType', 'removeWordsIfNoResults',
  'advancedSyntax', 'advancedSyntaxFeatures', 'optionalWords', 'exactOnSingleWordQuery', 'alternativesAsExact', 'distinct',
  'getRankingInfo', 'clickAnalytics', 'analytics', 'analyticsTags', 'userToken', 'synonyms', 'replaceSynonymsInHighlight',
  'minProximity', 'responseFields', 'aroundLatLng', 'aroundRadius', 'aroundPrecision', 'minimumAroundRadius',
  'insideBoundingBox', 'insidePolygon', 'facetingAfterDistinct', 'sumOrFiltersScores', 'relevancyStrictness', 'cursor',
  'facetQuery', 'maxFacetHits', 'ruleContexts', 'enableRules', 'percentileComputation', 'naturalLanguages',
];
/** Settings, each given any JSON value. */
const SETTINGS = [
  'searchableAttributes', 'attributesForFaceting', 'customRanking', 'ranking', 'replicas', 'unretrievableAttributes',
  'attributesToRetrieve', 'attributeForDistinct', 'distinct', 'separatorsToIndex', 'hitsPerPage', 'paginationLimitedTo',
  'maxValuesPerFacet', 'typoTolerance', 'minWordSizefor1Typo', 'ignorePlurals', 'removeStopWords', 'queryLanguages',
  'highlightPreTag', 'attributesToSnippet', 'numericAttributesForFiltering', 'sortFacetValuesBy', 'renderingContent',
  'userData', 'optionalWords', 'disableTypoToleranceOnAttributes', 'exactOnSingleWordQuery', 'relevancyStrictness',
];
const anyValue = fc.oneof(fc.jsonValue(), fc.constantFrom<unknown>({ toString: [] }, { valueOf: 1 }, [{ toString: 1 }], '__proto__', JSON.parse('{"__proto__":{"polluted":1}}') as unknown));
const searchParams = fc.dictionary(fc.constantFrom(...SEARCH_PARAMS), anyValue, { maxKeys: 5 });

const SECURED_PARAMS = ['restrictIndices', 'restrictSources', 'referers', 'userToken', 'validUntil', 'filters', 'facetFilters', 'hitsPerPage', 'attributesToRetrieve', 'query'];

/** A search with a secured key derived from the search key, as the clients generate them, with `params`. */
function securedSearch(params: string): FuzzRequest {
  const key = Buffer.from(createHmac('sha256', SEARCH_KEY).update(params).digest('hex') + params).toString('base64');
  return { method: 'POST', url: '/1/indexes/fuzz/query', body: '{}', key };
}

/** One request to send: method, URL, body (none for GET and DELETE) and the API key (the admin key if absent). */
export interface FuzzRequest {
  method: string;
  url: string;
  body?: string;
  key?: string;
}

export interface FuzzCase {
  name: string;
  /** Inputs per run of the unit suite. */
  ciRuns: number;
  requests: fc.Arbitrary<FuzzRequest>;
  /** Inputs the long run found failing (since fixed): every run tries them first. */
  found?: FuzzRequest[];
}

export const FUZZ_CASES: FuzzCase[] = [
  {
    name: 'random JSON bodies on every route',
    ciRuns: 400,
    requests: fc.tuple(fc.constantFrom(...ROUTES), requestLike).map(([[method, url], body]) => ({ method, url, body: JSON.stringify(body) })),
    found: [
      // A page size `Number()` threw on (an object whose toString is not a function): a 500.
      { method: 'POST', url: '/1/indexes/fuzz/synonyms/search', body: '{"hitsPerPage":{"toString":[]}}' },
    ],
  },
  {
    name: 'random raw bytes and random params strings',
    ciRuns: 300,
    requests: fc
      .tuple(fc.constantFrom(...ROUTES), fc.oneof(fc.string(), fc.string().map((s) => JSON.stringify({ params: s }))))
      .map(([[method, url], body]) => ({ method, url, body, key: SEARCH_KEY })),
  },
  {
    name: 'random paths and query strings',
    ciRuns: 300,
    requests: fc
      .tuple(fc.constantFrom('GET', 'POST', 'PUT', 'DELETE'), fc.webPath(), fc.webQueryParameters())
      .map(([method, path, query]) => ({ method, url: `/1/indexes${path}?${query}`, body: method === 'GET' || method === 'DELETE' ? undefined : '{}' })),
  },
  {
    name: 'random analytics requests',
    ciRuns: 300,
    requests: fc
      .tuple(fc.constantFrom(...ANALYTICS), fc.webQueryParameters(), fc.dictionary(fc.constantFrom(...ANALYTICS_PARAMS), fc.string()))
      .map(([route, raw, named]) => ({ method: 'GET', url: `/2/${route}?${new URLSearchParams(named).toString()}&${raw}` })),
  },
  {
    name: 'random values for every search parameter, as JSON fields and as a params string',
    ciRuns: 400,
    requests: fc.tuple(fc.constantFrom('/1/indexes/fuzz/query', '/1/indexes/fuzz/browse', '/1/indexes/fuzz/facets/brand/query', '/1/indexes/*/queries'), searchParams, fc.boolean()).map(([url, params, asString]) => {
      const encoded = asString ? { params: new URLSearchParams(Object.entries(params).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])).toString() } : params;
      const body = url === '/1/indexes/*/queries' ? { requests: [{ indexName: 'fuzz', ...encoded }] } : encoded;
      return { method: 'POST', url, body: JSON.stringify(body), key: SEARCH_KEY };
    }),
  },
  {
    name: 'random values for every setting',
    ciRuns: 200,
    requests: fc.dictionary(fc.constantFrom(...SETTINGS), anyValue, { maxKeys: 3 }).map((settings) => ({ method: 'PUT', url: '/1/indexes/fuzz/settings', body: JSON.stringify(settings) })),
  },
  {
    // Anyone holding a search key can generate a secured key from it, with whatever restrictions they like.
    name: 'secured keys with random restrictions',
    ciRuns: 300,
    requests: fc
      .dictionary(fc.constantFrom(...SECURED_PARAMS), fc.oneof(fc.string(), fc.jsonValue().map((value) => JSON.stringify(value))), { maxKeys: 4 })
      .map((restrictions) => securedSearch(new URLSearchParams(restrictions).toString())),
    found: [
      // Restrictions read with `String()`, which throws on an object whose toString is no function: 500s.
      securedSearch('restrictIndices=%7B%22toString%22%3A%5B%5D%7D'),
      securedSearch('restrictIndices=%5B%7B%22toString%22%3A1%7D%5D'),
      securedSearch('restrictSources=%7B%22toString%22%3A1%7D'),
      securedSearch('referers=%7B%22toString%22%3A1%7D'),
    ],
  },
  {
    name: 'random user tokens to delete',
    ciRuns: 100,
    requests: fc.string().map((token) => ({ method: 'DELETE', url: `/1/usertokens/${encodeURIComponent(token)}` })),
  },
];

/** What is wrong with an answer, or null: a 5xx, or an error without Algolia's `{ message, status }` body. */
export function answerProblem(statusCode: number, text: string): string | null {
  if (statusCode >= 500) return `status ${statusCode}: ${text.slice(0, 300)}`;
  if (statusCode < 400) return null;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `status ${statusCode} with a body that is not JSON: ${text.slice(0, 300)}`;
  }
  const { message, status, ...rest } = (body ?? {}) as Record<string, unknown>;
  if (typeof message !== 'string' || status !== statusCode || Object.keys(rest).length > 0) return `status ${statusCode} with the body ${text.slice(0, 300)}`;
  return null;
}

/**
 * The case as a fast-check property over the app `t`: each request sent, an answer that is a 5xx or an error
 * not in Algolia's shape throws, saying what was wrong; `answered` runs after each good answer.
 */
export function caseProperty(t: TestApp, fuzzCase: FuzzCase, answered: () => void = () => {}) {
  return fc.asyncProperty(fuzzCase.requests, async ({ method, url, body, key }) => {
    const response = await t.call(method, url, body, key);
    const problem = answerProblem(response.statusCode, response.body);
    if (problem !== null) throw new Error(`${method} ${url}: ${problem}`);
    answered();
  });
}

/** The inputs a long run found, as fast-check examples: tried before the random ones. */
export function foundExamples(fuzzCase: FuzzCase): Array<[FuzzRequest]> {
  return (fuzzCase.found ?? []).map((request) => [request]);
}

/** The index the cases name: a searchable facet and one record (`p1`), so searches and partial updates find them. */
export async function seedFuzzIndex(t: TestApp): Promise<void> {
  await t.settle(await t.call('PUT', '/1/indexes/fuzz/settings', { attributesForFaceting: ['searchable(brand)'] }));
  await t.settle(await t.call('PUT', '/1/indexes/fuzz/p1', { brand: 'Lumio', price: 3 }));
}
