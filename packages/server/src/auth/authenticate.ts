/**
 * Who is calling: the admin key, the search-only key, a stored key or a secured key whose parent is the search-only
 * key or a stored key (any key with the `search` ACL but the admin key, as Algolia).
 * Credentials come from the `x-algolia-api-key` / `x-algolia-application-id` headers or the same names in the
 * query string (any case). Keys are compared in constant time (SHA-256 digests through `timingSafeEqual`);
 * verified secured keys are cached; failed attempts are counted per client IP and, past a budget, answered 429
 * rather than 403 (`FailedAuthBudget`); keys that authenticate are never refused for their IP's failures.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { andFilterNodes, buildFilterNode } from '@vitrine/engine';
import type { FilterNode } from '@vitrine/engine';
import type { ServerLimits } from '../config.ts';
import { createError } from '../errors.ts';
import { parseParamsString } from '../http/params.ts';
import { engineCheck } from '../engine-errors.ts';
import { indexAllowed, refererAllowed, sourceAllowed } from './acl.ts';
import type { Acl } from './acl.ts';
import type { KeyStore, StoredKey } from './api-keys.ts';
import { FailedAuthBudget, WindowCounter } from './rate-limit.ts';
import { decodeSecuredKey, parseRestrictions, verifySecuredKey } from './secured.ts';
import type { SecuredRestrictions } from './secured.ts';

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
  /**
   * SHA-256 (hex) of the key whose per-key limits apply (events per minute): the key itself, or a secured key's
   * parent, so that minting secured keys from the public search key buys no budget of its own.
   */
  limitKey: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Who is calling, set by the API scope's authentication hook (null on public routes). */
    auth: AuthContext | null;
  }
  interface FastifyContextConfig {
    /** ACL a key needs for this route; routes without one (and not `public`) are admin-only. */
    acl?: Acl;
    /** No credentials needed (`/1/isalive`). */
    public?: boolean;
    /** Any valid key (task status). */
    anyKey?: boolean;
  }
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

/**
 * Why a secured key is refused before its own restrictions are read: not a secured key, signed by no key of
 * this server (`unsigned`: a verification was spent), or signed by a key that is gone or lost `search`.
 */
type SecuredRefusal = 'malformed' | 'unsigned' | 'orphaned';

/** A secured key's parent: a stored key, or null for the configured search-only key. */
type Parent = StoredKey | null;

/** What a secured key allows: its own restrictions combined with its parent's, ready for each request. */
interface SecuredGrant {
  /** The parent object it was built from: the key store replaces a key's object on update, so a different one means rebuild. */
  parent: Parent;
  context: AuthContext;
  /** Unix time in seconds. */
  validUntil?: number;
  userToken?: string;
  /** Source lists (parent's, secured key's): each must allow the caller. */
  sources: Array<string | undefined>;
  /** Referer lists (parent's, secured key's): each must allow the caller. */
  referers: Array<readonly string[] | undefined>;
}

interface SecuredEntry {
  /** Hash of the stored parent, null for the search-only key: found again on each request, so deleting, expiring or updating it applies at once. */
  parentHash: string | null;
  /** Kept for keys up to MAX_CACHED_KEY_LENGTH only (see securedContext). */
  grant?: SecuredGrant;
}

export class Authenticator {
  private readonly adminDigest: Buffer;
  private readonly searchDigest: Buffer;
  private readonly appIdDigest: Buffer;
  /** Verified secured keys, by SHA-256 of the key: the map never holds the keys themselves (up to 16 KB each). */
  private readonly securedCache = new Map<string, SecuredEntry>();
  private readonly failures: FailedAuthBudget;
  private readonly queries = new WindowCounter(HOUR_MS);

  constructor(
    private readonly config: { appId: string; adminApiKey: string; searchApiKey: string },
    private readonly keys: KeyStore,
    limits: ServerLimits,
  ) {
    this.adminDigest = digest(config.adminApiKey);
    this.searchDigest = digest(config.searchApiKey);
    this.appIdDigest = digest(config.appId);
    this.failures = new FailedAuthBudget(limits.maxFailedAuthPerIPPerHour, HOUR_MS);
  }

  authenticate(request: FastifyRequest): AuthContext {
    const ip = request.ip;
    const appId = credential(request, 'x-algolia-application-id');
    const apiKey = credential(request, 'x-algolia-api-key');
    const keyDigest = digest(apiKey ?? '');
    return this.identify(request, ip, appId, apiKey, keyDigest, keyDigest.toString('hex'));
  }

  private identify(request: FastifyRequest, ip: string, appId: string | undefined, apiKey: string | undefined, keyDigest: Buffer, keyHash: string): AuthContext {
    if (appId === undefined || apiKey === undefined || !sameSecret(digest(appId), this.appIdDigest)) return this.fail(ip, keyHash, false);
    if (sameSecret(keyDigest, this.adminDigest)) {
      return { kind: 'admin', acl: 'all', indexes: [], forcedParams: {}, forcedFilter: null, maxHitsPerQuery: 0, keyHash, limitKey: keyHash };
    }
    if (sameSecret(keyDigest, this.searchDigest)) return this.searchKeyContext();
    const stored = this.keys.findByValue(apiKey);
    if (stored) return this.storedContext(stored, this.referer(request), ip);
    return this.securedContext(apiKey, keyHash, this.referer(request), ip, (reason) => this.fail(ip, keyHash, reason === 'unsigned'));
  }

  /**
   * Whether the request carries the application id and the admin key (compared as `authenticate` does), for the
   * allowed sources' loopback rule; a mismatch counts against no budget (no key was refused yet).
   */
  presentsAdminKey(request: FastifyRequest): boolean {
    const appId = credential(request, 'x-algolia-application-id');
    const apiKey = credential(request, 'x-algolia-api-key');
    return appId !== undefined && apiKey !== undefined && sameSecret(digest(appId), this.appIdDigest) && sameSecret(digest(apiKey), this.adminDigest);
  }

  /** What the search-only key may do; in-process readers acting for the storefront (the page renderer) use it. */
  searchKeyContext(): AuthContext {
    const keyHash = this.searchDigest.toString('hex');
    return { kind: 'search', acl: SEARCH_ACL, indexes: [], forcedParams: {}, forcedFilter: null, maxHitsPerQuery: 0, keyHash, limitKey: keyHash };
  }

  /**
   * The rights of the key a storefront's configuration names, for reads made in process on a shopper's behalf
   * (the page renderer), checked as the shopper's browser would be: from `caller.ip`, with the page's own address
   * as referer. Throws the same errors as a request with that key (expired, referer, source, rate). Undefined
   * for a key this server did not issue (a hosted Algolia key): the caller decides. Never counts as a failed
   * authentication: the key is the merchant's configuration, not a guess.
   */
  configuredKeyContext(apiKey: string, caller: { ip: string; referer: string }): AuthContext | undefined {
    const keyDigest = digest(apiKey);
    // The admin key gives a page no more than the search-only key would.
    if (sameSecret(keyDigest, this.searchDigest) || sameSecret(keyDigest, this.adminDigest)) return this.searchKeyContext();
    const stored = this.keys.findByValue(apiKey);
    if (stored) {
      if (!stored.acl.includes('search')) throw createError('INVALID_CREDENTIALS');
      return this.storedContext(stored, caller.referer, caller.ip);
    }
    const notIssuedHere = new Error('not a key of this server');
    try {
      return this.securedContext(apiKey, keyDigest.toString('hex'), caller.referer, caller.ip, (reason) => {
        throw reason === 'orphaned' ? createError('INVALID_CREDENTIALS') : notIssuedHere;
      });
    } catch (error) {
      if (error === notIssuedHere) return undefined;
      throw error;
    }
  }

  /**
   * A refusal, counted against the IP's budget: 403, or 429 once the budget is spent. `verified`: the refusal
   * took a secured-key verification, which always counts.
   */
  private fail(ip: string, keyHash: string, verified: boolean): never {
    throw createError(this.failures.refused(ip, keyHash, verified) ? 'INVALID_CREDENTIALS' : 'TOO_MANY_FAILED_AUTH');
  }

  private referer(request: FastifyRequest): string | undefined {
    const value = request.headers.referer ?? request.headers.origin;
    return typeof value === 'string' ? value : undefined;
  }

  private storedContext(key: StoredKey, referer: string | undefined, ip: string): AuthContext {
    if (!refererAllowed(key.referers, referer)) throw createError('REFERER_NOT_ALLOWED');
    const forced = key.queryParameters ? parseParamsString(key.queryParameters) : {};
    const { restrictSources, ...rest } = forced;
    if (typeof restrictSources === 'string' && !sourceAllowed(restrictSources, ip)) throw createError('SOURCE_NOT_ALLOWED');
    if (key.maxQueriesPerIPPerHour > 0 && this.queries.hit(`${key.hash}|${ip}`) > key.maxQueriesPerIPPerHour) {
      throw createError('TOO_MANY_QUERIES', key.maxQueriesPerIPPerHour);
    }
    return { kind: 'key', acl: new Set(key.acl), indexes: key.indexes, ...forcedFrom(rest), maxHitsPerQuery: key.maxHitsPerQuery, keyHash: key.hash, limitKey: key.hash };
  }

  /**
   * The HMAC of a secured key does not say which key signed it: the search-only key is tried first, then every live
   * stored key that can be a parent (api-keys.ts). That is one HMAC per key for a key seen for the first time (a
   * forged one counts against its IP's failed-authentication budget each time); verified keys are cached and cost
   * one map lookup after.
   */
  private securedContext(apiKey: string, keyHash: string, referer: string | undefined, ip: string, refuse: (reason: SecuredRefusal) => never): AuthContext {
    let entry = this.securedCache.get(keyHash);
    if (!entry) {
      const decoded = decodeSecuredKey(apiKey);
      if (!decoded) return refuse('malformed');
      const signer = verifySecuredKey(this.config.searchApiKey, decoded) ? null : this.keys.findParent((value) => verifySecuredKey(value, decoded));
      if (signer === undefined) return refuse('unsigned');
      entry = { parentHash: signer?.hash ?? null };
      if (this.securedCache.size >= SECURED_CACHE_SIZE) this.securedCache.delete(this.securedCache.keys().next().value!);
      this.securedCache.set(keyHash, entry);
    }
    // The parent as it is now: a deleted or expired parent, or one that lost the search ACL, takes its secured keys with it.
    const parent: Parent | undefined = entry.parentHash === null ? null : this.keys.findLiveByHash(entry.parentHash);
    if (parent === undefined || (parent !== null && !parent.acl.includes('search'))) return refuse('orphaned');
    let grant = entry.grant;
    if (!grant || grant.parent !== parent) {
      grant = this.securedGrant(parent, parseRestrictions(decodeSecuredKey(apiKey)!.params));
      // Anyone can mint secured keys from the public search key, up to the header size (16 KB): only usual-sized
      // ones keep their parsed restrictions, which bounds the cache's memory; larger ones are parsed on each request
      // (their entry still remembers the parent, so they are not verified against every key again).
      if (apiKey.length <= MAX_CACHED_KEY_LENGTH) entry.grant = grant;
    }
    if (grant.validUntil !== undefined && Date.now() / 1000 > grant.validUntil) throw createError('KEY_EXPIRED');
    for (const sources of grant.sources) if (!sourceAllowed(sources, ip)) throw createError('SOURCE_NOT_ALLOWED');
    for (const referers of grant.referers) if (!refererAllowed(referers, referer)) throw createError('REFERER_NOT_ALLOWED');
    if (parent && parent.maxQueriesPerIPPerHour > 0) {
      // The parent's budget, shared with the parent's own queries; per userToken when the secured key has one, as Algolia.
      const caller = grant.userToken !== undefined ? `userToken:${grant.userToken}` : ip;
      if (this.queries.hit(`${parent.hash}|${caller}`) > parent.maxQueriesPerIPPerHour) throw createError('TOO_MANY_QUERIES', parent.maxQueriesPerIPPerHour);
    }
    return grant.context;
  }

  /**
   * A secured key narrows its parent, never widens it: the parent's indexes, hit cap, referers and sources stay;
   * forced filters of both are ANDed; where both force the same other parameter, the parent's value wins (else a
   * secured key could lift, say, the parent's `hitsPerPage`). Secured keys get the `search` ACL only.
   */
  private securedGrant(parent: Parent, restrictions: SecuredRestrictions): SecuredGrant {
    const { restrictSources: parentSources, ...parentParams } = parent?.queryParameters ? parseParamsString(parent.queryParameters) : {};
    const inherited = forcedFrom(parentParams);
    const own = forcedFrom(restrictions.searchParams);
    if (restrictions.userToken !== undefined) own.forcedParams.userToken = restrictions.userToken;
    const context: AuthContext = {
      kind: 'secured',
      acl: SEARCH_ACL,
      indexes: parent?.indexes ?? [],
      restrictIndices: restrictions.restrictIndices,
      forcedParams: { ...own.forcedParams, ...inherited.forcedParams },
      forcedFilter: andFilterNodes(inherited.forcedFilter, own.forcedFilter),
      maxHitsPerQuery: parent?.maxHitsPerQuery ?? 0,
      limitKey: parent?.hash ?? this.searchDigest.toString('hex'),
    };
    return {
      parent,
      context,
      validUntil: restrictions.validUntil,
      userToken: restrictions.userToken,
      sources: [typeof parentSources === 'string' ? parentSources : undefined, restrictions.restrictSources],
      referers: [parent?.referers, restrictions.referers],
    };
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

/**
 * Whether the key may touch `indexName`. A stored key's `indexes`: empty means every index (as Algolia), else one
 * of its patterns must match, and an empty pattern matches nothing (`[""]` is no index, never all). A secured
 * key's `restrictIndices` narrows that: absent means no further restriction, present but empty (`[]`, `""`,
 * `[""]`) means no index at all.
 */
export function indexInScope(context: AuthContext, indexName: string): boolean {
  // A non-empty list without a usable pattern allows nothing (indexAllowed would take it for no restriction).
  const matches = (list: readonly string[]) => {
    const patterns = list.filter((pattern) => pattern !== '');
    return patterns.length > 0 && indexAllowed(patterns, indexName);
  };
  if (context.indexes.length > 0 && !matches(context.indexes)) return false;
  return context.restrictIndices === undefined || matches(context.restrictIndices);
}

/** Whether the key may touch every index: no `indexes` patterns, no `restrictIndices`. */
export function allIndexesInScope(context: AuthContext): boolean {
  return context.indexes.length === 0 && context.restrictIndices === undefined;
}

export function requireIndex(context: AuthContext, indexName: string): void {
  if (!indexInScope(context, indexName)) throw createError('INDEX_NOT_ALLOWED');
}

/** For operations that are not about one index (`DELETE /1/usertokens/…` reaches every index's events). */
export function requireAllIndexes(context: AuthContext): void {
  if (!allIndexesInScope(context)) throw createError('INDEX_NOT_ALLOWED');
}
