/**
 * Request bodies as Algolia's clients send them: JSON whatever the content-type (the JS clients send
 * `text/plain` to avoid CORS preflights, some tools send none or `application/x-www-form-urlencoded`),
 * optionally gzip-encoded (v5 clients compress large writes). Two caps: one on the bytes received, one on the
 * decompressed size, so a small gzip bomb cannot inflate into gigabytes.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { gunzipSync, inflateSync } from 'node:zlib';
import type { ServerLimits } from '../config.ts';
import { createError } from '../errors.ts';
import { parseJsonSafely } from './json.ts';

/** How much of a body's text the request keeps for the API logs (`query_body` is at most 1,000 characters). */
export const BODY_PREFIX_CHARS = 1000;

declare module 'fastify' {
  interface FastifyRequest {
    /** The first characters of the body's text, for the API logs (never the whole of a 50 MB import). */
    bodyPrefix: string | undefined;
  }
  interface FastifyContextConfig {
    /** Write routes accept large bodies (`maxWriteBodyBytes`); every other route `maxSearchBodyBytes`. */
    largeBody?: boolean;
  }
}

/**
 * `text` copied into a string of its own (through its UTF-8 bytes), for a short piece of a long text kept
 * longer than the text: a `slice` is a view keeping the whole text alive. A lone surrogate becomes U+FFFD.
 */
export function ownCopy(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}

/** The route's cap (write routes get theirs from `largeBody` in app.ts, `/1/events` its own). */
export function bodyLimitOf(request: FastifyRequest, limits: ServerLimits): number {
  return request.routeOptions.bodyLimit ?? (request.routeOptions.config?.largeBody ? limits.maxWriteBodyBytes : limits.maxSearchBodyBytes);
}

export function decodeBody(raw: Buffer, encoding: string | undefined, limit: number): Buffer {
  const name = (encoding ?? 'identity').trim().toLowerCase();
  if (name === 'identity' || name === '') return raw;
  try {
    if (name === 'gzip' || name === 'x-gzip') return gunzipSync(raw, { maxOutputLength: limit });
    if (name === 'deflate') return inflateSync(raw, { maxOutputLength: limit });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw createError('BODY_TOO_LARGE', limit);
    throw createError('MALFORMED_GZIP');
  }
  throw createError('UNSUPPORTED_ENCODING', name);
}

/** Replaces Fastify's parsers with one that reads every content-type as JSON. */
export function registerBodyParser(app: FastifyInstance, limits: ServerLimits): void {
  app.removeAllContentTypeParsers();
  app.decorateRequest('bodyPrefix', undefined);
  app.addContentTypeParser(
    '*',
    // Fastify enforces each route's `bodyLimit` while reading; the cap is checked again after decompression.
    { parseAs: 'buffer' },
    (request, raw, done) => {
      try {
        const limit = bodyLimitOf(request, limits);
        const buffer = raw as Buffer;
        if (buffer.length > limit) throw createError('BODY_TOO_LARGE', limit);
        const decoded = decodeBody(buffer, request.headers['content-encoding'] as string | undefined, limit);
        const text = decoded.toString('utf8');
        request.bodyPrefix = ownCopy(text.slice(0, BODY_PREFIX_CHARS));
        done(null, text.trim() === '' ? undefined : parseJsonSafely(text, limits.maxJsonDepth));
      } catch (error) {
        done(error as Error, undefined);
      }
    },
  );
}
