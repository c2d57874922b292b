/**
 * `buildApp(deps)`: the Fastify application, without listening (tests drive it with `app.inject()`).
 *
 * Layout: the Algolia API (`/1/...`, `/2/...`) is one encapsulated plugin with the body parser, CORS and
 * authentication (and compression of its answers); routes live in `routes/<resource>.ts`. Outside it:
 * `/vitrine.config.json`, the storefront's static files (SPA fallback) and routes added by `config.extend`.
 * Every answer carries the security headers (`http/security-headers.ts`). Every error, including unknown routes
 * and wrong methods, answers Algolia's `{ message, status }`.
 */
import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import type { FastifyHttpOptions, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { EngineError } from '@vitrine/engine';
import type { SearchObserver, ServerConfig, ServerLimits } from './config.ts';
import { resolveLimits } from './config.ts';
import { ApiError, createError } from './errors.ts';
import { openInsights, searchLogEntry } from '@vitrine/insights';
import type { Insights } from '@vitrine/insights';
import { Authenticator, requireAcl, requireAdmin, requireIndex } from './auth/authenticate.ts';
import { KeyStore } from './auth/api-keys.ts';
import { AllowedSources, registerSourceGate } from './auth/allowed-sources.ts';
import type { AuthCaller } from './auth/insights-caller.ts';
import { ApiLogs } from './http/api-logs.ts';
import { countryReader } from './http/country.ts';
import { registerBodyParser } from './http/body.ts';
import { clientErrorHandler, MAX_PATH_PARAM_LENGTH, routerErrorHandler } from './http/client-error.ts';
import { registerCompression } from './http/compression.ts';
import { registerCors } from './http/cors.ts';
import { RouteTable } from './http/route-table.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { registerStorefront, wantsAppShell } from './http/static.ts';
import type { Store } from './storage/store.ts';
import { isRecommendRuleModel } from './storage/recommend-rules.ts';
import { searchRoutes } from './routes/search.ts';
import { objectRoutes } from './routes/objects.ts';
import { indexRoutes } from './routes/indexes.ts';
import { settingsRoutes } from './routes/settings.ts';
import { synonymRoutes } from './routes/synonyms.ts';
import { ruleRoutes } from './routes/rules.ts';
import { dictionaryRoutes } from './routes/dictionaries.ts';
import { taskRoutes } from './routes/tasks.ts';
import { keyRoutes } from './routes/keys.ts';
import { sourceRoutes } from './routes/sources.ts';
import { LOGS_ROUTE, logRoutes } from './routes/logs.ts';
import { backupRoutes } from './routes/backup.ts';
import { embedderRoutes } from './routes/embedders.ts';
import { QueryVectors } from './embedders/query-vectors.ts';
import { DocumentVectors } from './embedders/document-vectors.ts';
import { LocalModels } from './embedders/local-models.ts';
import { MODELS_DIR } from './storage/data-folder.ts';
import { insightsRoutes } from './routes/insights.ts';
import { recommendRuleRoutes } from './routes/recommend-rules.ts';
import { abTestRoutes } from './routes/abtests/abtests.ts';
import { personalizationRoutes } from './routes/personalization.ts';
import type { RouteDeps } from './routes/deps.ts';
import { objectReads, searchReads } from './search/in-process.ts';
import { localReads, type ReadTarget } from './search/reads.ts';
import { storeBackend } from './pages/backend.ts';
import { pageSearcher } from './pages/shopper.ts';
import { registerPages } from './pages/page-routes.ts';
import type { PageSender } from './pages/page-routes.ts';
import { loadPageRenderer } from './pages/renderer.ts';
import { SearchThreads } from './search/threads.ts';
import { loggingOptions, registerRequestId } from './observability/logging.ts';
import { AppMetrics } from './observability/metrics.ts';
import { registerMetrics } from './observability/metrics-route.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Insights, analytics, recommendations and query suggestions of this app (`@vitrine/insights`). */
    insights: Insights<AuthCaller>;
    /** The search threads, when `config.searchThreads` > 0. */
    searchThreads: SearchThreads | undefined;
    /** What `/1/isalive` says: alive (200) or not ready (503); see `ServerConfig.ready`. */
    setReady(ready: boolean): void;
    /** Fills records' vectors of rest embedders (`embedders/document-vectors.ts`). */
    documentVectors: DocumentVectors;
  }
}

export interface AppDeps {
  store: Store;
  config: Pick<ServerConfig, 'appId' | 'adminApiKey' | 'searchApiKey'> & Partial<ServerConfig>;
  limits?: ServerLimits;
  /** Where request logs go when `config.log` is set (default `config.logStream`, else stdout); tests pass a capture stream. */
  logStream?: NodeJS.WritableStream;
}

/**
 * Routes where `*` in the path stands for "the indexes named in the body", each checked by the route (the task
 * route reads no index). Anywhere else `*` is an index name like any other, checked against the key's scope.
 */
const MULTI_INDEX_ROUTES = new Set([
  '/1/indexes/:indexName/batch',
  '/1/indexes/:indexName/objects',
  '/1/indexes/:indexName/queries',
  '/1/indexes/:indexName/recommendations',
  '/1/indexes/:indexName/task/:taskID',
]);

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const limits = deps.limits ?? resolveLimits(deps.config.limits);
  const options: FastifyHttpOptions<Server> = {
    // One JSON line per request, with its id (`observability/logging.ts`).
    ...loggingOptions(deps.config, deps.logStream),
    // The search cap by default; write routes raise it (onRoute below), so Fastify stops reading early.
    bodyLimit: limits.maxSearchBodyBytes,
    // Slow clients cannot hold a connection forever; large imports still have minutes per request.
    requestTimeout: 300_000,
    trustProxy: deps.config.trustProxy ?? false,
    // Index names and objectIDs can be long and contain any character.
    routerOptions: { maxParamLength: MAX_PATH_PARAM_LENGTH, ignoreTrailingSlash: true },
    clientErrorHandler,
    frameworkErrors: routerErrorHandler,
  };
  const app = Fastify(options);
  registerRequestId(app);
  const keys = new KeyStore(deps.store.db);
  const authenticator = new Authenticator(deps.config, keys, limits);
  const sources = new AllowedSources(deps.store.db);
  const routes = new RouteTable();

  await registerSecurityHeaders(app, deps.config.storefrontConfig);
  // Before every route (the storefront's too): an address outside a non-empty list gets 403 and nothing else.
  registerSourceGate(app, sources, (request) => authenticator.presentsAdminKey(request));
  app.setErrorHandler((error, request, reply) => sendError(error, request, reply));
  let pages: PageSender | undefined;
  app.setNotFoundHandler((request, reply) => notFound(request, reply, routes, deps.config.staticRoot, pages));

  let ready = deps.config.ready ?? true;
  app.decorate('setReady', (value: boolean) => (ready = value));
  let insights: Insights<AuthCaller> | undefined;
  let threads: SearchThreads | undefined;
  let vectorFillers: DocumentVectors | undefined;
  // Local models (huggingFace embedders) run on a thread of their own, started at their first use.
  const localModels = new LocalModels(deps.config.modelsDir ?? join(deps.store.dataDir, MODELS_DIR));
  app.addHook('onClose', async () => localModels.close());
  const queryVectors = new QueryVectors(limits, localModels);
  // Reads of records go to the search threads when the server has them (they hold the only copy), else here.
  const localRecordReads = localReads(deps.store.registry);
  const reads: ReadTarget = { read: (call) => (threads ?? localRecordReads).read(call) };
  // Load balancers and start-up scripts ask it: alive only once the catalogue is there, loaded (after a restart)
  // here and in a search thread, so that searches are answered at full speed from the first.
  const alive = () => ready && deps.store.loaded && (threads === undefined || threads.started);
  // Health checks come from a load balancer's own addresses: answered whatever the allowed sources.
  app.get('/1/isalive', { config: { public: true, anySource: true } }, async () => {
    if (!alive()) throw createError('NOT_READY');
    return { message: 'server is alive' };
  });
  // `GET /metrics`: the admin key or a key with the `usage` ACL.
  const metrics = new AppMetrics({ store: deps.store, threads: () => threads, alive });
  registerMetrics(app, metrics, (request) => requireAcl(authenticator.authenticate(request), 'usage'));

  const apiLogs = new ApiLogs(limits.apiLogEntries);
  await app.register(async (api) => {
    registerBodyParser(api, limits);
    registerCors(api);
    // Before compression: the logs read answers as sent, not compressed.
    apiLogs.register(api, LOGS_ROUTE);
    await registerCompression(api);
    api.addHook('onRoute', (route) => {
      routes.add(route.method, route.url);
      // A route's own cap (`/1/events`: 2 MB, as the Insights API) wins over the write routes' default.
      if (route.config?.largeBody && route.bodyLimit === undefined) route.bodyLimit = limits.maxWriteBodyBytes;
    });
    api.decorateRequest('auth', null);
    api.addHook('onRequest', async (request) => {
      const config = request.routeOptions.config;
      if (config?.public || request.method === 'OPTIONS') return;
      // A server listening while it loads (`startServer`) holds requests until the state is whole.
      if (!deps.store.loaded) await deps.store.load();
      const auth = authenticator.authenticate(request);
      if (config?.acl) requireAcl(auth, config.acl);
      else if (!config?.anyKey) requireAdmin(auth);
      const indexName = (request.params as { indexName?: string } | undefined)?.indexName;
      if (indexName !== undefined && !(indexName === '*' && MULTI_INDEX_ROUTES.has(request.routeOptions.url ?? ''))) requireIndex(auth, indexName);
      request.auth = auth;
    });
    const store = deps.store;
    const opened = openInsights<AuthCaller>({
      dataDir: store.dataDir,
      search: (indexName, params, caller) => afterLoad(store, () => searchReads(store, reads, indexName, params, caller?.auth ?? null)),
      getObjects: (indexName, ids, caller) => afterLoad(store, () => objectReads(reads, indexName, ids, caller?.auth ?? null)),
      listIndices: () => afterLoad(store, () => store.listIndices()),
      recommendRules: (indexName, model) => afterLoad(store, () => (isRecommendRuleModel(model) ? store.registry.recommendRules.list(indexName, model) : [])),
      saveSuggestions: (indexName, records, settings) => store.replaceIndex(indexName, records, settings),
      options: deps.config.insights,
      now: deps.config.now,
    });
    api.addHook('onClose', () => opened.stop());
    insights = opened;
    const observer = deps.config.onSearch;
    const onSearch: SearchObserver = (search) => {
      opened.recordSearch(searchLogEntry(search.indexName, search.params, search.response, { userToken: search.userToken, ip: search.ip, country: search.country, abTest: search.abTest }));
      observer?.(search);
    };
    // Search threads live as long as the app: stopped (and their replicas dropped) when it closes.
    if ((deps.config.searchThreads ?? 0) > 0) {
      const started = new SearchThreads(store, deps.config.searchThreads!);
      api.addHook('onClose', () => started.close());
      threads = started;
    }
    // Rest embedders: query texts embedded before a search goes to a thread; records' vectors filled after writes,
    // from the operations applied (and at start, for records whose vector a crash left out).
    const documentVectors = new DocumentVectors(store, reads, limits, localModels);
    const stopFollowing = store.onApplied((ops) => ops.forEach((applied) => documentVectors.noteApplied(applied.op)));
    // Over a store still loading, `startServer` wakes them once it is loaded.
    if (store.loaded) documentVectors.wakeAll();
    vectorFillers = documentVectors;
    api.addHook('onClose', async () => {
      stopFollowing();
      documentVectors.close();
    });
    const routeDeps: RouteDeps = { store, limits, keys, sources, onSearch, searchTimed: (seconds) => metrics.observeSearch(seconds), insights: opened, apiLogs, countryOf: countryReader(deps.config.trustProxy), reads, queryVectors, localModels, documentVectors, ...(threads ? { threads } : {}) };
    insightsRoutes(api, routeDeps);
    searchRoutes(api, routeDeps);
    objectRoutes(api, routeDeps);
    indexRoutes(api, routeDeps);
    settingsRoutes(api, routeDeps);
    synonymRoutes(api, routeDeps);
    ruleRoutes(api, routeDeps);
    recommendRuleRoutes(api, routeDeps);
    abTestRoutes(api, routeDeps);
    personalizationRoutes(api, routeDeps);
    dictionaryRoutes(api, routeDeps);
    taskRoutes(api, routeDeps);
    keyRoutes(api, routeDeps);
    sourceRoutes(api, routeDeps);
    logRoutes(api, routeDeps);
    backupRoutes(api, routeDeps, deps.config.onBackupStep);
    embedderRoutes(api, routeDeps);
    for (const extension of deps.config.apiExtensions ?? []) await extension(api);
  });

  app.decorate('insights', insights!);
  app.decorate('searchThreads', threads);
  app.decorate('documentVectors', vectorFillers!);

  if (deps.config.storefrontConfig) {
    const body = JSON.stringify(deps.config.storefrontConfig);
    app.get('/vitrine.config.json', async (_request, reply) => reply.header('cache-control', 'no-cache').type('application/json').send(body));
  }
  const { staticRoot, storefrontConfig, storefrontRenderer } = deps.config;
  const rendered = staticRoot !== undefined && storefrontConfig !== undefined && storefrontRenderer !== undefined;
  if (staticRoot) {
    // With server rendering, `/` is a page like the others (not the static index.html).
    await registerStorefront(app, staticRoot, { serveIndex: !rendered });
  }
  if (rendered) {
    const backend = storeBackend(deps.store, reads, authenticator.searchKeyContext(), queryVectors);
    const configuredKey = typeof storefrontConfig.searchApiKey === 'string' ? storefrontConfig.searchApiKey : '';
    // A page reads with the storefront key's rights, checked as the shopper's browser would be (from the
    // shopper's address, the page as referer); a key this server did not issue (hosted Algolia) reads as the
    // search-only key. A refused key fails the render: the shopper gets the app shell.
    const backendFor = (request: FastifyRequest, origin: string) => {
      const referer = `${origin}${request.url}`;
      const context = authenticator.configuredKeyContext(configuredKey, { ip: request.ip, referer });
      // Searched with what the shop learned, for this shopper when the page's cookie names them (`pages/shopper.ts`).
      return storeBackend(deps.store, reads, context ?? authenticator.searchKeyContext(), queryVectors, { searcher: pageSearcher(request), insights: insights! });
    };
    const onCatalogueChange = (listener: () => void) => void deps.store.onApplied(listener);
    pages = await registerPages(app, { renderer: await loadPageRenderer(storefrontRenderer), backend, backendFor, staticRoot, storefrontConfig, onCatalogueChange, publicUrl: deps.config.publicUrl });
  }
  for (const extend of deps.config.extend ?? []) await extend(app);
  return app;
}

/** `read()` now when the store is loaded, else once it is (insights may ask while a restart loads it). */
function afterLoad<T>(store: Store, read: () => T | Promise<T>): T | Promise<T> {
  return store.loaded ? read() : store.load().then(read);
}

/** Every error as Algolia's body. Anything that is not a known caller mistake is a 500 (`internalError`). */
function sendError(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  let status: number;
  let message: string;
  // An ApiError of status 500 is a failure too: a search thread's carries the thread's stack as its message.
  // Other statuses are deliberate answers, 503 "not ready" among them.
  if (error instanceof ApiError && error.status !== 500) {
    ({ status, message } = error);
  } else if (error instanceof EngineError) {
    status = 400;
    message = error.message;
  } else {
    const fastifyError = error as { statusCode?: number; message?: string; code?: string };
    if (error instanceof ApiError || typeof fastifyError.statusCode !== 'number' || fastifyError.statusCode < 400 || fastifyError.statusCode >= 500) {
      return internalError(error, request, reply);
    }
    status = fastifyError.statusCode;
    message = fastifyError.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? 'Request body too large' : (fastifyError.message ?? 'Bad request');
  }
  return reply.code(status).type('application/json').send({ message, status });
}

/**
 * The client gets a generic message and an id (in the body and `x-algolia-request-id`), never the error: its
 * message and stack name files and internals. The error goes to the log under that id (to stderr when requests
 * are not logged), so a report quoting the id finds it.
 */
function internalError(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const id = randomUUID();
  if (request.log.level && request.log.level !== 'silent') request.log.error({ err: error, errorId: id }, 'internal error');
  else console.error(`Internal error ${id}:`, error);
  const { status, message } = createError('INTERNAL');
  return reply.code(status).header('x-algolia-request-id', id).type('application/json').send({ message, status, id });
}

async function notFound(request: FastifyRequest, reply: FastifyReply, routes: RouteTable, staticRoot: string | undefined, pages: PageSender | undefined): Promise<FastifyReply> {
  const path = request.url.split('?')[0];
  const api = path.startsWith('/1/') || path.startsWith('/2/');
  // Page addresses (`/p/…`, `/c/…`, `/search?…`) are server-rendered when a renderer is configured; else they
  // get the app shell, and the app routes itself.
  if (staticRoot && wantsAppShell(request, staticRoot)) return pages ? pages.send(request, reply) : reply.sendFile('index.html');
  if (api && routes.otherMethods(request.method, path)) {
    return sendError(createError('METHOD_NOT_ALLOWED', request.method, path), request, reply);
  }
  return sendError(createError('ROUTE_NOT_FOUND', request.method, path), request, reply);
}
