/**
 * The official v5 client with its requests coming from a chosen address: the connection's own source address
 * (another loopback address, `127.0.0.2`, is another client on Linux) and what a trusted proxy says it forwards
 * (`X-Forwarded-For`), through a requester of its own, the client's documented way to change its transport.
 */
import { request as httpRequest } from 'node:http';
import { algoliasearch } from 'algoliasearch';
import type { Algoliasearch } from 'algoliasearch';
import { expect } from 'vitest';
import { APP_ID } from '../src/test-support.ts';

type Requester = NonNullable<NonNullable<Parameters<typeof algoliasearch>[2]>['requester']>;
/** Where a request comes from: the connection's own address, and what a trusted proxy says it forwards. */
export interface Origin {
  localAddress?: string;
  forwardedFor?: string;
}

/** The client's requester over `node:http`, its requests from `origin`. */
export function requesterFrom(origin: Origin): Requester {
  return {
    send: (request) =>
      new Promise((resolve, reject) => {
        // Answers come uncompressed: this requester does not decode them.
        const headers: Record<string, string> = { ...request.headers, 'accept-encoding': 'identity' };
        if (origin.forwardedFor) headers['x-forwarded-for'] = origin.forwardedFor;
        const outgoing = httpRequest(request.url, { method: request.method, headers, localAddress: origin.localAddress ?? '127.0.0.1' }, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => resolve({ status: response.statusCode!, content: Buffer.concat(chunks).toString('utf8'), isTimedOut: false }));
        });
        outgoing.on('error', reject);
        outgoing.end(request.data);
      }),
  };
}

/** The v5 client of `host` with `key`, its requests coming from `origin`. */
export function clientFrom(host: string, key: string, origin: Origin = {}): Algoliasearch {
  return algoliasearch(APP_ID, key, { hosts: [{ url: host, protocol: 'http', accept: 'readWrite' }], requester: requesterFrom(origin) });
}

/** The status and message an API call was refused with (fails when it was not). */
export async function refusal(call: Promise<unknown>): Promise<{ status: number; message: string }> {
  const error = await call.then(
    () => undefined,
    (caught: unknown) => caught as { status?: number; message?: string },
  );
  expect(error, 'the call was refused').toBeDefined();
  return { status: error!.status!, message: error!.message! };
}
