/**
 * The API logs (`GET /1/logs`): the last requests the API answered, newest first, in a bounded ring in memory.
 * Each entry is Algolia's `log` shape, with bodies and answers cut to 1,000 characters and every API key masked
 * (the header, the query string, a `/1/keys/{key}` path and `key` / `value` fields of the keys API's answers), so the logs can
 * be read by someone who must not learn the keys.
 *
 * In memory rather than in the insights database: the logs are a debugging aid over the last minutes (Algolia
 * keeps 1,000 requests per server), written on every request; a durable table would add a write per request
 * to the hot path and keep request bodies on disk, for entries nobody reads after a restart.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Log, LogType } from '@vitrine/protocol';
import { BODY_PREFIX_CHARS, ownCopy } from './body.ts';

/** Algolia's `query_body` and `answer` are at most 1,000 characters. */
export const LOG_TEXT_MAX = BODY_PREFIX_CHARS;
export const DEFAULT_LOG_CAPACITY = 1000;

const MASK = '***';
const SECRET_HEADERS = new Set(['x-algolia-api-key', 'authorization', 'cookie', 'proxy-authorization']);
/** Routes answering searches: the `query` type of `getLogs`. */
const QUERY_ROUTE = /\/(query|queries|browse|facets\/[^/]+\/query|recommendations)$/;
/** Reads sent as POST (getObjects, synonym / rule / dictionary searches): neither searches nor writes. */
const POST_READ_ROUTE = /\/(objects|search)$/;

/** The `getLogs` type a request belongs to: searches, writes (`build`), or neither. */
export function kindOf(method: string, path: string): StoredLog['kind'] {
  if (QUERY_ROUTE.test(path) || (method === 'GET' && /^\/1\/indexes\/[^/]+$/.test(path))) return 'query';
  if (method === 'GET' || (method === 'POST' && POST_READ_ROUTE.test(path))) return 'other';
  return 'build';
}

interface StoredLog extends Log {
  /** Index names the request reads or writes, for the `indexName` filter. */
  indexes: string[];
  kind: 'query' | 'build' | 'other';
}

/**
 * The first `max` characters, as a string of their own. V8 makes a long string's `slice` a view that keeps the
 * whole of it alive: the ring's views of 600 KB batch bodies and of search answers held over 100 MB of text
 * during a 100 MB import (a heap snapshot of the server, docs/PERFORMANCE.md).
 */
export function truncate(text: string, max = LOG_TEXT_MAX): string {
  // A text within `max` is kept whole: a string of its own already (an answer, or the body parser's prefix).
  return text.length <= max ? text : ownCopy(text.slice(0, max));
}

/** The path and query string with keys masked: `x-algolia-api-key=…` and the key of `/1/keys/{key}`. */
export function maskUrl(url: string): { path: string; query: string } {
  const [rawPath, rawQuery = ''] = url.split(/\?(.*)/s, 2);
  const path = rawPath.replace(/^(\/1\/keys\/)[^/]+/, `$1${MASK}`);
  const params = new URLSearchParams(rawQuery);
  for (const name of [...params.keys()]) if (name.toLowerCase() === 'x-algolia-api-key') params.set(name, MASK);
  return { path, query: rawQuery === '' ? '' : params.toString() };
}

/**
 * A request body with secret-looking fields masked: a rest embedder's `apiKey` and header values named like
 * secrets (`Authorization`, `X-Api-Key`, tokens) in a settings write. A value cut short by the body's prefix
 * is masked too.
 */
export function maskBodySecrets(text: string): string {
  return text.replace(/("(?:apiKey|[^"]*(?:authorization|api[-_]?key|token|secret|password)[^"]*)"\s*:\s*)"(?:[^"\\]|\\.)*(?:"|$)/gi, `$1"${MASK}"`);
}

/** A keys API answer with the values of `key` and `value` fields masked (key creation and key listings). */
export function maskAnswer(text: string): string {
  return text.replace(/("(?:key|value)"\s*:\s*)"(?:[^"\\]|\\.)*"/g, `$1"${MASK}"`);
}

function headerText(request: FastifyRequest): string {
  return Object.entries(request.headers)
    .map(([name, value]) => `${name}: ${SECRET_HEADERS.has(name) ? MASK : Array.isArray(value) ? value.join(', ') : (value ?? '')}`)
    .join('\n');
}

function indexesOf(request: FastifyRequest): string[] {
  const names = new Set<string>();
  const indexName = (request.params as { indexName?: unknown } | undefined)?.indexName;
  if (typeof indexName === 'string' && indexName !== '*') names.add(indexName);
  const requests = (request.body as { requests?: unknown } | undefined)?.requests;
  if (Array.isArray(requests)) for (const item of requests) if (typeof item?.indexName === 'string') names.add(item.indexName);
  return [...names];
}

function payloadText(payload: unknown): string {
  if (typeof payload === 'string') return payload;
  if (Buffer.isBuffer(payload)) return payload.subarray(0, LOG_TEXT_MAX * 4).toString('utf8');
  // A large search answer streamed in pieces: not copied for the log.
  return payload === null || payload === undefined ? '' : '(streamed answer)';
}

export class ApiLogs {
  private readonly ring: StoredLog[] = [];
  private next = 0;

  constructor(readonly capacity = DEFAULT_LOG_CAPACITY) {}

  add(entry: StoredLog): void {
    if (this.ring.length < this.capacity) this.ring.push(entry);
    else this.ring[this.next] = entry;
    this.next = (this.next + 1) % this.capacity;
  }

  /** Newest first, after the filters, `offset` entries skipped, at most `length`. */
  list(options: { offset: number; length: number; indexName?: string; type: LogType }): Log[] {
    const out: Log[] = [];
    let skipped = 0;
    for (let i = 1; i <= this.ring.length && out.length < options.length; i++) {
      const entry = this.ring[(this.next - i + this.ring.length * 2) % this.ring.length];
      if (options.indexName !== undefined && !entry.indexes.includes(options.indexName)) continue;
      if (options.type === 'query' && entry.kind !== 'query') continue;
      if (options.type === 'build' && entry.kind !== 'build') continue;
      if (options.type === 'error' && Number(entry.answer_code) < 400) continue;
      if (skipped++ < options.offset) continue;
      const { indexes: _indexes, kind: _kind, ...log } = entry;
      out.push(log);
    }
    return out;
  }

  /**
   * Records every request of `api` but OPTIONS and the logs route itself (Algolia leaves `getLogs` out of its
   * logs). Registered before the compression hook, so the answer is read before it is compressed.
   */
  register(api: FastifyInstance, skipUrl: string): void {
    if (this.capacity === 0) return;
    const answers = new WeakMap<FastifyRequest, string>();
    api.addHook('onSend', async (request, _reply, payload) => {
      if (request.method !== 'OPTIONS' && request.routeOptions.url !== skipUrl) answers.set(request, payloadText(payload));
      return payload;
    });
    api.addHook('onResponse', async (request, reply) => {
      const answer = answers.get(request);
      if (answer === undefined) return;
      const { path, query } = maskUrl(request.url);
      const indexes = indexesOf(request);
      const requests = (request.body as { requests?: unknown } | undefined)?.requests;
      const kind = kindOf(request.method, path);
      const log: StoredLog = {
        timestamp: new Date(Date.now() - reply.elapsedTime).toISOString(),
        method: request.method,
        answer_code: String(reply.statusCode),
        // The body as sent, its first characters kept by the body parser: never a 50 MB import serialised again.
        // A settings write may carry an embedder's key: masked like the answers of the keys API.
        query_body: truncate(path.endsWith('/settings') ? maskBodySecrets(request.bodyPrefix ?? '') : (request.bodyPrefix ?? '')),
        // Only the keys API answers with key values (creation, listings); elsewhere `key` / `value` are data.
        answer: truncate(path.startsWith('/1/keys') ? maskAnswer(answer) : answer),
        url: path,
        ip: request.ip,
        query_headers: truncate(headerText(request), LOG_TEXT_MAX * 4),
        sha1: '',
        nb_api_calls: '1',
        processing_time_ms: String(Math.round(reply.elapsedTime)),
        ...(query === '' ? {} : { query_params: query }),
        ...(indexes.length === 1 ? { index: indexes[0] } : {}),
        ...(kind === 'query' && Array.isArray(requests) ? { inner_queries: indexes.map((index_name) => ({ index_name })) } : {}),
        indexes,
        kind,
      };
      log.sha1 = createHash('sha1').update(`${log.timestamp} ${log.method} ${log.url} ${log.ip} ${log.answer_code}`).digest('hex');
      this.add(log);
    });
  }
}
