/**
 * Search threads: a server with them answers every search exactly as one without (same writes, same requests),
 * holds the records in the threads only, sees a task as soon as it is published, starts from a snapshot plus the
 * log, and keeps answering when a thread dies (the other thread, or the same once restarted).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { demoReplicaSettings, demoSettings, generateProducts } from '@vitrine/demo';
import { buildApp } from '../app.ts';
import { Store } from '../storage/store.ts';
import { getMeta } from '../storage/db.ts';
import { createSnapshotFolder, readSnapshot } from '../storage/snapshot.ts';
import { answerSearchCall, type SearchCall } from './queries.ts';
import { SearchThreads } from './threads.ts';
import { ADMIN_KEY, APP_ID, SEARCH_KEY, bodyText, removeDir, securedApiKey, tempDir } from '../test-support.ts';

const config = { appId: APP_ID, adminApiKey: ADMIN_KEY, searchApiKey: SEARCH_KEY };
const headers = { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': SEARCH_KEY, 'content-type': 'text/plain' };

const dataDir = tempDir();
const referenceDir = tempDir();
let store: Store;
/** The same writes, in a store without search threads: what the main thread would answer. */
let reference: Store;
let inline: FastifyInstance;
let threaded: FastifyInstance;

async function post(app: FastifyInstance, url: string, body: unknown, apiKey = SEARCH_KEY) {
  const response = await app.inject({ method: 'POST', url, headers: { ...headers, 'x-algolia-api-key': apiKey }, payload: JSON.stringify(body) });
  return { status: response.statusCode, body: response.json() as Record<string, unknown>, headers: response.headers, text: response.body };
}

/** A multi-query call as the query route makes it. */
function searchCall(queries: SearchCall['queries']): SearchCall {
  return { queries, strategy: 'none', forcedFilter: null, withIndex: true, client: '127.0.0.1', maxResponseBytes: 10 << 20 };
}

function results(body: string | Uint8Array[]): unknown[] {
  return (JSON.parse(bodyText(body)) as { results: unknown[] }).results;
}

/** Responses without what differs between two runs of the same search. */
function comparable(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value), (key, v: unknown) => (key === 'processingTimeMS' || key === 'queryID' ? undefined : v));
}

async function fill(target: Store, snapshotBetween: boolean): Promise<void> {
  await target.setSettings('products', demoSettings);
  for (const [replica, settings] of Object.entries(demoReplicaSettings)) await target.setSettings(replica, settings);
  const products = [...generateProducts(3000, 5)];
  await target.saveObjects('products', products.slice(0, 2000));
  if (snapshotBetween) await target.snapshot();
  const last = await target.saveObjects('products', products.slice(2000));
  await target.waitForTask(last.taskID);
}

beforeAll(async () => {
  store = await Store.open({ dataDir });
  // A snapshot in between: the threads start from it plus the log after it.
  await fill(store, true);
  reference = await Store.open({ dataDir: referenceDir });
  // A snapshot at the same point: it builds the customRanking orders, and `_rankingInfo.userScore` (a document's
  // place in the order, documents appended since placed between their neighbours) depends on when that was.
  await fill(reference, true);
  inline = await buildApp({ store: reference, config });
  threaded = await buildApp({ store, config: { ...config, searchThreads: 2 } });
  await threaded.searchThreads!.whenReady(2);
}, 60_000);

afterAll(async () => {
  await threaded.close();
  await inline.close();
  await store.close();
  await reference.close();
  removeDir(dataDir);
  removeDir(referenceDir);
});

describe('search threads', () => {
  const calls: Array<{ url: string; body: unknown }> = [
    { url: '/1/indexes/*/queries', body: { requests: [{ indexName: 'products', query: 'lamp', facets: ['brand', 'color'], hitsPerPage: 5 }] } },
    {
      url: '/1/indexes/*/queries',
      body: {
        requests: [
          { indexName: 'products', query: 'oak tab', facetFilters: [['brand:Vertek', 'color:Red']], numericFilters: ['price>=10'], facets: ['*'] },
          { indexName: 'products', query: 'oak tab', hitsPerPage: 0, facets: ['brand'], clickAnalytics: true },
          { indexName: 'products', type: 'facet', facet: 'brand', params: 'facetQuery=ve' },
          { indexName: 'products_price_asc', query: 'chair', hitsPerPage: 3 },
          { indexName: 'products_relevant_price_asc', query: 'chair', hitsPerPage: 3 },
        ],
      },
    },
    {
      url: '/1/indexes/*/queries',
      body: { strategy: 'stopIfEnoughMatches', requests: [{ indexName: 'products', query: 'lamp', hitsPerPage: 2 }, { indexName: 'products', query: 'desk' }] },
    },
    { url: '/1/indexes/products/query', body: { query: 'wireles', getRankingInfo: true, attributesToSnippet: ['description:5'] } },
    { url: '/1/indexes/products/query', body: { params: 'query=steel&filters=price%20%3C%20100%20AND%20NOT%20color%3ARed&page=2' } },
    // Megabytes, built over several slices and sent in pieces.
    { url: '/1/indexes/*/queries', body: { requests: [{ indexName: 'products', query: 'a', hitsPerPage: 1000, attributesToHighlight: ['*'], attributesToSnippet: ['*'] }, { indexName: 'products', query: 'é', hitsPerPage: 500 }] } },
  ];

  it('answers exactly as the main thread does', async () => {
    for (const call of calls) {
      const expected = await post(inline, call.url, call.body);
      const actual = await post(threaded, call.url, call.body);
      expect(actual.status).toBe(200);
      expect(Number(actual.headers['content-length'])).toBe(Buffer.byteLength(actual.text));
      expect(comparable(actual.body)).toEqual(comparable(expected.body));
    }
  });

  it('applies the filters a secured key forces', async () => {
    const key = securedApiKey(SEARCH_KEY, { filters: 'free_shipping:true AND price < 200' });
    const body = { requests: [{ indexName: 'products', query: 'a', facets: ['free_shipping'] }] };
    const open = await post(threaded, '/1/indexes/*/queries', body);
    const forced = await post(threaded, '/1/indexes/*/queries', body, key);
    const results = (response: { body: Record<string, unknown> }) => response.body.results as Array<{ nbHits: number; facets: Record<string, Record<string, number>> }>;
    expect(results(forced)[0].nbHits).toBeLessThan(results(open)[0].nbHits);
    expect(Object.keys(results(forced)[0].facets.free_shipping)).toEqual(['true']);
    expect(comparable(forced.body)).toEqual(comparable((await post(inline, '/1/indexes/*/queries', body, key)).body));
  });

  it('returns caller mistakes as Algolia errors', async () => {
    const missing = await post(threaded, '/1/indexes/*/queries', { requests: [{ indexName: 'nothing', query: 'x' }] });
    expect(missing).toMatchObject({ status: 404, body: { message: 'Index does not exist', status: 404 } });
    const badFilter = await post(threaded, '/1/indexes/products/query', { filters: 'price <' });
    expect(badFilter.status).toBe(400);
    expect(badFilter.body).toEqual((await post(inline, '/1/indexes/products/query', { filters: 'price <' })).body);
  });

  it('sees every task as soon as it is published', async () => {
    for (let round = 0; round < 30; round++) {
      const objectID = `fresh-${round}`;
      const task = await store.saveObjects('products', [{ objectID, name: `zebrawood stool ${round}` }]);
      await store.waitForTask(task.taskID);
      const found = await post(threaded, '/1/indexes/products/query', { query: `zebrawood stool ${round}`, filters: `objectID:${objectID}` });
      expect(found.body.nbHits).toBe(1);
    }
  });

  it('takes snapshots in a thread, with the state the main thread has', async () => {
    const threads = threaded.searchThreads!;
    const taken = threads.snapshotsTaken;
    const task = await store.saveObjects('products', [{ objectID: 'snap-1', name: 'axolotl lamp' }]);
    await store.waitForTask(task.taskID);
    await store.snapshot();
    expect(threads.snapshotsTaken).toBe(taken + 1);
    const seq = Number(getMeta(store.db, 'snapshot_seq'));
    expect(seq).toBe(task.taskID);
    // What the thread wrote is what the main thread holds: same answers from a registry loaded from it.
    const loaded = await readSnapshot(dataDir, seq);
    const call = searchCall([{ indexName: 'products', type: 'default', params: { query: 'axolotl lamp', facets: ['brand'] } }, { indexName: 'products', type: 'default', params: { query: 'oak', hitsPerPage: 50 } }]);
    const fromSnapshot = results(answerSearchCall(loaded, call).body).map(comparable);
    const live = results((await threads.search(call)).body).map(comparable);
    expect(fromSnapshot).toEqual(live);
    expect((fromSnapshot[0] as { nbHits: number }).nbHits).toBe(1);
    expect(loaded.get('products')!.engine!.size).toBe(3001 + 30);
  });

  it('holds the records in the threads only: the main thread keeps settings, and reads go to a thread', async () => {
    expect(store.registry.recordsHere).toBe(false);
    expect(store.registry.get('products')!.engine!.size).toBe(0);
    // The count the thread reports, which the snapshot budget weighs a copy or a rebuilding settings change with.
    expect(store.registry.sizeOf(store.registry.get('products')!)).toBe(3031);
    expect(store.registry.sizeOf(store.registry.get('products_price_asc')!)).toBe(3031);
    expect(store.registry.get('products')!.settings.searchableAttributes).toEqual(demoSettings.searchableAttributes);
    const adminHeaders = { ...headers, 'x-algolia-api-key': ADMIN_KEY };
    const record = await threaded.inject({ method: 'GET', url: '/1/indexes/products/snap-1', headers: adminHeaders });
    expect(record.json()).toMatchObject({ objectID: 'snap-1', name: 'axolotl lamp' });
    const listed = await threaded.inject({ method: 'GET', url: '/1/indexes', headers: adminHeaders });
    const products = (listed.json() as { items: Array<{ name: string; entries: number; dataSize: number }> }).items.find((item) => item.name === 'products')!;
    expect(products.entries).toBe(3031);
    expect(products.dataSize).toBeGreaterThan(3031 * 100);
    const browsed = await post(threaded, '/1/indexes/products/browse', { filters: 'objectID:snap-1' }, ADMIN_KEY);
    expect(browsed.body).toMatchObject({ nbHits: 1, hits: [{ objectID: 'snap-1' }] });
    const facets = await post(threaded, '/1/indexes/products/facets/brand/query', { facetQuery: 've' });
    expect(comparable(facets.body)).toEqual(comparable((await post(inline, '/1/indexes/products/facets/brand/query', { facetQuery: 've' })).body));
  });

  it('keeps answering when a thread dies, and starts it again', async () => {
    const threads = threaded.searchThreads!;
    await threads.crashOne();
    const during = await Promise.all(Array.from({ length: 20 }, () => post(threaded, '/1/indexes/products/query', { query: 'lamp' })));
    for (const response of during) expect(response.status).toBe(200);
    // The replacement starts from the state as it is now, writes made meanwhile included.
    const task = await store.saveObjects('products', [{ objectID: 'after-crash', name: 'quokka lamp' }]);
    await store.waitForTask(task.taskID);
    await threads.whenReady(2);
    for (let i = 0; i < 4; i++) expect((await post(threaded, '/1/indexes/products/query', { query: 'quokka' })).body.nbHits).toBe(1);
  }, 30_000);

  // Last: a SearchThreads of its own takes over the store's snapshots, and gives them up when closed.
  it('answers searches while the only thread writes a snapshot, and publishes writes made meanwhile once it applied them', async () => {
    const single = new SearchThreads(store, 1);
    let dir = '';
    try {
      await single.whenReady(1);
      // Made after the thread is ready: a thread done loading prunes the snapshot folders no snapshot is using.
      dir = await createSnapshotFolder(dataDir);
      const seq = (store as unknown as { appliedSeq: number }).appliedSeq;
      const events: string[] = [];
      const capture = single.capture(seq, dir, () => events.push('released')).then((manifest) => {
        events.push('written');
        return manifest;
      });
      const call = searchCall([{ indexName: 'products', type: 'default', params: { query: 'oak', facets: ['brand'] } }]);
      const running = single.run(call);
      expect(running).not.toBeNull();
      const answer = await running!.then((result) => {
        events.push('answered');
        return result;
      });
      const manifest = JSON.parse(await capture) as { seq: number; indexes: Array<{ name: string; engineFile?: string }> };
      // The search was answered while the snapshot was being written, before its last byte was.
      expect(events).toEqual(['answered', 'released', 'written']);
      expect(manifest.seq).toBe(seq);
      expect(manifest.indexes.find((index) => index.name === 'products')?.engineFile).toMatch(/^index-\d+\.bin$/);
      expect(results(answer.body).map(comparable)).toEqual(results((await threaded.searchThreads!.search(call)).body).map(comparable));
      // Writes made while the thread writes the store's snapshot: published only once the thread applied them.
      for (let round = 0; round < 5; round++) {
        // Something new to snapshot (the last round's write may have been applied before its snapshot began).
        await store.waitForTask((await store.saveObjects('products', [{ objectID: `before-${round}`, name: 'okapi stool' }])).taskID);
        const snapshot = store.snapshot();
        const task = await store.saveObjects('products', [{ objectID: `during-${round}`, name: `capybara lamp ${round}` }]);
        await store.waitForTask(task.taskID);
        const found = await single.run({ ...call, queries: [{ indexName: 'products', type: 'default' as const, params: { query: `capybara lamp ${round}` } }] })!;
        expect((results(found.body) as Array<{ nbHits: number }>)[0].nbHits).toBe(1);
        await snapshot;
      }
      expect(single.snapshotsTaken).toBe(6);
    } finally {
      await single.close();
      if (dir !== '') removeDir(dir);
    }
  }, 30_000);

  it('with its only thread gone, reads wait for it to start again rather than fail', async () => {
    const single = new SearchThreads(store, 1);
    try {
      await single.whenReady(1);
      await single.crashOne();
      const [record] = await single.read({ kind: 'objects', indexName: 'products', objectIDs: ['snap-1'], auth: null });
      expect(record).toMatchObject({ objectID: 'snap-1', name: 'axolotl lamp' });
      expect(single.readyCount).toBe(1);
    } finally {
      await single.close();
    }
  }, 30_000);
});
