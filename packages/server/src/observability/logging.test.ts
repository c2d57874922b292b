import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogLevel } from '../config.ts';
import { ADMIN_KEY, APP_ID, SEARCH_KEY, securedApiKey, startTestServer } from '../test-support.ts';
import type { TestServer } from '../test-support.ts';

const SHOP = 'shop';
/** Text that must never reach the log: a record's content, and what shoppers typed. */
const RECORD_SECRET = 'record-body-3f1c9a';
const QUERY_SECRET = 'shopper-typed-7d2e4b';

interface LogLine {
  level: number;
  reqId?: string;
  msg: string;
  method?: string;
  route?: string;
  status?: number;
  responseTime?: number;
  [field: string]: unknown;
}

/** A server logging into memory, with a route that fails (a 500) and one index. */
async function loggingServer(logLevel?: LogLevel): Promise<{ server: TestServer; text: () => string; lines: () => LogLine[] }> {
  let logged = '';
  const server = await startTestServer({
    config: {
      log: true,
      ...(logLevel ? { logLevel } : {}),
      logStream: { write: (line: string) => (logged += line) },
      extend: [(app) => void app.get('/broken', async () => { throw new Error('disk on fire'); })],
    },
    index: { name: SHOP, settings: { searchableAttributes: ['name'] }, records: [{ objectID: 'p1', name: 'lamp' }] },
  });
  const lines = () => logged.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as LogLine);
  return { server, text: () => logged, lines };
}

const withKey = (key: string) => ({ 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': key });
const inQuery = (key: string) => `x-algolia-application-id=${APP_ID}&x-algolia-api-key=${encodeURIComponent(key)}`;

describe('request logs', () => {
  let log: Awaited<ReturnType<typeof loggingServer>>;
  beforeAll(async () => {
    log = await loggingServer();
  });
  afterAll(() => log.server.close());

  it('writes one JSON line per request, with the id echoed in x-request-id, the route pattern, status and time', async () => {
    const before = log.lines().length;
    const answers = [
      await fetch(`${log.server.url}/1/indexes/${SHOP}/query`, { method: 'POST', headers: withKey(SEARCH_KEY), body: '{"query":"lamp"}' }),
      await fetch(`${log.server.url}/1/nowhere`),
      await fetch(`${log.server.url}/1/isalive`),
    ];
    const ids = answers.map((answer) => answer.headers.get('x-request-id'));
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(3);
    const lines = log.lines().slice(before);
    expect(lines).toEqual([
      expect.objectContaining({ level: 30, reqId: ids[0], msg: 'request answered', method: 'POST', route: '/1/indexes/:indexName/query', status: 200, responseTime: expect.any(Number) }),
      expect.objectContaining({ level: 30, reqId: ids[1], msg: 'request answered', method: 'GET', route: '(unmatched)', status: 404 }),
      expect.objectContaining({ level: 30, reqId: ids[2], msg: 'request answered', method: 'GET', route: '/1/isalive', status: 200 }),
    ]);
    for (const line of lines) expect(line.time).toEqual(expect.any(Number));
  });

  it('takes a well-formed x-request-id from the caller, and replaces any other', async () => {
    const given = 'lb-7f3a.91:2';
    const kept = await fetch(`${log.server.url}/1/isalive`, { headers: { 'x-request-id': given } });
    expect(kept.headers.get('x-request-id')).toBe(given);
    expect(log.lines().at(-1)).toMatchObject({ reqId: given, route: '/1/isalive' });
    for (const wrong of ['has spaces in it', 'x'.repeat(129), '{"json":1}']) {
      const replaced = await fetch(`${log.server.url}/1/isalive`, { headers: { 'x-request-id': wrong } });
      const id = replaced.headers.get('x-request-id')!;
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(log.lines().at(-1)!.reqId).toBe(id);
    }
  });

  it('logs a failure at error level, its answer and the error under the same request id', async () => {
    const answer = await fetch(`${log.server.url}/broken`, { headers: { 'x-request-id': 'failing-1' } });
    expect(answer.status).toBe(500);
    const lines = log.lines().filter((line) => line.reqId === 'failing-1');
    expect(lines.map((line) => [line.level, line.msg])).toEqual([[50, 'internal error'], [50, 'request answered']]);
    expect(lines[1]).toMatchObject({ status: 500, route: '/broken' });
  });

  it('never writes an API key (admin, search, stored, secured; headers, query string or path), a record or a query text', async () => {
    const { server } = log;
    const stored = await server.createKey({ acl: ['search'], description: 'a stored key' });
    const secured = securedApiKey(SEARCH_KEY, { filters: 'brand:Lumio', userToken: 'user-42' });
    const url = server.url;
    const post = (path: string, body: unknown, headers: Record<string, string>) => fetch(`${url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const answers = await Promise.all([
      post(`/1/indexes/${SHOP}/batch`, { requests: [{ action: 'addObject', body: { objectID: 'p2', name: RECORD_SECRET } }] }, withKey(ADMIN_KEY)),
      post(`/1/indexes/${SHOP}/batch?${inQuery(ADMIN_KEY)}`, { requests: [{ action: 'addObject', body: { name: `${RECORD_SECRET} again` } }] }, {}),
      post(`/1/indexes/${SHOP}/query`, { query: QUERY_SECRET }, withKey(SEARCH_KEY)),
      post(`/1/indexes/*/queries?${inQuery(stored)}`, { requests: [{ indexName: SHOP, query: QUERY_SECRET }] }, {}),
      post(`/1/indexes/${SHOP}/query`, { query: QUERY_SECRET }, withKey(secured)),
      fetch(`${url}/1/indexes/${SHOP}?query=${QUERY_SECRET}&${inQuery(secured)}`),
      fetch(`${url}/1/indexes/${SHOP}?query=${QUERY_SECRET}&${inQuery(SEARCH_KEY)}`),
      // A key's value in the path: reading its own permissions.
      fetch(`${url}/1/keys/${stored}`, { headers: withKey(stored) }),
      fetch(`${url}/1/keys/${stored}?${inQuery(ADMIN_KEY)}`),
      // Refused: a key that is wrong, and a key in the wrong place.
      fetch(`${url}/1/indexes`, { headers: withKey(`${ADMIN_KEY}-wrong`) }),
      fetch(`${url}/1/nowhere/${ADMIN_KEY}?${inQuery(SEARCH_KEY)}`),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 403, 404]);
    const ids = answers.map((answer) => answer.headers.get('x-request-id'));
    // Every request has its line, found by its id.
    for (const id of ids) expect(log.lines().filter((line) => line.reqId === id && line.msg === 'request answered')).toHaveLength(1);
    for (const secret of [ADMIN_KEY, SEARCH_KEY, stored, secured, encodeURIComponent(secured), RECORD_SECRET, QUERY_SECRET]) {
      expect(log.text()).not.toContain(secret);
    }
  });
});

describe('VITRINE_LOG_LEVEL as the server sees it (logLevel)', () => {
  it('at warn, leaves the requests out and keeps the failures', async () => {
    const log = await loggingServer('warn');
    try {
      await fetch(`${log.server.url}/1/isalive`);
      expect((await fetch(`${log.server.url}/broken`)).status).toBe(500);
      expect(log.lines().map((line) => [line.level, line.msg, line.status])).toEqual([[50, 'internal error', undefined], [50, 'request answered', 500]]);
    } finally {
      await log.server.close();
    }
  });

  it('at silent, writes nothing and still answers with a request id', async () => {
    const log = await loggingServer('silent');
    try {
      const answer = await fetch(`${log.server.url}/broken`);
      expect(answer.status).toBe(500);
      expect(answer.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect(log.text()).toBe('');
    } finally {
      await log.server.close();
    }
  });
});
