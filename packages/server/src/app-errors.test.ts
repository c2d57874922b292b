import { rmSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.ts';
import { ApiError } from './errors.ts';
import { Store } from './storage/store.ts';
import { ADMIN_KEY, APP_ID, SEARCH_KEY, tempDir } from './test-support.ts';
import type { FastifyInstance } from 'fastify';

/** Internal errors: what the client gets (no stack, no path) and what the log keeps (the stack, under the same id). */
describe('internal errors', () => {
  const dataDir = tempDir();
  let store: Store;
  let app: FastifyInstance;
  let logged = '';
  const logLines = () => logged.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Record<string, unknown>);

  beforeAll(async () => {
    store = await Store.open({ dataDir });
    const logStream = new PassThrough();
    logStream.on('data', (chunk: Buffer) => (logged += chunk.toString()));
    app = await buildApp({
      store,
      logStream,
      config: {
        appId: APP_ID,
        adminApiKey: ADMIN_KEY,
        searchApiKey: SEARCH_KEY,
        log: true,
        extend: [(outside) => void outside.get('/broken', async () => { throw new Error(`cannot open ${dataDir}/missing.json`); })],
        apiExtensions: [
          (api) => {
            api.get('/1/broken', { config: { acl: 'search' } }, async () => { throw new TypeError('undefined is not a function'); });
            // The shape of a search thread's failure: an ApiError whose message is the thread's stack.
            api.get('/1/broken-thread', { config: { acl: 'search' } }, async () => {
              throw new ApiError('INTERNAL', 500, `Error: bug\n    at answerSearchCall (${dataDir}/thread.ts:1:1)`);
            });
          },
        ],
      },
    });
  });
  afterAll(async () => {
    await app.close();
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it.each([
    ['a route added outside the API', '/broken', 'cannot open'],
    ['an API route (credentials in the query string)', `/1/broken?x-algolia-api-key=${SEARCH_KEY}&x-algolia-application-id=${APP_ID}`, 'undefined is not a function'],
    ['an ApiError of status 500', `/1/broken-thread?x-algolia-api-key=${SEARCH_KEY}&x-algolia-application-id=${APP_ID}`, 'answerSearchCall'],
  ])('answers a failure in %s with a generic body and an id, and logs the stack under that id', async (_where, url, thrown) => {
    const response = await app.inject({ method: 'GET', url, headers: { 'x-algolia-api-key': ADMIN_KEY } });
    expect(response.statusCode).toBe(500);
    const body = response.json() as { id: string };
    expect(body).toEqual({ message: 'Internal error', status: 500, id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(response.headers['x-algolia-request-id']).toBe(body.id);
    expect(response.body).not.toContain(thrown);
    expect(response.body).not.toContain(dataDir);

    const entry = logLines().find((line) => line.errorId === body.id);
    expect(entry?.level).toBe(50);
    const err = entry?.err as { message: string; stack: string };
    expect(err.message).toContain(thrown);
    expect(err.stack).toMatch(/\n\s+at /);
    for (const key of [ADMIN_KEY, SEARCH_KEY]) expect(logged).not.toContain(key);
  });
});
