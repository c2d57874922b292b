/**
 * Compressed API answers (@fastify/compress, in the API's scope): JSON of 1 KB or more goes out as brotli or
 * gzip when the client says it accepts them; smaller answers and clients that send no `Accept-Encoding` (the
 * v4 Node client, autocannon) get it as is. The storefront's files are compressed once, at build time
 * (`static.ts`).
 *
 * Levels: a search answer is compressed once per request, so the cheapest levels: brotli quality 1 when
 * accepted (every browser), gzip level 1 for clients that take only it (the v5 Node client). The measured
 * costs of each level are in docs/PERFORMANCE.md ("Compression levels").
 *
 * Request bodies stay with `body.ts` (its own gunzip, capped like the body): the plugin's decompression is off.
 */
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import { constants } from 'node:zlib';

export const COMPRESSION_THRESHOLD_BYTES = 1024;
/**
 * Answers up to this size are compressed in one synchronous call; larger ones (a page of 1,000 hits) through a
 * zlib stream on libuv's thread pool, so the event loop never stops for milliseconds. Streaming smaller answers
 * cost far more CPU than the compression (docs/PERFORMANCE.md) and turned a client leaving mid-answer into a 500.
 */
const SYNC_COMPRESSION_MAX_BYTES = 256 * 1024;

export async function registerCompression(api: FastifyInstance): Promise<void> {
  // @fastify/compress checks each answer against the global `Response`, whose first read loads Node's fetch
  // implementation: 40-45 ms of the first search after a restart. Read now, while the server starts.
  void globalThis.Response;
  await api.register(fastifyCompress, {
    encodings: ['br', 'gzip'],
    threshold: COMPRESSION_THRESHOLD_BYTES,
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 1, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } },
    zlibOptions: { level: 1 },
    globalDecompression: false,
    syncThreshold: SYNC_COMPRESSION_MAX_BYTES,

  });
}
