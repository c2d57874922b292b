/**
 * Test harness of the insights plugin (not part of the public API): a Fastify app listening on a loopback
 * ephemeral port with the core's body parser, a small authentication hook honouring the routes' `acl` the way
 * the core app does, a search route that logs searches as the core's search routes are to, and a real engine
 * `SearchIndex` of demo products behind `InsightsDeps`. The insights database is a real file in a temp folder.
 */
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EngineError, SearchIndex, buildFilterNode } from '@vitrine/engine';
import { demoIndexName, demoSettings, generateProducts } from '@vitrine/demo';
import type { Product, SearchParams } from '@vitrine/protocol';
import type { AuthContext } from '../auth/authenticate.ts';
import { requireAcl, requireAdmin } from '../auth/authenticate.ts';
import type { Acl } from '../auth/acl.ts';
import { resolveLimits } from '../config.ts';
import { ApiError, createError } from '../errors.ts';
import { registerBodyParser } from '../http/body.ts';
import { newQueryID } from '../search/run.ts';
import type { Insights, InsightsOptions } from './index.ts';
import { registerInsights, searchLogEntry } from './index.ts';

export const APP_ID = 'insights-test';
export const ADMIN_KEY = 'insights-admin-key-0123456789abcdef';
export const SEARCH_KEY = 'insights-search-key-0123456789abcde';
/** A key with the `analytics` ACL only. */
export const ANALYTICS_KEY = 'insights-analytics-key-0123456789ab';
/** A search key forcing `price < 50` onto every search, as a secured key's filters would. */
export const CHEAP_ONLY_KEY = 'insights-cheap-only-key-0123456789';

export interface InsightsTestApp {
  app: FastifyInstance;
  insights: Insights;
  indices: Map<string, SearchIndex>;
  products: Product[];
  url: string;
  host: string;
  dataDir: string;
  /** JSON request with a key (admin by default), as the JS clients send it. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read many response shapes
  call(method: string, path: string, body?: unknown, key?: string): Promise<{ status: number; body: any }>;
  /** Searches through the logging search route. */
  search(params: SearchParams & { userToken?: string }, indexName?: string): Promise<{ queryID?: string; nbHits: number; hits: Array<{ objectID: string }> }>;
  close(): Promise<void>;
}

function credential(headers: Record<string, unknown>, query: Record<string, unknown>, name: string): string | undefined {
  const header = headers[name];
  if (typeof header === 'string') return header;
  for (const [key, value] of Object.entries(query)) if (key.toLowerCase() === name && typeof value === 'string') return value;
  return undefined;
}

function authOf(appId: string | undefined, key: string | undefined): AuthContext {
  if (appId !== APP_ID) throw createError('INVALID_CREDENTIALS');
  const base = { indexes: [], forcedParams: {}, forcedFilter: null, maxHitsPerQuery: 0 };
  if (key === ADMIN_KEY) return { kind: 'admin', acl: 'all', ...base };
  if (key === SEARCH_KEY) return { kind: 'search', acl: new Set<Acl>(['search']), ...base };
  if (key === ANALYTICS_KEY) return { kind: 'key', acl: new Set<Acl>(['analytics']), ...base };
  if (key === CHEAP_ONLY_KEY) return { kind: 'secured', acl: new Set<Acl>(['search']), ...base, forcedFilter: buildFilterNode({ filters: 'price < 50' }) };
  throw createError('INVALID_CREDENTIALS');
}

export async function startInsightsApp(options: {
  dataDir?: string;
  now?: () => number;
  productCount?: number;
  insightsOptions?: Partial<InsightsOptions>;
} = {}): Promise<InsightsTestApp> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'vitrine-insights-'));
  const products = [...generateProducts(options.productCount ?? 1500)];
  const catalogue = new SearchIndex(demoSettings);
  catalogue.saveObjects(products);
  const indices = new Map<string, SearchIndex>([[demoIndexName, catalogue]]);
  const indexOf = (name: string) => {
    const index = indices.get(name);
    if (!index) throw createError('INDEX_NOT_FOUND');
    return index;
  };

  const app = Fastify({ logger: false });
  app.setErrorHandler((error, _request, reply) => {
    const fastifyError = error as { statusCode?: number; message?: string };
    let status = 500;
    if (error instanceof ApiError) status = error.status;
    else if (error instanceof EngineError) status = 400;
    else if (typeof fastifyError.statusCode === 'number' && fastifyError.statusCode < 500) status = fastifyError.statusCode;
    if (status === 500) console.error(error);
    return reply.code(status).send({ message: status === 500 ? 'Internal error' : fastifyError.message, status });
  });
  let insights!: Insights;
  await app.register(async (api) => {
    registerBodyParser(api, resolveLimits({}));
    api.decorateRequest('auth', null);
    api.addHook('onRequest', async (request) => {
      const config = request.routeOptions.config;
      const query = (request.query ?? {}) as Record<string, unknown>;
      const auth = authOf(credential(request.headers, query, 'x-algolia-application-id'), credential(request.headers, query, 'x-algolia-api-key'));
      if (config?.acl) requireAcl(auth, config.acl);
      else requireAdmin(auth);
      request.auth = auth;
    });
    // What the core's search route does once the lead wires the insights in.
    api.post<{ Params: { indexName: string } }>('/1/indexes/:indexName/query', { config: { acl: 'search' } }, async (request) => {
      const params = (request.body ?? {}) as SearchParams;
      const response = indexOf(request.params.indexName).search(params);
      if (params.clickAnalytics === true) response.queryID = newQueryID();
      insights.recordSearch(searchLogEntry(request.params.indexName, params, response, { ip: request.ip }));
      return response;
    });
    insights = registerInsights(api, {
      dataDir,
      now: options.now,
      search: (name, params, auth) => indexOf(name).search({ ...params, ...(auth?.forcedParams ?? {}) }, undefined, auth?.forcedFilter ? { extraFilter: auth.forcedFilter } : undefined),
      getObjects: (name, ids) => ids.map((id) => indices.get(name)?.getObject(id) ?? null),
      listIndices: () => [...indices.keys()],
      async saveSuggestions(name, records, settings) {
        const index = new SearchIndex(settings);
        index.saveObjects(records);
        indices.set(name, index);
      },
      options: { modelRebuildIntervalMs: 0, suggestionsRebuildIntervalMs: 0, ...options.insightsOptions },
    });
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;
  const call = async (method: string, path: string, body?: unknown, key = ADMIN_KEY) => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': key, 'content-type': 'text/plain' },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
  };
  return {
    app,
    insights,
    indices,
    products,
    url,
    host: `127.0.0.1:${port}`,
    dataDir,
    call,
    async search(params, indexName = demoIndexName) {
      const { status, body } = await call('POST', `/1/indexes/${encodeURIComponent(indexName)}/query`, params, SEARCH_KEY);
      if (status !== 200) throw new Error(`search failed: ${status} ${JSON.stringify(body)}`);
      return body;
    },
    async close() {
      await app.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
