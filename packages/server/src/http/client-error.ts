/**
 * Requests Node's HTTP parser refuses before Fastify sees them (headers or URL over 16 KB, malformed requests,
 * timeouts) are answered with Algolia's `{ message, status }`, like every other error, so clients read them
 * the same way. Never logged: the error carries the raw request, credentials included.
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';

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
