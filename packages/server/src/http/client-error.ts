/**
 * Requests Node's HTTP parser refuses before Fastify sees them (headers or URL over 16 KB, malformed requests,
 * timeouts), and those Fastify's router refuses before any route or hook (a path that is not valid
 * percent-encoding, a path parameter past `maxParamLength`), are answered with Algolia's `{ message, status }`,
 * like every other error, so clients read them the same way. Never logged: the error carries the raw request,
 * credentials included; the path is not echoed either (an objectID of 2 KB, or anything a caller put there).
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';

export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  // A reset connection has nobody to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? [408, 'Request timeout']
    : error.code === 'HPE_HEADER_OVERFLOW' ? [431, 'Request headers too large (the URL included)']
    : [400, 'Malformed HTTP request'];
  const body = JSON.stringify({ message, status });
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy(error);
}

/** Longest path parameter the router takes (Fastify's `maxParamLength`): index names and objectIDs can be long. */
export const MAX_PATH_PARAM_LENGTH = 2048;

/** The router's refusals (Fastify's `frameworkErrors`): the status it chose, a message of ours. */
export function routerErrorHandler(error: Error & { code?: string }, _request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const [status, message] =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? [414, `URI too long: an index name or objectID in the path is longer than ${MAX_PATH_PARAM_LENGTH} characters`]
    : error.code === 'FST_ERR_BAD_URL' ? [400, 'Invalid URL: malformed percent-encoding in the path']
    : [400, 'Malformed HTTP request'];
  return reply.code(status).type('application/json').send({ message, status });
}
