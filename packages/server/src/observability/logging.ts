/**
 * Request logs through Fastify's own logger (pino): one JSON line per request, written once it is answered, with
 * the request's id, level, method, route pattern, status and time.
 *
 * What a line never holds: API keys (they travel in headers, in the query string, and in the path of
 * `/1/keys/{key}`), query strings (search texts, secured keys), bodies (records, queries). So a line names the
 * route pattern (`/1/keys/:key`), never the URL: Fastify's own pair of request lines (which carry it) is
 * replaced by this one line (`RequestLog`, Fastify's hook for its request lines).
 * The redaction below is a second guard for anything that logs a request object.
 *
 * The request id: a caller's `x-request-id` when it is well formed (a proxy's or a load balancer's, so its logs
 * and these join up), else a random UUID; every answer echoes it in `x-request-id`.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { LogController } from 'fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import type { ServerConfig } from '../config.ts';

export const REQUEST_ID_HEADER = 'x-request-id';
/** What an incoming request id may be: short, and nothing that could break a log line or a header. */
const WELL_FORMED_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** The label of requests no route matched (unknown paths, and the pages the storefront's fallback serves). */
export const UNMATCHED_ROUTE = '(unmatched)';

const REDACTED = ['req.headers["x-algolia-api-key"]', 'req.headers.authorization', 'req.query', 'req.body'];

/** Fastify's options for the request log: the logger (or none), the request id, the request lines. */
export function loggingOptions(
  config: Pick<ServerConfig, 'log' | 'logLevel' | 'logStream'>,
  stream: ServerConfig['logStream'] | undefined,
): Pick<FastifyServerOptions, 'logger' | 'logController' | 'genReqId'> {
  const destination = stream ?? config.logStream;
  return {
    logger: config.log
      ? {
          level: config.logLevel ?? 'info',
          redact: { paths: REDACTED, censor: '*****' },
          ...(destination ? { stream: destination } : {}),
          serializers: {
            // Only what a request line could need; the URL's query string can carry `x-algolia-api-key`.
            req: (req) => ({ method: req.method, route: req.routeOptions?.url ?? UNMATCHED_ROUTE, remoteAddress: req.ip }),
          },
        }
      : false,
    logController: new RequestLog(),
    genReqId: requestIdOf,
  };
}

/** The caller's request id when well formed, else a new one. */
export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && WELL_FORMED_ID.test(given) ? given : randomUUID();
}

/** The route pattern that answered, bounded whatever the URL: every unmatched path is one value. */
export function routeOf(request: FastifyRequest): string {
  return request.is404 ? UNMATCHED_ROUTE : (request.routeOptions.url ?? UNMATCHED_ROUTE);
}

/** Echoes the request id on every answer, errors and unknown paths too. Register on the root, before the routes. */
export function registerRequestId(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
}

/**
 * Fastify's request lines, as Vitrine writes them: none when a request arrives, one once it is answered (`error`
 * for a 5xx or a failed send, `info` otherwise).
 */
class RequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const status = reply.statusCode;
    const line = { method: request.method, route: routeOf(request), status, responseTime: Math.round(reply.elapsedTime * 100) / 100, remoteAddress: request.ip };
    if (error) request.log.error({ ...line, err: error }, 'request failed');
    else if (status >= 500) request.log.error(line, 'request answered');
    else request.log.info(line, 'request answered');
  }
}
