/**
 * Compressed API answers (@fastify/compress, in the API's scope): JSON of 1 KB or more goes out as brotli or
 * gzip when the client says it accepts them; smaller answers and clients that send no `Accept-Encoding` (the
 * v4 Node client, autocannon) get it as is. The storefront's files are compressed once, at build time
 * (`static.ts`).
 *
 * Levels: a search answer is compressed once per request, so the cheapest levels. Per InstantSearch answer of
 * ~19 KB, CPU time (noisy 2-core machine) and compressed size: brotli quality 1 ~70 µs, 20%; gzip level 1
 * ~110 µs, 19%; brotli 4 (the plugin's default) ~200 µs, 17%; gzip 6 ~170 µs, 17%; brotli 11 ~19 ms, 14%.
 * Brotli is preferred when accepted (every browser); gzip is for clients that take only it (the v5 Node
 * client sends `accept-encoding: gzip`). Compressing ~19 KB in one call takes about 0.1 ms of the main thread.
 *
 * Request bodies stay with `body.ts` (its own gunzip, capped like the body): the plugin's decompression is off.
 */
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import { constants } from 'node:zlib';

export const COMPRESSION_THRESHOLD_BYTES = 1024;
/**
 * Answers up to this size are compressed in one synchronous call; larger ones (a page of 1,000 hits) through a
 * zlib stream on libuv's thread pool, so the event loop never stops for milliseconds. The plugin's default on two
 * cores (8 KB) streamed most search answers, and the stream costs far more than the compression: in process,
 * ~750 µs more CPU per InstantSearch answer than identity, against no measurable difference in one call. It also
 * turned a client leaving mid-answer into a stream error reported as a 500.
 */
const SYNC_COMPRESSION_MAX_BYTES = 256 * 1024;

export async function registerCompression(api: FastifyInstance): Promise<void> {
  await api.register(fastifyCompress, {
    encodings: ['br', 'gzip'],
    threshold: COMPRESSION_THRESHOLD_BYTES,
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 1, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } },
    zlibOptions: { level: 1 },
    globalDecompression: false,
    syncThreshold: SYNC_COMPRESSION_MAX_BYTES,

  });
}
