/**
 * Caps on `POST /1/events` over real sockets, each client from its own loopback address (127.0.0.x as the
 * connection's source: without a trusted proxy, the address is the client's IP): per IP, per API key (a secured
 * key spends its parent's) and per userToken, a minute each. Past a cap a batch is refused whole with 429 and
 * Algolia's body, nothing of it stored or counted, while other IPs, keys and user tokens keep sending.
 */
import Database from 'better-sqlite3';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, APP_ID, securedApiKey, startTestServer } from '../../src/test-support.ts';
import type { TestServer } from '../../src/test-support.ts';

const LIMITS = { maxEventsPerIPPerMinute: 300, maxEventsPerKeyPerMinute: 600, maxEventsPerUserTokenPerMinute: 100 };

describe('event caps', () => {
  let t: TestServer;
  let db: Database.Database;
  const stored = (name: string) => (db.prepare('SELECT COUNT(*) AS n FROM events WHERE name = ?').get(name) as { n: number }).n;
  const newKey = () => t.createKey({ acl: ['search'] });

  /** `count` view events named `name`, of `users` user tokens in turn (ten of the batch's own by default). */
  const batch = (name: string, count: number, users = Array.from({ length: 10 }, (_, i) => `${name}-${i}`)) =>
    ({ events: Array.from({ length: count }, (_, i) => ({ eventType: 'view', eventName: name, index: 'products', userToken: users[i % users.length], objectIDs: ['1'] })) });

  /** POST /1/events from `ip`; `body` sent as is when a string. */
  const send = (ip: string, key: string, body: unknown) =>
    new Promise<{ status: number; body: { message: string; status: number }; connection?: string }>((resolve, reject) => {
      const payload = typeof body === 'string' ? body : JSON.stringify(body);
      const req = request(`${t.url}/1/events`, {
        method: 'POST',
        localAddress: ip,
        headers: { 'content-type': 'application/json', 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': key },
      }, (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, body: JSON.parse(text), connection: response.headers.connection }));
      });
      req.on('error', reject);
      req.end(payload);
    });

  beforeAll(async () => {
    t = await startTestServer({ config: { limits: LIMITS, insights: { modelRebuildIntervalMs: 0, suggestionsRebuildIntervalMs: 0 } } });
    db = new Database(join(t.dataDir, 'insights.sqlite'), { readonly: true });
  });
  afterAll(async () => {
    db.close();
    await t.close();
  });

  it('refuses a userToken past its minute, whole, while other user tokens of the same client go on', async () => {
    const key = await newKey();
    expect(await send('127.0.0.2', key, batch('ann', 90, ['ann']))).toMatchObject({ status: 200 });
    const refused = await send('127.0.0.2', key, batch('ann', 20, ['ann']));
    expect(refused).toMatchObject({ status: 429, body: { status: 429, message: 'Too many events: at most 100 per minute per userToken' } });
    expect(stored('ann')).toBe(90);
    // The refused batch was not counted: the ten events left still go through.
    expect((await send('127.0.0.2', key, batch('ann', 10, ['ann']))).status).toBe(200);
    expect((await send('127.0.0.2', key, batch('bob', 50, ['bob']))).status).toBe(200);
    expect(stored('ann')).toBe(100);
    expect(stored('bob')).toBe(50);
  });

  it('refuses an IP past its minute, before reading the body, while other IPs with the same key go on', async () => {
    const key = await newKey();
    for (let i = 0; i < 3; i++) expect((await send('127.0.0.3', key, batch(`from-3-${i}`, 100))).status).toBe(200);
    const refused = await send('127.0.0.3', key, batch('from-3-late', 1));
    // The connection is closed: a client that keeps sending pays a connection a request, and no body is read.
    expect(refused).toEqual({ status: 429, body: { status: 429, message: 'Too many events: at most 300 per minute per IP address' }, connection: 'close' });
    expect(stored('from-3-late')).toBe(0);
    // Past the cap, the body is not even read: malformed JSON is refused as over the cap, not as a bad body.
    expect((await send('127.0.0.3', key, '{"events": [')).status).toBe(429);
    expect((await send('127.0.0.4', key, batch('from-4', 100, ['someone-else']))).status).toBe(200);
    expect(stored('from-4')).toBe(100);
    // The admin key is not limited.
    expect((await send('127.0.0.3', ADMIN_KEY, batch('admin-from-3', 100))).status).toBe(200);
  });

  it('refuses a key past its minute from every IP, secured keys counting as their parent, while other keys go on', async () => {
    const key = await newKey();
    for (const [i, ip] of ['127.0.0.5', '127.0.0.6'].entries()) expect((await send(ip, key, batch(`key-${i}`, 250))).status).toBe(200);
    const secured = securedApiKey(key, { filters: 'brand:Lumio' });
    expect((await send('127.0.0.7', secured, batch('secured', 100))).status).toBe(200);
    const refused = await send('127.0.0.7', key, batch('key-late', 1));
    expect(refused).toMatchObject({ status: 429, body: { status: 429, message: 'Too many events: at most 600 per minute per API key' } });
    expect((await send('127.0.0.8', securedApiKey(key, { filters: 'brand:Other' }), batch('secured-late', 1))).status).toBe(429);
    expect(stored('key-late') + stored('secured-late')).toBe(0);
    expect((await send('127.0.0.7', await newKey(), batch('other-key', 100))).status).toBe(200);
    expect(stored('other-key')).toBe(100);
  });
});
