/**
 * The application's allowed sources, kept and enforced. An empty list lets every address in; a non-empty one
 * refuses every request from an address outside it, whatever the key (admin included) and the path (API,
 * `/metrics`, the storefront), with two exceptions:
 * - routes marked `anySource` (`/1/isalive`: a load balancer's health checks come from addresses of its own);
 * - the admin key from a loopback address: whatever the list, the server's own machine can always repair it.
 *
 * Lock-out rule: a change that would refuse the request making it (its address outside the new, non-empty list,
 * and not loopback) is refused, 400, and nothing changes. An administrator cannot cut themselves off by
 * accident; one whose address changes later repairs the list from the server's machine.
 *
 * Kept in the log database's `meta` table as one JSON row, written with a flush before the answer (as API keys
 * are): a change is whole or absent after a crash, and a backup of the data folder holds it.
 */
import type { BlockList } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createError } from '../errors.ts';
import { getMeta, setMeta } from '../storage/db.ts';
import type { Db } from '../storage/db.ts';
import { blockListOf, isLoopback, listed, MAX_SOURCES, parseSource, parseSources, sourceKey } from './source-list.ts';
import type { AllowedSource } from './source-list.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Answered whatever the caller's address, allowed sources or not (`/1/isalive`). */
    anySource?: boolean;
  }
}

const META_KEY = 'security_sources';
/** Addresses whose decision is remembered; past it the memory starts over (a flood of new addresses costs checks, not memory). */
const DECISIONS_KEPT = 10_000;

function admitted(matcher: BlockList | undefined, ip: string, isAdmin: () => boolean): boolean {
  return matcher === undefined || listed(matcher, ip) || (isLoopback(ip) && isAdmin());
}

export class AllowedSources {
  private sources: AllowedSource[];
  private matcher: BlockList | undefined;
  /**
   * Whether each address seen is listed, for the list in force: `BlockList.check` parses the address on every call
   * (3–14 µs measured, one range to a thousand), a lookup here costs tens of nanoseconds (docs/PERFORMANCE.md).
   */
  private readonly decisions = new Map<string, boolean>();

  constructor(private readonly db: Db) {
    const kept = getMeta(db, META_KEY);
    try {
      this.sources = kept === undefined ? [] : parseSources(JSON.parse(kept));
    } catch (error) {
      // Starting with no list would open an application its operator closed: refuse to start instead.
      throw new Error(`the allowed sources kept in the log database (meta "${META_KEY}") cannot be read: ${(error as Error).message}`, { cause: error });
    }
    this.matcher = blockListOf(this.sources);
  }

  list(): AllowedSource[] {
    return this.sources.map((entry) => ({ ...entry }));
  }

  /** Whether a request from `ip` gets in; `isAdmin` is asked only of a loopback address the list leaves out. */
  admits(ip: string, isAdmin: () => boolean): boolean {
    const matcher = this.matcher;
    if (matcher === undefined) return true;
    let inList = this.decisions.get(ip);
    if (inList === undefined) {
      inList = listed(matcher, ip);
      if (this.decisions.size >= DECISIONS_KEPT) this.decisions.clear();
      this.decisions.set(ip, inList);
    }
    return inList || (isLoopback(ip) && isAdmin());
  }

  /** `PUT /1/security/sources`: the whole list, checked whole. */
  replace(body: unknown, callerIp: string): void {
    this.commit(parseSources(body), callerIp);
  }

  /**
   * `POST /1/security/sources/append`. A range already listed gets the new description in place rather than a
   * second entry, so a client retrying after a lost answer leaves one entry.
   */
  append(body: unknown, callerIp: string): void {
    const entry = parseSource(body);
    const key = sourceKey(entry.source);
    const at = this.sources.findIndex((kept) => sourceKey(kept.source) === key);
    if (at < 0 && this.sources.length >= MAX_SOURCES) throw createError('LIST_TOO_LONG', 'sources', this.sources.length + 1, MAX_SOURCES);
    const next = at < 0 ? [...this.sources, entry] : this.sources.map((kept, i) => (i === at ? entry : kept));
    this.commit(next, callerIp);
  }

  /**
   * `DELETE /1/security/sources/{source}`: the entry naming the same range (`10.0.0.1` is `10.0.0.1/32`). A range
   * not listed is a 404: a mistyped range must not pass for one removed, which would leave its addresses in.
   */
  delete(source: string, callerIp: string): void {
    const key = sourceKey(source);
    if (key === undefined) parseSource({ source });
    const next = this.sources.filter((kept) => sourceKey(kept.source) !== key);
    if (next.length === this.sources.length) throw createError('SOURCE_NOT_FOUND', source);
    this.commit(next, callerIp);
  }

  /** The lock-out rule, then the list on disk, then in force. Only the admin key reaches the routes that call it. */
  private commit(next: AllowedSource[], callerIp: string): void {
    const matcher = blockListOf(next);
    if (!admitted(matcher, callerIp, () => true)) throw createError('SOURCES_LOCK_OUT', callerIp);
    setMeta(this.db, META_KEY, JSON.stringify(next));
    this.sources = next;
    this.matcher = matcher;
    this.decisions.clear();
  }
}

/**
 * Refuses, before anything else is read of it (key, body), every request `sources` does not admit: 403 with the
 * error body. Register on the root instance, so that every route, the storefront's included, is behind it.
 */
export function registerSourceGate(app: FastifyInstance, sources: AllowedSources, isAdmin: (request: FastifyRequest) => boolean): void {
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.routeOptions.config?.anySource || sources.admits(request.ip, () => isAdmin(request))) done();
    else done(createError('SOURCE_REFUSED'));
  });
}
