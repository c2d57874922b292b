/**
 * Who is calling: the admin key, the search-only key, a stored key or a secured key derived from the search key.
 * Credentials come from the `x-algolia-api-key` / `x-algolia-application-id` headers or the same names in the
 * query string (any case). Keys are compared in constant time (SHA-256 digests through `timingSafeEqual`);
 * verified secured keys are cached; failed attempts are counted per client IP and answered with 429 past a budget.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { buildFilterNode } from '@vitrine/engine';
import type { FilterNode } from '@vitrine/engine';
import type { ServerLimits } from '../config.ts';
import { createError } from '../errors.ts';
import { parseParamsString } from '../http/params.ts';
import { engineCheck } from '../storage/validate.ts';
import { indexAllowed, refererAllowed, sourceAllowed } from './acl.ts';
import type { Acl } from './acl.ts';
import type { KeyStore, StoredKey } from './api-keys.ts';
import { WindowCounter } from './rate-limit.ts';
import { decodeSecuredKey, parseRestrictions, verifySecuredKey } from './secured.ts';

export interface AuthContext {
  kind: 'admin' | 'search' | 'key' | 'secured';
  /** 'all' for the admin key. */
  acl: ReadonlySet<Acl> | 'all';
  /** Index patterns the key may touch (empty = all), and the secured key's own restriction on top. */
  indexes: readonly string[];
  restrictIndices?: readonly string[];
  /** Search parameters forced onto every query, filters excluded (they are in `forcedFilter`). */
  forcedParams: Record<string, unknown>;
  /** Filters forced by the key, ANDed with the request's as syntax trees so no request can widen them. */
  forcedFilter: FilterNode | null;
  /** 0 = no cap. */
  maxHitsPerQuery: number;
  /** SHA-256 (hex) of the key used, so a key can read its own permissions (`GET /1/keys/{itself}`). */
  keyHash?: string;
}

const FILTER_PARAMS = ['filters', 'facetFilters', 'numericFilters', 'tagFilters'] as const;
const SEARCH_ACL: ReadonlySet<Acl> = new Set<Acl>(['search']);
const SECURED_CACHE_SIZE = 10_000;
const MAX_CACHED_KEY_LENGTH = 2048;
const HOUR_MS = 3600 * 1000;

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

function sameSecret(given: Buffer, expected: Buffer): boolean {
  return timingSafeEqual(given, expected);
}

/** Splits forced parameters into plain parameters and one filter tree. */
function forcedFrom(params: Record<string, unknown>): { forcedParams: Record<string, unknown>; forcedFilter: FilterNode | null } {
  const forcedParams = { ...params };
  const filterParams: Record<string, unknown> = {};
  for (const name of FILTER_PARAMS) {
    if (forcedParams[name] !== undefined) filterParams[name] = forcedParams[name];
    delete forcedParams[name];
  }
  const forcedFilter = engineCheck(() => buildFilterNode(filterParams as Parameters<typeof buildFilterNode>[0]));
  return { forcedParams, forcedFilter };
}

function credential(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers[name];
  if (typeof header === 'string' && header !== '') return header;
  const query = request.query as Record<string, unknown> | undefined;
  if (query) {
    for (const [key, value] of Object.entries(query)) {
      if (key.toLowerCase() === name && typeof value === 'string' && value !== '') return value;
    }
  }
  return undefined;
}

export class Authenticator {
  private readonly adminDigest: Buffer;
  private readonly searchDigest: Buffer;
  private readonly appIdDigest: Buffer;
  private readonly securedCache = new Map<string, { context: AuthContext; validUntil?: number; restrictSources?: string; referers?: string[] }>();
  private readonly failures = new WindowCounter(HOUR_MS);
  private readonly queries = new WindowCounter(HOUR_MS);

  constructor(
    private readonly config: { appId: string; adminApiKey: string; searchApiKey: string },
    private readonly keys: KeyStore,
    private readonly limits: ServerLimits,
  ) {
    this.adminDigest = digest(config.adminApiKey);
    this.searchDigest = digest(config.searchApiKey);
    this.appIdDigest = digest(config.appId);
  }

  authenticate(request: FastifyRequest): AuthContext {
    const ip = request.ip;
    if (this.failures.peek(ip) >= this.limits.maxFailedAuthPerIPPerHour) throw createError('TOO_MANY_FAILED_AUTH');
    const appId = credential(request, 'x-algolia-application-id');
    const apiKey = credential(request, 'x-algolia-api-key');
    if (appId === undefined || apiKey === undefined || !sameSecret(digest(appId), this.appIdDigest)) return this.fail(ip);
    const keyDigest = digest(apiKey);
    const keyHash = keyDigest.toString('hex');
    if (sameSecret(keyDigest, this.adminDigest)) {
      return { kind: 'admin', acl: 'all', indexes: [], forcedParams: {}, forcedFilter: null, maxHitsPerQuery: 0, keyHash };
    }
    if (sameSecret(keyDigest, this.searchDigest)) {
      return { kind: 'search', acl: SEARCH_ACL, indexes: [], forcedParams: {}, forcedFilter: null, maxHitsPerQuery: 0, keyHash };
    }
    const stored = this.keys.findByValue(apiKey);
    if (stored) return this.storedContext(stored, request, ip);
    return this.securedContext(apiKey, request, ip) ?? this.fail(ip);
  }

  private fail(ip: string): never {
    this.failures.hit(ip);
    throw createError('INVALID_CREDENTIALS');
  }

  private referer(request: FastifyRequest): string | undefined {
    const value = request.headers.referer ?? request.headers.origin;
    return typeof value === 'string' ? value : undefined;
  }

  private storedContext(key: StoredKey, request: FastifyRequest, ip: string): AuthContext {
    if (!refererAllowed(key.referers, this.referer(request))) throw createError('REFERER_NOT_ALLOWED');
    const forced = key.queryParameters ? parseParamsString(key.queryParameters) : {};
    const { restrictSources, ...rest } = forced;
    if (typeof restrictSources === 'string' && !sourceAllowed(restrictSources, ip)) throw createError('SOURCE_NOT_ALLOWED');
    if (key.maxQueriesPerIPPerHour > 0 && this.queries.hit(`${key.hash}|${ip}`) > key.maxQueriesPerIPPerHour) {
      throw createError('TOO_MANY_QUERIES', key.maxQueriesPerIPPerHour);
    }
    return { kind: 'key', acl: new Set(key.acl), indexes: key.indexes, ...forcedFrom(rest), maxHitsPerQuery: key.maxHitsPerQuery, keyHash: key.hash };
  }

  private securedContext(apiKey: string, request: FastifyRequest, ip: string): AuthContext | undefined {
    let cached = this.securedCache.get(apiKey);
    if (!cached) {
      const decoded = decodeSecuredKey(apiKey);
      if (!decoded || !verifySecuredKey(this.config.searchApiKey, decoded)) return undefined;
      const restrictions = parseRestrictions(decoded.params);
      const { forcedParams, forcedFilter } = forcedFrom(restrictions.searchParams);
      if (restrictions.userToken !== undefined) forcedParams.userToken = restrictions.userToken;
      const context: AuthContext = {
        kind: 'secured',
        acl: SEARCH_ACL,
        indexes: [],
        restrictIndices: restrictions.restrictIndices,
        forcedParams,
        forcedFilter,
        maxHitsPerQuery: 0,
      };
      cached = { context, validUntil: restrictions.validUntil, restrictSources: restrictions.restrictSources, referers: restrictions.referers };
      // The search key is public, so anyone can mint secured keys up to the header size (16 KB): only usual-sized
      // ones are cached, which bounds the cache's memory; larger ones are verified on every request.
      if (apiKey.length <= MAX_CACHED_KEY_LENGTH) {
        if (this.securedCache.size >= SECURED_CACHE_SIZE) this.securedCache.delete(this.securedCache.keys().next().value!);
        this.securedCache.set(apiKey, cached);
      }
    }
    if (cached.validUntil !== undefined && Date.now() / 1000 > cached.validUntil) throw createError('KEY_EXPIRED');
    if (!sourceAllowed(cached.restrictSources, ip)) throw createError('SOURCE_NOT_ALLOWED');
    if (!refererAllowed(cached.referers, this.referer(request))) throw createError('REFERER_NOT_ALLOWED');
    return cached.context;
  }
}

export function hasAcl(context: AuthContext, acl: Acl): boolean {
  return context.acl === 'all' || context.acl.has(acl);
}

export function requireAcl(context: AuthContext, acl: Acl): void {
  if (!hasAcl(context, acl)) throw createError('ACL_DENIED');
}

export function requireAdmin(context: AuthContext): void {
  if (context.kind !== 'admin') throw createError('ACL_DENIED');
}

export function requireIndex(context: AuthContext, indexName: string): void {
  if (!indexAllowed(context.indexes, indexName) || !indexAllowed(context.restrictIndices, indexName)) {
    throw createError('INDEX_NOT_ALLOWED');
  }
}
