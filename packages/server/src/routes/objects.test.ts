import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, SEARCH_KEY } from '../test-support.ts';
import { retrieve } from './objects.ts';
import type { TestApp } from '../test-support.ts';

describe('record routes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ limits: { maxRecordBytes: 200 } });
  });
  afterAll(() => t.close());

  it("rejects a record over the size limit with Algolia's message, position and objectID, applying nothing", async () => {
    const response = await t.call('POST', '/1/indexes/big/batch', {
      requests: [
        { action: 'addObject', body: { objectID: 'ok', name: 'small' } },
        { action: 'addObject', body: { objectID: 'huge', text: 'x'.repeat(300) } },
      ],
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/^Record at the position 1 objectID=huge is too big size=\d+\/200 bytes/);
    expect(t.store.hasIndex('big')).toBe(false);
  });

  it('answers a task for every index of a multi-index batch, whatever its name', async () => {
    const response = await t.call('POST', '/1/indexes/*/batch', {
      requests: [
        { action: 'addObject', indexName: '__proto__', body: { objectID: 'a' } },
        { action: 'addObject', indexName: 'constructor', body: { objectID: 'b' } },
      ],
    });
    expect(response.statusCode).toBe(200);
    expect(Object.keys(response.json().taskID).sort()).toEqual(['__proto__', 'constructor']);
    await t.settle(response);
    expect((await t.call('GET', '/1/indexes/__proto__/a')).json()).toEqual({ objectID: 'a' });
  });

  it('rejects the whole batch when one request is invalid (never a partial batch)', async () => {
    const bad = await t.call('POST', '/1/indexes/atomic/batch', {
      requests: [
        { action: 'addObject', body: { objectID: 'a' } },
        { action: 'partialUpdateObject', body: { objectID: 'b', n: { _operation: 'Increment', value: 'one' } } },
      ],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/position 1/);
    const unknown = await t.call('POST', '/1/indexes/atomic/batch', { requests: [{ action: 'upsert', body: { objectID: 'a' } }] });
    expect(unknown.statusCode).toBe(400);
    expect(t.store.hasIndex('atomic')).toBe(false);
  });

  it('requires objectIDs where Algolia does and accepts numeric ones as strings', async () => {
    const missing = await t.call('POST', '/1/indexes/ids/batch', { requests: [{ action: 'updateObject', body: { name: 'x' } }] });
    expect(missing.statusCode).toBe(400);
    const numeric = await t.call('POST', '/1/indexes/ids/batch', { requests: [{ action: 'updateObject', body: { objectID: 42 } }] });
    expect(numeric.json().objectIDs).toEqual(['42']);
    await t.settle(numeric);
    expect((await t.call('GET', '/1/indexes/ids/42')).json()).toEqual({ objectID: '42' });
  });

  it('applies mixed batches in order: later actions see earlier ones', async () => {
    const response = await t.call('POST', '/1/indexes/order/batch', {
      requests: [
        { action: 'addObject', body: { objectID: 'a', n: 1 } },
        { action: 'partialUpdateObject', body: { objectID: 'a', n: { _operation: 'Increment', value: 1 } } },
        { action: 'addObject', body: { objectID: 'b' } },
        { action: 'deleteObject', body: { objectID: 'b' } },
        { action: 'partialUpdateObjectNoCreate', body: { objectID: 'c', n: 1 } },
      ],
    });
    await t.settle(response);
    expect((await t.call('GET', '/1/indexes/order/a')).json()).toEqual({ objectID: 'a', n: 2 });
    expect((await t.call('GET', '/1/indexes/order/b')).statusCode).toBe(404);
    expect((await t.call('GET', '/1/indexes/order/c')).statusCode).toBe(404);
  });

  it('hides unretrievable attributes from search keys but not from the admin key', async () => {
    await t.settle(await t.call('PUT', '/1/indexes/secret/settings', { unretrievableAttributes: ['cost'] }));
    await t.settle(await t.call('PUT', '/1/indexes/secret/s1', { name: 'x', cost: 3 }));
    expect((await t.call('GET', '/1/indexes/secret/s1', undefined, SEARCH_KEY)).json()).toEqual({ objectID: 's1', name: 'x' });
    expect((await t.call('GET', '/1/indexes/secret/s1')).json()).toEqual({ objectID: 's1', name: 'x', cost: 3 });
  });

  it('retrieves nested attributes and honours exclusions', async () => {
    const record = { objectID: 'n', name: 'x', price: 3, cat: { lvl0: 'Home', lvl1: 'Home > Lamps' } };
    expect(retrieve(record, ['cat.lvl0', 'price'], undefined)).toEqual({ objectID: 'n', cat: { lvl0: 'Home' }, price: 3 });
    expect(retrieve(record, ['*', '-cat'], undefined)).toEqual({ objectID: 'n', name: 'x', price: 3 });
    expect(retrieve(record, 'name,missing.path', ['name'])).toEqual({ objectID: 'n' });
    expect(retrieve(record, undefined, undefined)).toBe(record);
  });

  it('retrieves and hides paths through keys that hold dots, as searches do', () => {
    const record = { objectID: 'd', 'meta.size': 'S', meta: { size: 'M', color: 'red' }, secret: { 'cost.eur': 3, note: 'n' } };
    expect(retrieve(record, ['meta.size'], undefined)).toEqual({ objectID: 'd', 'meta.size': 'S', meta: { size: 'M' } });
    expect(retrieve(record, ['*'], ['secret.cost.eur', 'meta.size'])).toEqual({ objectID: 'd', meta: { color: 'red' }, secret: { note: 'n' } });
    expect(record.secret).toEqual({ 'cost.eur': 3, note: 'n' });
  });

  it('answers 404 for a missing index and for a missing record', async () => {
    expect((await t.call('GET', '/1/indexes/nowhere/x')).json()).toEqual({ message: 'Index does not exist', status: 404 });
    expect((await t.call('POST', '/1/indexes/nowhere/query', {})).statusCode).toBe(404);
  });

  it('rejects bad deleteByQuery filters before logging anything', async () => {
    const response = await t.call('POST', '/1/indexes/order/deleteByQuery', { filters: 'price >' });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/^filters:/);
  });
});
