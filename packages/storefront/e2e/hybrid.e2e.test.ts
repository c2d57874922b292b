/**
 * Search by meaning in the shop with no storefront change: the demo catalogue's index gets an embedder (the
 * server tests' loopback embedder, whose vectors put "couch" beside "sofa" and "chair") and the `hybrid`
 * setting, and a shopper typing a word no product has finds the sofas and chairs; the server-rendered page of
 * that search shows them too. Checked first through the API: the keyword search alone finds nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoIndexName } from '@vitrine/demo';
import { restEmbedderSettings, startTestEmbedder, type TestEmbedder } from '../../server/test/fixtures/embedder-server.ts';
import { hitNames, openShopPage, typeQuery, useShop } from './harness.ts';

// Wide, so that few words share a place with "sofa" and "chair" (the test embedder hashes each word to one).
const DIMS = 2048;
const shop = useShop();
let embedder: TestEmbedder;

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${shop.harness.baseURL}${path}`, {
    method,
    headers: { 'x-algolia-application-id': shop.harness.appId, 'x-algolia-api-key': shop.harness.adminApiKey },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

/** Polls a condition (in a hook, where `expect.poll` cannot run) for up to a minute. */
async function until(check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  embedder = await startTestEmbedder(DIMS);
  const { taskID } = await api<{ taskID: number }>('PUT', `/1/indexes/${demoIndexName}/settings`, {
    embedders: { meaning: restEmbedderSettings(embedder, DIMS, 'openai', { documentTemplate: '{{doc.name}}' }) },
    hybrid: { semanticRatio: 0.5 },
  });
  await until(async () => (await api<{ status: string }>('GET', `/1/indexes/${demoIndexName}/task/${taskID}`)).status === 'published');
  await until(async () => (await api<{ embedders: { meaning: { missing: number } } }>('GET', `/1/indexes/${demoIndexName}/embedders`)).embedders.meaning.missing === 0);
});

afterAll(async () => {
  await embedder?.close();
});

const seat = /\b(sofa|chair)/i;

describe('search by meaning in the shop', () => {
  it('finds sofas and chairs for "couch", a word no product has', async () => {
    const keywords = await api<{ nbHits: number }>('POST', `/1/indexes/${demoIndexName}/query`, { query: 'couch', hybrid: { semanticRatio: 0 } });
    expect(keywords.nbHits).toBe(0);
    expect(shop.harness.products.some((product) => seat.test(product.name))).toBe(true);

    await openShopPage(shop.page, '/');
    await typeQuery(shop.page, 'couch');
    await expect.poll(async () => (await hitNames(shop.page))[0] ?? '').toMatch(seat);
  });

  it('shows them on the server-rendered page of that search too', async () => {
    const response = await fetch(`${shop.harness.baseURL}/?q=couch`, { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    const html = await response.text();
    const first = /class="vt-hit-name"[^>]*>(.*?)<\//s.exec(html)?.[1] ?? '';
    expect(first.replace(/<[^>]+>/g, '')).toMatch(seat);
  });
});
