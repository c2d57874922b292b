/**
 * The search scheduler: calls answered in slices, clients taking turns, so that a client's huge call delays
 * another client's small one by a slice or so, not by the whole call; a call's response past its budget fails
 * with a 400 as soon as it is crossed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoSettings, generateProducts } from '@vitrine/demo';
import { ApiError } from '../errors.ts';
import { Store } from '../storage/store.ts';
import { bodyText, removeDir, tempDir } from '../test-support.ts';
import { answerSearchCall, type QuerySpec, type SearchAnswer, type SearchCall } from './queries.ts';
import { SearchScheduler } from './scheduler.ts';

const dataDir = tempDir();
let store: Store;

beforeAll(async () => {
  store = await Store.open({ dataDir });
  await store.setSettings('products', demoSettings);
  await store.waitForTask((await store.saveObjects('products', [...generateProducts(2000, 3)])).taskID);
  await store.waitForTask((await store.saveObjects('accents', Array.from({ length: 50 }, (_, i) => ({ objectID: String(i), name: 'é'.repeat(200) })))).taskID);
});

afterAll(async () => {
  await store.close();
  removeDir(dataDir);
});

/** A page of 1,000 hits, every attribute highlighted and snippeted: hundreds of milliseconds for 20 of them. */
const heavy: QuerySpec = {
  indexName: 'products',
  type: 'default',
  params: { query: 'a', hitsPerPage: 1000, facets: ['*'], maxValuesPerFacet: 1000, attributesToHighlight: ['*'], attributesToSnippet: ['*'] },
};
const light: QuerySpec = { indexName: 'products', type: 'default', params: { query: 'lamp', hitsPerPage: 20, facets: ['brand'] } };

function call(client: string, queries: QuerySpec[], maxResponseBytes = 1 << 30): SearchCall {
  return { queries, strategy: 'none', forcedFilter: null, withIndex: true, client, maxResponseBytes };
}

function text(answer: SearchAnswer): string {
  return bodyText(answer.body);
}

describe('search scheduler', () => {
  it("answers a client's small call while another's huge one is under way, then the huge one whole", async () => {
    const scheduler = new SearchScheduler(() => store.registry);
    const order: string[] = [];
    const huge = scheduler.run(call('10.0.0.1', [heavy, heavy, heavy])).then((answer) => {
      order.push('huge');
      return answer;
    });
    // Sent after the huge call began, from another client.
    const small = scheduler.run(call('10.0.0.2', [light])).then((answer) => {
      order.push('small');
      return answer;
    });
    const [hugeAnswer, smallAnswer] = await Promise.all([huge, small]);
    expect(order).toEqual(['small', 'huge']);
    // Both exactly as answered in one go: the huge one came in pieces, one per slice.
    expect(hugeAnswer.body).toBeInstanceOf(Array);
    const expected = answerSearchCall(store.registry, call('10.0.0.1', [heavy, heavy, heavy]));
    expect(withoutTimes(text(hugeAnswer))).toEqual(withoutTimes(expected.body));
    expect(hugeAnswer.bytes).toBe(Buffer.byteLength(text(hugeAnswer)));
    expect(withoutTimes(text(smallAnswer))).toEqual(withoutTimes(answerSearchCall(store.registry, call('10.0.0.2', [light])).body));
  });

  it("answers one client's calls in order, and takes turns between clients", async () => {
    const scheduler = new SearchScheduler(() => store.registry);
    const order: string[] = [];
    const runs = [
      ['a1', '10.0.0.1', [heavy, heavy]],
      ['a2', '10.0.0.1', [light]],
      ['b1', '10.0.0.2', [light]],
    ] as const;
    await Promise.all(runs.map(([name, client, queries]) => scheduler.run(call(client, [...queries])).then(() => order.push(name))));
    // b1 came after a2 but did not wait for a1; a2 waited for a1, from the same client.
    expect(order).toEqual(['b1', 'a1', 'a2']);
    expect(scheduler.pending).toBe(0);
  });

  it('fails a call whose response grows past its budget, as soon as it does', async () => {
    const scheduler = new SearchScheduler(() => store.registry);
    const budget = 200_000;
    const error = await scheduler.run(call('10.0.0.1', Array.from({ length: 100 }, () => heavy), budget)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).message).toBe(
      'Response too large: the limit is 200000 bytes; ask for fewer hits, facet values, or highlighted or snippeted attributes',
    );
    // A call within the budget is answered.
    const answer = await scheduler.run(call('10.0.0.1', [light], budget));
    expect(answer.bytes).toBeLessThanOrEqual(budget);
  });

  it('counts the budget in bytes of UTF-8, not in characters', async () => {
    const scheduler = new SearchScheduler(() => store.registry);
    const accents: QuerySpec = { indexName: 'accents', type: 'default', params: { hitsPerPage: 50 } };
    const { body } = answerSearchCall(store.registry, call('10.0.0.1', [accents]));
    const between = Math.floor((body.length + Buffer.byteLength(body)) / 2);
    expect(body.length).toBeLessThan(between);
    await expect(scheduler.run(call('10.0.0.1', [accents], between))).rejects.toThrow(/Response too large/);
    expect((await scheduler.run(call('10.0.0.1', [accents], Buffer.byteLength(body) + 100))).bytes).toBeGreaterThan(between);
  });
});

function withoutTimes(body: string): unknown {
  return JSON.parse(body, (key, value: unknown) => (key === 'processingTimeMS' ? undefined : value));
}
