/**
 * The HTTP benchmarks' workload (`http.ts`, `latency.ts`): a generated catalogue seeded over HTTP, then
 * InstantSearch-shaped multi-queries (a hits query with facets on 4 attributes, a refined disjunctive brand facet
 * and a numeric filter, plus the disjunctive facet's own query) and small write batches (10 partial updates).
 */
import { demoSettings, generateProducts } from '@vitrine/demo';
import type { Product } from '@vitrine/protocol';
import { ADMIN_KEY, APP_ID } from '../src/test-support.ts';

export const headers = { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': ADMIN_KEY, 'content-type': 'text/plain' };
export const SEARCH_PATH = '/1/indexes/*/queries';
export const WRITE_PATH = '/1/indexes/products/batch';

async function post(url: string, path: string, body: unknown, method = 'POST'): Promise<Record<string, unknown>> {
  const response = await fetch(`${url}${path}`, { method, headers, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

async function waitTask(url: string, taskID: number): Promise<void> {
  for (;;) {
    const response = await fetch(`${url}/1/indexes/products/task/${taskID}`, { headers });
    if (((await response.json()) as { status: string }).status === 'published') return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface Workload {
  /** A multi-query body: a query typed so far (a prefix of a catalogue word), two brands refined. */
  searchBody(): string;
  /** A batch of 10 partial updates (popularity + 1) of random products. */
  writeBody(): string;
}

/** The demo catalogue's settings on `products`. */
export async function putDemoSettings(url: string): Promise<void> {
  await post(url, '/1/indexes/products/settings', demoSettings, 'PUT');
}

/** Seeds `size` demo products into `products` (demo settings) and returns the request generators. */
export async function seedCatalogue(url: string, size: number): Promise<Workload> {
  await putDemoSettings(url);
  let batch: unknown[] = [];
  let lastTask = 0;
  for (const product of generateProducts(size)) {
    batch.push({ action: 'updateObject', body: product });
    if (batch.length === 1000) {
      lastTask = (await post(url, WRITE_PATH, { requests: batch })).taskID as number;
      batch = [];
    }
  }
  if (batch.length > 0) lastTask = (await post(url, WRITE_PATH, { requests: batch })).taskID as number;
  await waitTask(url, lastTask);
  return workloadOf(generateProducts(size));
}

/** Request generators over a catalogue of `products` (words and brands taken from its first products). */
export function workloadOf(products: Iterable<Product>): Workload {
  const words = new Set<string>();
  const brands = new Set<string>();
  let size = 0;
  for (const product of products) {
    if (words.size < 2000) for (const word of product.name.toLowerCase().split(/\s+/)) if (word.length > 3) words.add(word);
    if (brands.size < 200) brands.add(product.brand);
    size++;
  }
  const wordList = [...words];
  const brandList = [...brands];
  const pick = <T>(list: T[]): T => list[Math.floor(Math.random() * list.length)];
  const facets = ['brand', 'color', 'rating', 'hierarchicalCategories.lvl0'];
  return {
    searchBody() {
      const word = pick(wordList);
      const query = word.slice(0, 2 + Math.floor(Math.random() * (word.length - 1)));
      const refined = [pick(brandList), pick(brandList)];
      return JSON.stringify({
        requests: [
          { indexName: 'products', query, hitsPerPage: 20, facets, facetFilters: [refined.map((b) => `brand:${b}`)], numericFilters: ['price>=1'] },
          { indexName: 'products', query, hitsPerPage: 0, facets: ['brand'], numericFilters: ['price>=1'], analytics: false, clickAnalytics: false },
        ],
      });
    },
    writeBody() {
      return JSON.stringify({
        requests: Array.from({ length: 10 }, () => ({
          action: 'partialUpdateObject',
          body: { objectID: String(Math.floor(Math.random() * size)), popularity: { _operation: 'Increment', value: 1 } },
        })),
      });
    },
  };
}
